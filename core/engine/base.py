"""What every feedback engine receives and shares: the context of a computation and small helpers.

Engines are pure: the service gathers everything they need (catalogue, graded answers, the
transcript of a simulation) and passes it in an :class:`EngineContext`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.api import Aspect as WireAspect
from core.api import (
    AspectDefinition,
    AspectGroup,
    AspectType,
    ChatTurn,
    Correctness,
    FeedbackItem,
    TextSpan,
    Topic,
)
from core.engine.messages import Catalogue


@dataclass(frozen=True, slots=True)
class GradedExample:
    """An answer the author has judged (or whose feedback the author confirmed)."""

    answer: dict[str, Any]
    correctness: Correctness
    points: float | None = None
    feedback: str | None = None

    @property
    def text(self) -> str:
        return str(self.answer.get("content", ""))


@dataclass(frozen=True, slots=True)
class EngineContext:
    catalogue: Catalogue
    graded: tuple[GradedExample, ...] = ()
    cache_key: Hashable | None = None
    """Identifies the task version and graded-answer revision; per-task caches are keyed by it."""
    transcript: tuple[ChatTurn, ...] | None = None
    """For simulation answers given by conversationId: the stored session's turns."""


class EngineUnavailable(Exception):
    """This task type has no feedback engine in this build; the service answers a clear error."""


def to_aspect(definition: AspectDefinition) -> WireAspect:
    """The aspect as a response names it: one model for each distinct aspect, shared by every
    result that names it (a value, which nothing changes)."""
    group = definition.aspectGroup
    return _wire_aspect(
        definition.name,
        definition.description,
        definition.type,
        None if group is None else group.name,
        None if group is None else group.description,
    )


@lru_cache(maxsize=4096)
def _wire_aspect(
    name: str, description: str, kind: AspectType, group: str | None, group_description: str | None
) -> WireAspect:
    return WireAspect(
        name=name,
        description=description,
        type=kind,
        aspectGroup=None if group is None else AspectGroup(name=group, description=group_description),
    )


def topic_for(definition: AspectDefinition | None, task_title: str) -> Topic:
    """DESIGN.md: the topic is the aspect's group, else the task's title (a shared value, as
    to_aspect's)."""
    if definition is not None and definition.aspectGroup is not None:
        return _topic(definition.aspectGroup.name, definition.aspectGroup.description)
    return _topic(task_title, None)


@lru_cache(maxsize=4096)
def _topic(name: str, description: str | None) -> Topic:
    return Topic(name=name, description=description)


def contradictions(feedback: Sequence[FeedbackItem[Any]]) -> list[FeedbackItem[TextSpan]]:
    """The items of a free-text result that say the answer contradicts a correct one ("This part
    says the opposite …"): WRONG, pointing at the learner's words, and about no misconception (whose
    item is the author's message). The tutor quotes those words back."""
    return [
        item
        for item in feedback
        if item.correctness is Correctness.WRONG
        and item.context
        and all(isinstance(span, TextSpan) for span in item.context)
        and not any(a.type is AspectType.MISCONCEPTION for a in item.aspects)
    ]
