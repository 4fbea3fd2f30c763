"""Answer shapes of API.md 2.3, one per task type, and the parser that picks the shape by type.

An answer is a value: frozen, so its JSON is made once, both to recognise an answer given before
(core.service.feedback.FeedbackOperations.judge) and to record it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StrictBool, StrictInt, TypeAdapter, ValidationError, model_validator

from core.api.common import ApiModel, FrozenApiModel, TaskType
from core.api.tasks import Text


class ContentPiece(ApiModel):
    content: Annotated[str, Field(max_length=5_000)]


class FreeformTextAnswer(FrozenApiModel):
    content: Text


class InTextFillInBlanksAnswer(FrozenApiModel):
    blanks: list[ContentPiece] = Field(max_length=100)


class InTextChoicesAnswer(FrozenApiModel):
    choices: list[ContentPiece] = Field(max_length=100)


class MultipleChoiceAnswer(FrozenApiModel):
    selectedIndex: Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)]


class MultipleResponsesAnswer(FrozenApiModel):
    selected: list[StrictBool] = Field(max_length=50)


class ChatTurn(ApiModel):
    role: str = Field(pattern="^(user|assistant|system)$")
    content: Text


class SimulationAnswer(FrozenApiModel):
    """DESIGN.md: either a stored session's conversationId or the transcript itself."""

    conversationId: str | None = None
    messages: list[ChatTurn] | None = Field(default=None, max_length=500)

    @model_validator(mode="after")
    def _one_source(self) -> SimulationAnswer:
        if not self.conversationId and not self.messages:
            raise ValueError("a simulation answer needs conversationId or messages")
        return self


Answer = (
    FreeformTextAnswer
    | InTextFillInBlanksAnswer
    | InTextChoicesAnswer
    | MultipleChoiceAnswer
    | MultipleResponsesAnswer
    | SimulationAnswer
)

ANSWER_MODELS: dict[TaskType, type[Answer]] = {
    TaskType.FREEFORM_TEXT: FreeformTextAnswer,
    TaskType.IN_TEXT_FILL_IN_BLANKS: InTextFillInBlanksAnswer,
    TaskType.IN_TEXT_CHOICES: InTextChoicesAnswer,
    TaskType.MULTIPLE_CHOICE: MultipleChoiceAnswer,
    TaskType.MULTIPLE_RESPONSES: MultipleResponsesAnswer,
    TaskType.SIMULATION: SimulationAnswer,
}
_ADAPTERS: dict[TaskType, TypeAdapter[Answer]] = {t: TypeAdapter(m) for t, m in ANSWER_MODELS.items()}


def parse_answer(task_type: TaskType, raw: Any) -> Answer:
    """Validate an answer against the shape of its task type; ValueError says what does not fit."""
    if isinstance(raw, ANSWER_MODELS[task_type]):
        return raw
    if isinstance(raw, ApiModel):
        raw = raw.model_dump()
    try:
        return _ADAPTERS[task_type].validate_python(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'answer'}: {err['msg']}" for err in exc.errors()
        )
        raise ValueError(f"the answer does not fit a {task_type.value} task ({problems})") from None
