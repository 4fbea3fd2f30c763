"""Tutor resources (API.md 2.9 and 6): configurations, chat, streamed events, trace ratings.

Tutor configuration fields are snake_case as API.md shows them; every other field is camelCase.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AliasChoices, ConfigDict, Field, StrictBool, StrictInt

from core.api.common import ApiModel, Language, always_sent
from core.api.tasks import Text, normalised_id

MESSAGE_BOUNDARY = "<MESSAGE_BOUNDARY>"
DONE_TEXT = "[DONE]"

ObjectId = Annotated[str, Field(max_length=200), AfterValidator(normalised_id)]
"""A tutor, task or conversation id named in a chat, read in NFC like every other id."""


class TutorConfiguration(ApiModel):
    """API.md 2.9's five fields, always sent, and the tenant whose tutor it is; the other
    extensions only when set."""

    model_config = always_sent("topic_ids", "initial_messages", "description", "tenantId")

    id: str
    name: str
    topic_ids: list[int] = Field(default_factory=list)
    initial_messages: list[str] = Field(default_factory=list)
    description: str = ""
    # Extensions (camelCase, as DESIGN.md asks of every non-configuration field).
    tenantId: str | None = None
    taskId: str | None = None
    language: Language | None = None
    engine: str | None = None
    instructions: str | None = None


class TutorUpsert(ApiModel):
    """Extension: body of PUT /tenants/{tenantId}/tutors/{tutorId}."""

    name: str = Field(min_length=1, max_length=200)
    description: Text = ""
    initial_messages: list[Text] = Field(default_factory=list, max_length=20)
    topic_ids: list[Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]] = Field(
        default_factory=list, max_length=100
    )
    taskId: ObjectId | None = Field(
        default=None,
        validation_alias=AliasChoices("taskId", "task_id"),
        description="The task the tutor is grounded in; also read as task_id, since API.md writes "
        "tutor configuration fields in snake_case.",
    )
    language: Language | None = None
    engine: Literal["grounded", "llm", "persona"] | None = None
    instructions: Text | None = None


class ChatMessage(ApiModel):
    role: Literal["user", "assistant", "system"]
    content: Text


class ChatContext(ApiModel):
    """Conversation context; taskId grounds the tutor in that task, tenantId (extension) says whose
    tutor ``tutorId`` is, since each tenant names its own. Other keys are kept as given."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")
    taskId: ObjectId | None = None
    tenantId: str | None = Field(default=None, max_length=200)


class ChatRequest(ApiModel):
    messages: list[ChatMessage] = Field(min_length=1, max_length=500)
    tutorId: Annotated[ObjectId, Field(min_length=1)]
    userId: str | None = Field(default=None, max_length=200)
    conversationId: ObjectId | None = Field(
        default=None, validation_alias=AliasChoices("conversationId", "sessionId")
    )
    debugMode: StrictBool = False
    context: ChatContext | None = None


class ChatResponse(ApiModel):
    message: str
    messages: list[str]
    debugLogs: list[dict[str, Any]] = Field(default_factory=list)
    traceId: str


class TutorEventType(StrEnum):
    MESSAGE = "MESSAGE"
    BOUNDARY = "BOUNDARY"
    TRACE = "TRACE"
    DEBUG = "DEBUG"
    ERROR = "ERROR"
    DONE = "DONE"


class TutorEvent(ApiModel):
    """One Server-Sent Event of /tutor/chat/stream: ``event`` names it, the rest is its data."""

    event: TutorEventType
    text: str
    items: list[dict[str, Any]] | None = Field(default=None, alias="list")

    def data(self) -> dict[str, Any]:
        """The JSON of the event's data field."""
        body: dict[str, Any] = {"text": self.text}
        if self.items is not None:
            body["list"] = self.items
        return body

    @classmethod
    def message(cls, text: str) -> TutorEvent:
        return cls(event=TutorEventType.MESSAGE, text=text)

    @classmethod
    def boundary(cls) -> TutorEvent:
        return cls(event=TutorEventType.BOUNDARY, text=MESSAGE_BOUNDARY)

    @classmethod
    def done(cls) -> TutorEvent:
        return cls(event=TutorEventType.DONE, text=DONE_TEXT)


class TraceRating(ApiModel):
    score: Annotated[StrictInt, Field(ge=0, le=1)]
    comment: str | None = Field(default=None, max_length=5_000)


class TraceRatingResponse(ApiModel):
    success: bool
    message: str


class HealthStatus(ApiModel):
    status: str
