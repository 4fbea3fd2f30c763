"""The leak guard: no tutor reply may hand the learner the sample solution.

Every engine's reply passes through :func:`guarded`. It compares the word n-grams of the reply
(content-word stems, so inflection and word order inside an n-gram do not hide a copy) with those
of the task's solutions; n-grams the learner already sees in the problem statement do not count.
A reply that covers half of a solution's n-grams, or quotes a long run of it, leaks: the guard
drops it and the learner gets a safe hint instead, and the DEBUG log says so.

Streaming and guarding meet at sentence ends: pieces are held back until the sentence they belong
to is complete and the reply so far is clean, then released as they came. A leak found later
stops the engine; sentences already released were clean when they left.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass

from core.api import (
    FreeformTextTask,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    Language,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)
from core.engine.text.languages import base_of
from core.engine.text.tokens import analyse
from core.tutor.base import Boundary, Debug, Output, Piece, messages_as_outputs

MAX_N = 3
"""Trigrams: long enough that shared function phrases do not count, short enough to catch paraphrase."""
COVERAGE_LIMIT = 0.5
"""A reply showing half of a solution's n-grams gives the solution away."""
RUN_LIMIT = 4
"""… and so does one quoting four of its n-grams, however long the solution."""
_SENTENCE_END = re.compile(r"[.!?…:;]\s*$|\n$")


def solution_texts(task: TaskBase | None) -> list[str]:
    """What the learner must not be told, for each task type."""
    if isinstance(task, FreeformTextTask):
        return [s.content for s in task.sampleSolutions]
    if isinstance(task, SimulationTask):
        return [task.sampleSolution] if task.sampleSolution else []
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        return [o.content for o in task.options if o.correct]
    if isinstance(task, InTextFillInBlanksTask):
        return [b.acceptedAnswers[0] for b in task.blanks]
    if isinstance(task, InTextChoicesTask):
        return [c.correct for c in task.choices]
    return []


def _stems(text: str, base: str) -> list[str]:
    return [t.feature for t in analyse(text, base).content]


def _grams(stems: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(stems[i : i + n]) for i in range(len(stems) - n + 1)}


@dataclass(frozen=True, slots=True)
class Leak:
    solution: int
    """Index of the solution the reply gives away."""
    coverage: float
    shared: int


class LeakGuard:
    def __init__(self, solutions: Iterable[str], visible: Iterable[str], language: Language) -> None:
        self._base = base_of(language)
        visible_stems = [_stems(text, self._base) for text in visible]
        self._targets: list[tuple[int, set[tuple[str, ...]]]] = []
        for solution in solutions:
            stems = _stems(solution, self._base)
            n = min(MAX_N, len(stems))
            if n == 0:
                self._targets.append((1, set()))
                continue
            seen = set().union(*(_grams(v, n) for v in visible_stems)) if visible_stems else set()
            self._targets.append((n, _grams(stems, n) - seen))

    @classmethod
    def for_task(cls, task: TaskBase | None, language: Language) -> LeakGuard:
        visible = [task.problemStatement, task.title, task.context] if task else []
        return cls(solution_texts(task), visible, language)

    def check(self, reply: str) -> Leak | None:
        if not any(grams for _, grams in self._targets):
            return None
        stems = _stems(reply, self._base)
        for index, (n, grams) in enumerate(self._targets):
            if not grams:
                continue
            shared = len(grams & _grams(stems, n))
            coverage = shared / len(grams)
            if coverage >= COVERAGE_LIMIT or shared >= RUN_LIMIT:
                return Leak(index, round(coverage, 3), shared)
        return None


async def guarded(outputs: AsyncIterator[Output], guard: LeakGuard, safe_hint: str) -> AsyncIterator[Output]:
    """The engine's outputs with every sentence checked before it is released (see the module doc)."""
    released: list[str] = []
    held: list[Output] = []
    in_message = False
    """Whether the learner has seen a piece of a message that no boundary closed yet."""

    def release() -> Leak | None:
        text = "".join(o.text for o in held if isinstance(o, Piece))
        leak = guard.check(" ".join([*released, text]))
        if leak is None:
            released.append(text)
        return leak

    try:
        async for output in outputs:
            if not isinstance(output, Piece | Boundary):
                yield output
                continue
            held.append(output)
            if isinstance(output, Piece) and not _SENTENCE_END.search(output.text):
                continue
            leak = release()
            if leak is not None:
                break
            for item in held:
                yield item
                in_message = isinstance(item, Piece)
            held.clear()
        else:
            leak = release() if held else None
            if leak is None:
                for item in held:
                    yield item
                yield Debug({"leakGuard": "passed"})
                return
        yield Debug(
            {
                "leakGuard": "replaced",
                "reason": "the reply gave away the sample solution; a safe hint was sent instead",
                "solution": leak.solution,
                "coverage": leak.coverage,
                "sharedNgrams": leak.shared,
            }
        )
        if in_message:
            yield Boundary()
        for item in messages_as_outputs([safe_hint]):
            yield item
    finally:
        await outputs.aclose()  # type: ignore[attr-defined]
