"""What every feedback engine receives and shares: the context of a computation and small helpers.

Engines are pure: the service gathers everything they need (catalogue, graded answers, the
transcript of a simulation) and passes it in an :class:`EngineContext`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from core.api import Aspect as WireAspect
from core.api import AspectDefinition, ChatTurn, Correctness, Language, Topic
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


class SimilarityIndex(Protocol):
    def similarities(self, text: str) -> list[float]:
        """Cosine similarity of ``text`` to each indexed text, in index order."""
        ...

    def pairwise(self) -> list[list[float]]:
        """Similarities among the indexed texts (for leave-one-out calibration)."""
        ...


class SimilarityBackend(Protocol):
    """Turns texts into vectors whose dot product says how alike they are, and indexes a task's
    reference texts once per task version (core.engine.similarity has the two backends)."""

    name: str

    def embed(self, texts: Sequence[str], language: Language) -> Any: ...

    def index(self, texts: Sequence[str], language: Language) -> SimilarityIndex: ...


@dataclass(frozen=True, slots=True)
class EngineContext:
    catalogue: Catalogue
    graded: tuple[GradedExample, ...] = ()
    cache_key: Hashable | None = None
    """Identifies the task version and graded-answer revision; per-task caches are keyed by it."""
    similarity: SimilarityBackend | None = None
    transcript: tuple[ChatTurn, ...] | None = None
    """For simulation answers given by conversationId: the stored session's turns."""


class EngineUnavailable(Exception):
    """This task type has no feedback engine in this build; the service answers a clear error."""


def to_aspect(definition: AspectDefinition) -> WireAspect:
    return WireAspect(
        name=definition.name,
        description=definition.description,
        type=definition.type,
        aspectGroup=definition.aspectGroup,
    )


def topic_for(definition: AspectDefinition | None, task_title: str) -> Topic:
    """DESIGN.md: the topic is the aspect's group, else the task's title."""
    if definition is not None and definition.aspectGroup is not None:
        return Topic(name=definition.aspectGroup.name, description=definition.aspectGroup.description)
    return Topic(name=task_title)
