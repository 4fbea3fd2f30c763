"""Shared vocabulary of the wire contract: the base model, enumerations and name mappings.

API.md lets task types travel in two spellings (schema names such as ``FreeformTextTask`` and the
enum ``FREEFORM_TEXT``) and feedback kinds in a third (``FreeformTextFeedback``). Everything that
reads a type goes through :func:`parse_task_type`, so clients may use any form anywhere.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict


class ApiModel(BaseModel):
    """Base of every wire model: tolerant of unknown fields, populated by field name or alias."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore", use_enum_values=False)

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict as it goes over the wire (aliases, no unset optional noise)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def to_wire_json(self) -> str:
        """The same as JSON text, serialised by pydantic-core (several times faster than json.dumps
        of to_wire())."""
        return self.model_dump_json(by_alias=True, exclude_none=True)


def always_sent(*fields: str) -> ConfigDict:
    """The configuration of a response model whose fields with defaults the server always sends:
    the OpenAPI document lists them as required, as a client may rely on them, while a model read
    from elsewhere (another server of this API) may still leave them out."""

    def mark_required(schema: dict[str, Any]) -> None:
        required = list(schema.get("required", []))
        schema["required"] = [*required, *(f for f in fields if f not in required)]

    return ConfigDict(json_schema_extra=mark_required)


class FrozenApiModel(ApiModel):
    """A wire model that cannot change, so its JSON is made once and kept."""

    model_config = ConfigDict(frozen=True)

    @cached_property
    def wire_json(self) -> str:
        return self._serialise()

    def to_wire_json(self) -> str:
        return self.wire_json

    def _serialise(self) -> str:
        return super().to_wire_json()


class TaskType(StrEnum):
    FREEFORM_TEXT = "FREEFORM_TEXT"
    IN_TEXT_FILL_IN_BLANKS = "IN_TEXT_FILL_IN_BLANKS"
    IN_TEXT_CHOICES = "IN_TEXT_CHOICES"
    MULTIPLE_CHOICE = "MULTIPLE_CHOICE"
    MULTIPLE_RESPONSES = "MULTIPLE_RESPONSES"
    SIMULATION = "SIMULATION"

    @property
    def schema_name(self) -> str:
        return _SCHEMA_NAMES[self]

    @property
    def feedback_name(self) -> str:
        return _FEEDBACK_NAMES[self]


_SCHEMA_NAMES = {
    TaskType.FREEFORM_TEXT: "FreeformTextTask",
    TaskType.IN_TEXT_FILL_IN_BLANKS: "InTextFillInBlanksTask",
    TaskType.IN_TEXT_CHOICES: "InTextChoicesTask",
    TaskType.MULTIPLE_CHOICE: "MultipleChoiceTask",
    TaskType.MULTIPLE_RESPONSES: "MultipleResponsesTask",
    TaskType.SIMULATION: "SimulationTask",
}
_FEEDBACK_NAMES = {t: name.removesuffix("Task") + "Feedback" for t, name in _SCHEMA_NAMES.items()}
_ANY_NAME = {
    **{t.value: t for t in TaskType},
    **{name: t for t, name in _SCHEMA_NAMES.items()},
    **{name: t for t, name in _FEEDBACK_NAMES.items()},
}


def parse_task_type(value: Any) -> TaskType:
    """Read a task type given in any of its three spellings; ValueError names the accepted ones."""
    if isinstance(value, TaskType):
        return value
    if isinstance(value, str) and value in _ANY_NAME:
        return _ANY_NAME[value]
    accepted = ", ".join(list(_SCHEMA_NAMES.values()) + [t.value for t in TaskType])
    raise ValueError(f"unknown task type {value!r}; expected one of {accepted}")


def try_parse_task_type(value: Any) -> TaskType | None:
    """The task type of a value in any spelling, or None (for tolerant display of foreign data)."""
    try:
        return parse_task_type(value)
    except ValueError:
        return None


AnyTaskType = Annotated[TaskType, BeforeValidator(parse_task_type)]
"""A TaskType field that accepts the enum, the schema name and the feedback kind name."""


class Language(StrEnum):
    DE_CH = "DE_CH"
    DE_DE = "DE_DE"
    EN_US = "EN_US"
    EN_UK = "EN_UK"
    FR_FR = "FR_FR"
    IT_IT = "IT_IT"
    ES_ES = "ES_ES"

    @property
    def base(self) -> str:
        """The two-letter language of the message catalogues and the stemmers (en, de, fr, it, es)."""
        return self.value[:2].lower()


class Correctness(StrEnum):
    CORRECT = "CORRECT"
    PARTIAL = "PARTIAL"
    WRONG = "WRONG"
    UNKNOWN = "UNKNOWN"


class AspectType(StrEnum):
    CONCEPT = "CONCEPT"
    MISCONCEPTION = "MISCONCEPTION"


class TaskAction(StrEnum):
    CREATED = "CREATED"
    UPDATED = "UPDATED"
    UNCHANGED = "UNCHANGED"
