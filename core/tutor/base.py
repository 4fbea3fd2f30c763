"""What every tutor engine receives and yields.

An engine answers one learner turn as an async generator of :data:`Output`: pieces of reply text,
boundaries between the messages of the reply, debug entries, and at most one new conversation
state. The service turns pieces and boundaries into MESSAGE and BOUNDARY events as they come, so
an engine that yields early is seen early; the leak guard sits between the two.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.api import ChatTurn, Language, TaskBase, TutorConfiguration
from core.engine.messages import Catalogue


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of the current message of the reply."""

    text: str


@dataclass(frozen=True, slots=True)
class Boundary:
    """The current message of the reply ends; the next piece starts a new one."""


@dataclass(frozen=True, slots=True)
class Debug:
    """An entry for the DEBUG event and the trace; never shown to the learner."""

    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewState:
    """The conversation state to store with this turn (the hint ladder's rung, raised objections …)."""

    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Fallback:
    """The reply the rules planned for this turn (the grounded tutor's messages). An engine that
    only phrases a planned move yields it first: should the guard stop the engine's own words,
    the learner gets this reply, which answers what they asked, rather than a generic one."""

    messages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Failed:
    """The engine's own reply failed (``kind``, ``reason``: see :class:`EngineFailure`); what
    follows is the offline engine's reply (``answered_by``), which the learner gets instead. The
    service records the failure with the turn; a health check reports it."""

    kind: str
    reason: str
    answered_by: str
    retry_after: float | None = None


Output = Piece | Boundary | Debug | NewState | Fallback | Failed


@dataclass(frozen=True, slots=True)
class Turn:
    """One learner turn with everything an engine may use; engines do no storage I/O."""

    tutor: TutorConfiguration
    task: TaskBase | None
    history: tuple[ChatTurn, ...]
    """The conversation before this turn, oldest first (system prompts included)."""
    message: str
    """The learner's new message."""
    language: Language
    catalogue: Catalogue
    state: Mapping[str, Any] = field(default_factory=dict)

    def text(self, key: str, **params: Any) -> str:
        """A sentence of the tutor catalogue in the conversation's language."""
        return self.catalogue.text(self.language, key, **params)


class TutorEngine(Protocol):
    name: str

    def reply(self, turn: Turn) -> AsyncGenerator[Output, None]:
        """An async generator, so that the service can close it when the client goes away."""
        ...


class EngineFailure(Exception):
    """The engine could not answer (an upstream model failed or stalled); the message says why,
    ``kind`` names the failure for traces and tests: ``busy`` (429/503 past the retries),
    ``http_error``, ``unreachable``, ``broken`` (the connection failed mid-reply), ``timeout`` (no
    first text in time), ``deadline`` (the whole reply took too long), ``cut`` (closed before its
    end), ``model_error`` (an error object instead of a reply), ``not_a_completion`` (something
    else that is not a chat completion), ``empty`` (a whole reply without text), ``internal``."""

    def __init__(self, reason: str, kind: str = "internal", retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.retry_after = retry_after


_SENTENCE_BREAK = re.compile(r"[.!?…]+\s+|\n+")
"""Where a sentence of a planned reply ends (the leak guard releases text at these marks, and at
a colon or semicolon that ends a piece: a piece never ends at those, so it is released whole)."""


def sentences_of(text: str) -> list[str]:
    """A message cut after each sentence, keeping every character (spaces too)."""
    pieces: list[str] = []
    start = 0
    for end in _SENTENCE_BREAK.finditer(text):
        pieces.append(text[start : end.end()])
        start = end.end()
    if start < len(text) or not pieces:
        pieces.append(text[start:])
    return pieces


def messages_as_outputs(messages: list[str]) -> list[Output]:
    """Whole messages as the pieces and boundaries an engine yields: a piece a sentence. A planned
    reply exists whole before its first piece, and every event of a stream costs the server
    several turns of its event loop, shared with every other request (docs/performance.md)."""
    outputs: list[Output] = []
    for i, message in enumerate(messages):
        if i:
            outputs.append(Boundary())
        outputs.extend(Piece(p) for p in sentences_of(message))
    return outputs


class PlannedEngine:
    """An offline engine: it plans its whole reply at once (pure, tested directly) and streams it."""

    name: str

    def plan(self, turn: Turn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """The reply's messages, the conversation's new state, and the debug entry."""
        raise NotImplementedError

    async def reply(self, turn: Turn) -> AsyncGenerator[Output, None]:
        messages, state, debug = self.plan(turn)
        yield Debug(debug)
        for output in messages_as_outputs(messages):
            yield output
        yield NewState(state)
