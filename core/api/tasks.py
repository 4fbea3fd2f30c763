"""Task definitions: the six kinds of API.md 2.1 with the type-specific fields fixed by DESIGN.md.

The models check shape only; the rules that span fields (one correct option, one blank per gap)
live in :mod:`core.api.validation` so that the alpha aspects call can accept a partial task.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Discriminator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    Tag,
    TypeAdapter,
)

from core.api.common import ApiModel, AspectType, Language, TaskAction, TaskType, parse_task_type

Text = Annotated[str, Field(max_length=20_000)]
Name = Annotated[str, Field(min_length=1, max_length=200)]


def normalised_id(value: str) -> str:
    """One id, one spelling: Unicode NFC (an id typed on a Mac or pasted from a PDF may arrive
    decomposed, and would otherwise be a second task), and no control or invisible format
    characters (bidi overrides, zero-width joiners) that make two different ids look alike.

    Most ids are printable ASCII, which NFC leaves as it is and which holds no such character
    (ASCII's only ones are the controls, which are not printable): those are taken as they are,
    without a look at each character."""
    if value.isascii() and value.isprintable():
        return value
    value = unicodedata.normalize("NFC", value)
    hidden = next((ch for ch in value if unicodedata.category(ch).startswith("C")), None)
    if hidden is not None:
        raise ValueError(f"an id may not contain control or invisible characters (U+{ord(hidden):04X})")
    return value


Identifier = Annotated[
    str, Field(min_length=1, max_length=200, pattern=r"^[^/\s][^/]*$"), AfterValidator(normalised_id)
]
PathId = Annotated[str, AfterValidator(normalised_id)]
"""A task or tutor id in a URL path, read as the id in a body is."""


class AspectGroup(ApiModel):
    name: Name
    description: Text | None = None


class AspectDefinition(ApiModel):
    """What an author wants detected in answers: a concept to show or a misconception to avoid."""

    name: Name
    description: Text = ""
    type: AspectType = AspectType.CONCEPT
    aspectGroup: AspectGroup | None = None
    cues: list[Text] = Field(default_factory=list, max_length=100)
    message: Text | None = None
    points: StrictFloat = Field(default=1.0, ge=0, le=1000)


def _schema_name_of(value: Any) -> Any:
    try:
        return parse_task_type(value).schema_name
    except ValueError:
        return value


_SCHEMA_NAME = BeforeValidator(_schema_name_of)
"""Lets a task's ``type`` arrive in either spelling (FreeformTextTask or FREEFORM_TEXT)."""


class GlossaryEntry(ApiModel):
    """Extension: a term of the task and the author's explanation of it for learners."""

    term: Name
    explanation: Text = Field(min_length=1)


def _no_empty_glossary(entries: list[GlossaryEntry] | None) -> list[GlossaryEntry] | None:
    """An empty glossary is none: a task without one keeps the same canonical JSON (UNCHANGED)."""
    return entries or None


class TaskBase(ApiModel):
    id: Identifier
    title: Annotated[str, Field(max_length=500)] = ""
    problemStatement: Text
    language: Language = Language.EN_US
    context: Text = ""
    glossary: Annotated[
        list[GlossaryEntry] | None,
        Field(
            max_length=200,
            description="Extension: terms of the task explained for learners; the tutor answers a "
            "question about one of them with its explanation.",
        ),
        AfterValidator(_no_empty_glossary),
    ] = None

    if TYPE_CHECKING:
        # Each kind declares its own ``type`` (a Literal of its schema name) after the common fields,
        # which keeps the fields' order in files and responses; the checker learns here that all have one.
        type: str

    task_type: ClassVar[TaskType]
    """The kind's task type, a constant of each kind's class (its ``type`` field holds the schema
    name): read several times a compute, it costs an attribute lookup rather than a parse."""

    @property
    def display_title(self) -> str:
        """API.md 2.1: a blank title is replaced by the task id."""
        return self.title.strip() or self.id


class SampleSolutionText(ApiModel):
    content: Text


class FreeformTextTask(TaskBase):
    type: Annotated[Literal["FreeformTextTask"], _SCHEMA_NAME] = "FreeformTextTask"
    task_type: ClassVar[TaskType] = TaskType.FREEFORM_TEXT
    sampleSolutions: list[SampleSolutionText] = Field(default_factory=list, max_length=50)
    aspects: list[AspectDefinition] = Field(default_factory=list, max_length=100)
    maxPoints: StrictFloat = Field(default=1.0, gt=0, le=1000)


class ChoiceOption(ApiModel):
    content: Text
    correct: StrictBool = False
    feedback: Text | None = None
    aspects: list[AspectDefinition] = Field(default_factory=list, max_length=20)


class MultipleChoiceTask(TaskBase):
    type: Annotated[Literal["MultipleChoiceTask"], _SCHEMA_NAME] = "MultipleChoiceTask"
    task_type: ClassVar[TaskType] = TaskType.MULTIPLE_CHOICE
    options: list[ChoiceOption] = Field(default_factory=list, max_length=50)


class MultipleResponsesTask(TaskBase):
    type: Annotated[Literal["MultipleResponsesTask"], _SCHEMA_NAME] = "MultipleResponsesTask"
    task_type: ClassVar[TaskType] = TaskType.MULTIPLE_RESPONSES
    options: list[ChoiceOption] = Field(default_factory=list, max_length=50)


class Matching(StrEnum):
    EXACT = "EXACT"
    CASE_INSENSITIVE = "CASE_INSENSITIVE"
    FUZZY = "FUZZY"
    NUMERIC = "NUMERIC"


class Blank(ApiModel):
    acceptedAnswers: list[Text] = Field(min_length=1, max_length=50)
    matching: Matching = Matching.CASE_INSENSITIVE
    tolerance: StrictFloat | None = Field(default=None, ge=0)
    feedback: Text | None = None
    aspects: list[AspectDefinition] = Field(default_factory=list, max_length=20)


class InTextFillInBlanksTask(TaskBase):
    """problemStatement marks the gaps as {{1}}, {{2}} …; blanks[i] belongs to gap i+1."""

    type: Annotated[Literal["InTextFillInBlanksTask"], _SCHEMA_NAME] = "InTextFillInBlanksTask"
    task_type: ClassVar[TaskType] = TaskType.IN_TEXT_FILL_IN_BLANKS
    blanks: list[Blank] = Field(default_factory=list, max_length=100)


class ChoicePoint(ApiModel):
    options: list[Text] = Field(min_length=2, max_length=20)
    correct: Text
    feedback: Text | None = None
    aspects: list[AspectDefinition] = Field(default_factory=list, max_length=20)


class InTextChoicesTask(TaskBase):
    """problemStatement marks the choice points as {{1}}, {{2}} …; choices[i] belongs to point i+1."""

    type: Annotated[Literal["InTextChoicesTask"], _SCHEMA_NAME] = "InTextChoicesTask"
    task_type: ClassVar[TaskType] = TaskType.IN_TEXT_CHOICES
    choices: list[ChoicePoint] = Field(default_factory=list, max_length=100)


class Persona(ApiModel):
    name: Name
    description: Text = ""


class SimulationTask(TaskBase):
    type: Annotated[Literal["SimulationTask"], _SCHEMA_NAME] = "SimulationTask"
    task_type: ClassVar[TaskType] = TaskType.SIMULATION
    scenarioDescription: Text = ""
    initialMessage: Text = ""
    persona: Persona | None = None
    sampleSolution: Text = ""
    timeLimitInMinutes: StrictFloat | None = Field(default=None, gt=0, le=24 * 60)
    maxTurns: StrictInt | None = Field(default=None, ge=1, le=500)
    aspects: list[AspectDefinition] = Field(default_factory=list, max_length=100)


def _task_tag(value: Any) -> str | None:
    raw = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    try:
        return parse_task_type(raw).schema_name
    except ValueError:
        return None


TaskDefinition = Annotated[
    Annotated[FreeformTextTask, Tag("FreeformTextTask")]
    | Annotated[InTextFillInBlanksTask, Tag("InTextFillInBlanksTask")]
    | Annotated[InTextChoicesTask, Tag("InTextChoicesTask")]
    | Annotated[MultipleChoiceTask, Tag("MultipleChoiceTask")]
    | Annotated[MultipleResponsesTask, Tag("MultipleResponsesTask")]
    | Annotated[SimulationTask, Tag("SimulationTask")],
    Discriminator(
        _task_tag,
        custom_error_type="invalid_task_type",
        custom_error_message=(
            "type must be one of FreeformTextTask, InTextFillInBlanksTask, InTextChoicesTask, "
            "MultipleChoiceTask, MultipleResponsesTask, SimulationTask (or their FREEFORM_TEXT … enum names)"
        ),
    ),
]
"""Any of the six task kinds, discriminated by ``type`` in either spelling."""

TASK_ADAPTER: TypeAdapter[TaskDefinition] = TypeAdapter(TaskDefinition)
"""Validates a task definition of any kind; its JSON Schema is the task-file schema."""


def parse_task(document: Any) -> TaskDefinition:
    """Validate a task definition of any kind (raises pydantic.ValidationError)."""
    return TASK_ADAPTER.validate_python(document)


TASK_MODELS: dict[TaskType, type[TaskBase]] = {
    TaskType.FREEFORM_TEXT: FreeformTextTask,
    TaskType.IN_TEXT_FILL_IN_BLANKS: InTextFillInBlanksTask,
    TaskType.IN_TEXT_CHOICES: InTextChoicesTask,
    TaskType.MULTIPLE_CHOICE: MultipleChoiceTask,
    TaskType.MULTIPLE_RESPONSES: MultipleResponsesTask,
    TaskType.SIMULATION: SimulationTask,
}


class UpsertTaskResponse(ApiModel):
    taskId: str
    tenantId: str
    action: TaskAction
    taskLink: str


class DeleteTaskResponse(ApiModel):
    message: str
    taskId: str
    tenantId: str


class TaskSummary(ApiModel):
    """Extension: one row of a tenant's task library."""

    taskId: str
    tenantId: str
    type: str
    title: str
    language: Language
    version: int
    updatedAt: datetime
    interactionCount: int = 0
    lastVerdicts: list[str] = Field(default_factory=list)


class TaskVersionSummary(ApiModel):
    """Extension: one version in a task's history (every create or change of its definition)."""

    version: int
    title: str
    author: str
    """The name of the token that wrote it ("" when not known)."""
    createdAt: datetime


class TaskVersion(TaskVersionSummary):
    """Extension: one version of a task with its definition as it was then."""

    tenantId: str
    taskId: str
    definition: TaskDefinition


class StoredTask(ApiModel):
    """Extension: a stored task with its bookkeeping."""

    tenantId: str
    version: int
    createdAt: datetime
    updatedAt: datetime
    taskLink: str
    definition: TaskDefinition
