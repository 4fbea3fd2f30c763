"""Feedback: compute requests and the typed results of API.md 2.4 with DESIGN.md's choices.

Context shapes differ per task type, exactly as API.md 2.4 lists them: items carry arrays;
detected aspects carry a single context, except freeform and simulation, whose aspects are shown
by several spans of text.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BeforeValidator, Discriminator, Field, SkipValidation, Tag, model_validator

from core.api.answers import (
    Answer,
    FreeformTextAnswer,
    InTextChoicesAnswer,
    InTextFillInBlanksAnswer,
    MultipleChoiceAnswer,
    MultipleResponsesAnswer,
    SimulationAnswer,
    parse_answer,
)
from core.api.common import (
    AnyTaskType,
    ApiModel,
    AspectType,
    Correctness,
    FrozenApiModel,
    TaskAction,
    TaskType,
    always_sent,
    parse_task_type,
)
from core.api.tasks import AspectGroup, SampleSolutionText, TaskDefinition

C = TypeVar("C")
D = TypeVar("D")


class Aspect(ApiModel):
    """A detected aspect in a response; name, description and type are always sent (API.md 2.5)."""

    model_config = always_sent("description")

    name: str
    description: str = ""
    type: AspectType
    aspectGroup: AspectGroup | None = None


class Topic(ApiModel):
    name: str
    description: str | None = None


def verdict_of(achieved: float, achievable: float) -> Correctness:
    """DESIGN.md: all points → CORRECT, none → WRONG, anything between → PARTIAL."""
    if achievable <= 0:
        return Correctness.UNKNOWN
    if achieved >= achievable - 1e-9:
        return Correctness.CORRECT
    if achieved <= 1e-9:
        return Correctness.WRONG
    return Correctness.PARTIAL


class Points(ApiModel):
    achievedPoints: float
    achievablePoints: float

    @property
    def verdict(self) -> Correctness:
        return verdict_of(self.achievedPoints, self.achievablePoints)


class TextSpan(ApiModel):
    """A piece of the answer: answer.content[offset:offset+length] == content."""

    content: str
    offset: int
    length: int


class IndexedContent(ApiModel):
    content: str
    index: int


class OptionSelection(ApiModel):
    index: int
    selected: bool


class MessageSpan(ApiModel):
    """A piece of a learner's turn: messages[messageIndex].content[offset:offset+length] == content."""

    messageIndex: int
    content: str
    offset: int
    length: int


class FeedbackItem(ApiModel, Generic[C]):
    message: str
    aspects: list[Aspect] = Field(default_factory=list)
    correctness: Correctness
    topic: Topic
    context: list[C] = Field(default_factory=list)


class DetectedAspect(ApiModel, Generic[D]):
    aspect: Aspect
    context: D


def _feedback_name_of(value: Any) -> Any:
    try:
        return parse_task_type(value).feedback_name
    except ValueError:
        return value


_FEEDBACK_NAME = BeforeValidator(_feedback_name_of)
"""Lets a result's ``type`` arrive as the feedback name or the task type's enum name."""


class ResultBase(FrozenApiModel):
    """Frozen: the service hands the same result of a repeated answer to several feedbacks, and
    each feedback's JSON embeds the result's JSON made the first time."""

    points: Points

    @property
    def verdict(self) -> Correctness:
        return self.points.verdict


class FreeformTextResult(ResultBase):
    type: Annotated[Literal["FreeformTextFeedback"], _FEEDBACK_NAME] = "FreeformTextFeedback"
    allAspects: list[DetectedAspect[list[TextSpan]]] = Field(default_factory=list)
    answer: FreeformTextAnswer
    feedback: list[FeedbackItem[TextSpan]] = Field(default_factory=list)
    sampleSolutions: list[SampleSolutionText] = Field(default_factory=list)
    sampleSolution: SampleSolutionText | None = None


class BlanksSolution(ApiModel):
    blanks: list[SampleSolutionText]


class InTextFillInBlanksResult(ResultBase):
    type: Annotated[Literal["InTextFillInBlanksFeedback"], _FEEDBACK_NAME] = "InTextFillInBlanksFeedback"
    allAspects: list[DetectedAspect[IndexedContent]] = Field(default_factory=list)
    answer: InTextFillInBlanksAnswer
    feedback: list[FeedbackItem[IndexedContent]] = Field(default_factory=list)
    sampleSolution: BlanksSolution


class ChoicesSolution(ApiModel):
    choices: list[SampleSolutionText]


class InTextChoicesResult(ResultBase):
    type: Annotated[Literal["InTextChoicesFeedback"], _FEEDBACK_NAME] = "InTextChoicesFeedback"
    allAspects: list[DetectedAspect[IndexedContent]] = Field(default_factory=list)
    answer: InTextChoicesAnswer
    feedback: list[FeedbackItem[IndexedContent]] = Field(default_factory=list)
    sampleSolution: ChoicesSolution


class SelectedIndexSolution(ApiModel):
    selectedIndex: int


class MultipleChoiceResult(ResultBase):
    type: Annotated[Literal["MultipleChoiceFeedback"], _FEEDBACK_NAME] = "MultipleChoiceFeedback"
    allAspects: list[DetectedAspect[OptionSelection]] = Field(default_factory=list)
    answer: MultipleChoiceAnswer
    feedback: list[FeedbackItem[OptionSelection]] = Field(default_factory=list)
    sampleSolution: SelectedIndexSolution


class SelectedSolution(ApiModel):
    selected: list[bool]


class MultipleResponsesResult(ResultBase):
    type: Annotated[Literal["MultipleResponsesFeedback"], _FEEDBACK_NAME] = "MultipleResponsesFeedback"
    allAspects: list[DetectedAspect[OptionSelection]] = Field(default_factory=list)
    answer: MultipleResponsesAnswer
    feedback: list[FeedbackItem[OptionSelection]] = Field(default_factory=list)
    sampleSolution: SelectedSolution


class SimulationResult(ResultBase):
    type: Annotated[Literal["SimulationFeedback"], _FEEDBACK_NAME] = "SimulationFeedback"
    allAspects: list[DetectedAspect[list[MessageSpan]]] = Field(default_factory=list)
    answer: SimulationAnswer
    feedback: list[FeedbackItem[MessageSpan]] = Field(default_factory=list)
    sampleSolution: SampleSolutionText | None = None


_RESULT_TAGS = {
    spelling: task_type.feedback_name
    for task_type in TaskType
    for spelling in (task_type.value, task_type.schema_name, task_type.feedback_name)
}
"""A result's tag by its ``type`` in any of the three spellings parse_task_type reads: one lookup
for every Feedback built or read, rather than a parse."""


def _result_tag(value: Any) -> str | None:
    raw = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return _RESULT_TAGS.get(raw) if isinstance(raw, str) else None


FeedbackResult = Annotated[
    Annotated[FreeformTextResult, Tag("FreeformTextFeedback")]
    | Annotated[InTextFillInBlanksResult, Tag("InTextFillInBlanksFeedback")]
    | Annotated[InTextChoicesResult, Tag("InTextChoicesFeedback")]
    | Annotated[MultipleChoiceResult, Tag("MultipleChoiceFeedback")]
    | Annotated[MultipleResponsesResult, Tag("MultipleResponsesFeedback")]
    | Annotated[SimulationResult, Tag("SimulationFeedback")],
    Discriminator(_result_tag),
]


class LearnerMetaData(ApiModel):
    """API.md 2.6: what the client tells about the learner's attempt."""

    timeOnTask: int | None = Field(default=None, ge=0)
    tryCount: int | None = Field(default=None, ge=0)
    sessionId: str | None = Field(default=None, max_length=200)


class FeedbackMetaData(ApiModel):
    taskAction: TaskAction
    tenantId: str
    taskLink: str
    interactionId: str


class Feedback(FrozenApiModel):
    """The answer to a compute call. Frozen, so that its JSON can be made once and kept: the
    compute path records the very text that the route then sends as the response."""

    userId: str
    taskId: str
    taskType: AnyTaskType
    metaData: FeedbackMetaData
    result: FeedbackResult
    """The last field: its JSON, kept by the (often shared) result, closes the feedback's."""

    def _serialise(self) -> str:
        head = self.model_dump_json(by_alias=True, exclude_none=True, exclude={"result"})
        return f'{head[:-1]},"result":{self.result.to_wire_json()}}}'


UserId = Annotated[str, Field(min_length=1, max_length=200)]


class _ComputeBase(ApiModel):
    userId: UserId
    tenantId: str | None = Field(default=None, max_length=200)
    metaData: LearnerMetaData | None = None
    taskType: AnyTaskType
    answer: SkipValidation[Answer]
    """Validated by _answer_by_type (the union is the schema only: trying its members in turn on
    the already validated answer raised and caught an AttributeError per member)."""

    @model_validator(mode="before")
    @classmethod
    def _answer_by_type(cls, data: Any) -> Any:
        """Validate the answer against the shape of taskType instead of guessing from the union."""
        if isinstance(data, dict) and "answer" in data:
            try:
                task_type = parse_task_type(data.get("taskType"))
            except ValueError:
                return data  # the taskType field reports its own error
            data = {**data, "answer": parse_answer(task_type, data["answer"])}
        return data


class ComputeFeedbackRequest(_ComputeBase):
    """POST /feedback/compute: the task travels with every request (API.md 3, rule 1)."""

    taskDefinition: TaskDefinition

    @model_validator(mode="after")
    def _types_agree(self) -> ComputeFeedbackRequest:
        if self.taskDefinition.task_type != self.taskType:
            raise ValueError(
                f"taskType {self.taskType.value} does not match taskDefinition.type "
                f"{self.taskDefinition.type}"
            )
        return self


class ComputeTaskFeedbackRequest(_ComputeBase):
    """POST /tasks/{taskId}/feedback/compute: the task is already stored."""


class AspectsComputeRequest(ApiModel):
    tenantId: str = Field(min_length=1, max_length=200)
    taskDefinition: TaskDefinition


__all__ = [
    "Answer",
    "Aspect",
    "AspectsComputeRequest",
    "BlanksSolution",
    "ChoicesSolution",
    "ComputeFeedbackRequest",
    "ComputeTaskFeedbackRequest",
    "DetectedAspect",
    "Feedback",
    "FeedbackItem",
    "FeedbackMetaData",
    "FeedbackResult",
    "FreeformTextResult",
    "InTextChoicesResult",
    "InTextFillInBlanksResult",
    "IndexedContent",
    "LearnerMetaData",
    "MessageSpan",
    "MultipleChoiceResult",
    "MultipleResponsesResult",
    "OptionSelection",
    "Points",
    "SelectedIndexSolution",
    "SelectedSolution",
    "SimulationResult",
    "TaskType",
    "TextSpan",
    "Topic",
]
