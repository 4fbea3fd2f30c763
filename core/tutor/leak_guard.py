"""The leak guard: no tutor reply may hand the learner the sample solution.

Every engine's reply passes through :func:`guarded`. It compares the word n-grams of the reply
(content-word stems, so inflection and word order inside an n-gram do not hide a copy) with those
of the task's solutions; n-grams the learner already sees in the problem statement do not count.
A reply that covers half of a solution's n-grams, or quotes a long run of it, leaks: the guard
drops it and the learner gets the reply the rules planned for the turn instead (an LLM engine
yields it as :class:`~core.tutor.base.Fallback`), else a safe hint, and the DEBUG log says so.

Words are not enough: a paraphrase, a translation or a solution told piece by piece over several
replies shares few n-grams with it. So for a free-text task the guard also judges, by meaning, the
tutor's side of the conversation so far plus the reply, with the same freeform engine that judges
learners: a reply leaks when it shows an authored concept the learner's own messages have not
shown yet (the tutor may point the way to a concept, never state it), or when the tutor's words
alone would score CORRECT, unless the learner has shown every concept already (then the tutor
is only saying back what the learner said). The judgement is asked twice: about the authored
aspects, and about the sample solution's facts alone, whose sentence vectors (USE multilingual)
read a translation of the solution too. A sentence plainly in another language than the task's
is not sent at all (:mod:`core.tutor.language`): fragments of a translation are below the reach
of meaning.

Streaming and guarding meet at sentence ends: pieces are held back until the sentence they belong
to is complete and the reply so far is clean, then released as they came. A leak found later
stops the engine; sentences already released were clean when they left.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Iterable, Sequence
from dataclasses import dataclass

from core.api import (
    AspectType,
    Correctness,
    FreeformTextTask,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    Language,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)
from core.engine.base import EngineContext
from core.engine.freeform import Judgement, judgement_of
from core.engine.messages import Catalogue
from core.engine.text.languages import base_of
from core.engine.text.tokens import analyse
from core.tutor.base import Boundary, Debug, Fallback, Output, Piece, messages_as_outputs
from core.tutor.language import foreign_language

MAX_N = 3
"""Trigrams: long enough that shared function phrases do not count, short enough to catch paraphrase."""
COVERAGE_LIMIT = 0.5
"""A reply showing half of a solution's n-grams gives the solution away."""
RUN_LIMIT = 4
"""… and so does one quoting four of its n-grams, however long the solution."""
JUDGE_CONTEXT = EngineContext(catalogue=Catalogue({}))
"""The judgement reads no messages and no graded answers: the tutor is judged as a new answer."""
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


def _readings(task: FreeformTextTask | None, learner_said: Sequence[str]) -> list[_Reading]:
    """The task as authored and, when it has aspects, as judged by its sample solutions alone.

    The authored aspects are found by their cues, in the task's language, and by meaning only
    from a close cosine, which a sentence in another language rarely reaches. The judgement of the
    facts compares each fact of the sample solution with the text's sentences relative to the
    problem statement (USE multilingual), so it reads a translation of the solution too: the same
    judgement, asked about the facts instead of the aspects (:attr:`Judgement.by_facts`).

    The verdict counts in the first way only: asked of the facts of a task that has aspects, the
    learnt judge reads a hint that quotes the problem statement and names a concept the learner
    has shown as CORRECT though it states no fact; the facts it shows are what tell a translation."""
    if task is None:
        return []
    said = " ".join(learner_said)
    key = (id(task), said)
    cached = _LEARNER_JUDGED.get(key)
    if cached is not None and cached[0] is task:
        return cached[1]
    learner = judgement_of(task, said, JUDGE_CONTEXT) if said.strip() else None
    concepts = {a.name for a in task.aspects if a.type is AspectType.CONCEPT}
    readings = [_reading(learner, concepts, by_verdict=True)]
    if task.aspects:
        readings.append(_reading(learner.by_facts if learner else None, set(), by_verdict=False))
    _LEARNER_JUDGED[key] = (task, readings)
    while len(_LEARNER_JUDGED) > LEARNER_JUDGED_KEPT:
        _LEARNER_JUDGED.pop(next(iter(_LEARNER_JUDGED)), None)
    return readings


_LEARNER_JUDGED: dict[tuple[int, str], tuple[FreeformTextTask, list[_Reading]]] = {}
"""The readings of the learner's words, by task object and words: a turn builds the guard twice
(the grounded tutor checks its author-written hints, then the service checks the reply), and the
judgement of the learner's last messages is the costly part. The task object is kept with the
entry, so an id reused by another object never matches."""
LEARNER_JUDGED_KEPT = 64


def _reading(learner: Judgement | None, concepts: set[str], by_verdict: bool) -> _Reading:
    """What the learner's words (None: nothing yet) show in one way of judging; ``concepts``: the
    authored concepts that way knows (none: the learner is done with a CORRECT verdict)."""
    if learner is None:
        return _Reading(frozenset(), False, by_verdict)
    done = concepts <= learner.concepts if concepts else learner.verdict is Correctness.CORRECT
    return _Reading(learner.concepts, done, by_verdict)


def _ways(judgement: Judgement) -> list[Judgement]:
    """A judgement in the ways the readings ask: as authored, then by the facts alone."""
    return [judgement] if judgement.by_facts is None else [judgement, judgement.by_facts]


@dataclass(frozen=True, slots=True)
class _Reading:
    """One way of judging the tutor's words, and what the learner's own words show in it."""

    learner_shown: frozenset[str]
    learner_done: bool
    """The learner has shown every authored concept (or, judged by the facts, wrote a CORRECT
    answer): the tutor may then say it all back."""
    by_verdict: bool
    """Whether the tutor's words judged CORRECT leak (else only the concepts they show count)."""


@dataclass(frozen=True, slots=True)
class Leak:
    solution: int
    """Index of the solution the reply gives away."""
    coverage: float
    shared: int
    by_meaning: bool = False
    """The tutor's words so far would be judged a CORRECT answer."""
    concepts: tuple[str, ...] = ()
    """Concepts the tutor's words show that the learner has not shown."""
    language: str | None = None
    """The reply has a sentence plainly in this other language (see :mod:`core.tutor.language`)."""


class LeakGuard:
    def __init__(
        self,
        solutions: Iterable[str],
        visible: Iterable[str],
        language: Language,
        *,
        judged: FreeformTextTask | None = None,
        said_before: Sequence[str] = (),
        learner_said: Sequence[str] = (),
    ) -> None:
        self._base = base_of(language)
        self._said_before = " ".join(said_before)
        self._judged = judged
        self._readings = _readings(judged, learner_said)
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
    def for_task(
        cls,
        task: TaskBase | None,
        language: Language,
        said_before: Sequence[str] = (),
        learner_said: Sequence[str] = (),
    ) -> LeakGuard:
        """``said_before``: the tutor's earlier replies in this conversation; ``learner_said``:
        the learner's messages, this turn's included (what they have shown is theirs to hear)."""
        visible = [task.problemStatement, task.title, task.context] if task else []
        judged = task if isinstance(task, FreeformTextTask) and task.sampleSolutions else None
        return cls(
            solution_texts(task),
            visible,
            language,
            judged=judged,
            said_before=said_before,
            learner_said=learner_said,
        )

    def check(self, reply: str) -> Leak | None:
        return self._by_words(reply) or self._by_meaning(reply) or self._in_another_language(reply)

    def _in_another_language(self, reply: str) -> Leak | None:
        language = foreign_language(reply, self._base)
        return Leak(0, 0.0, 0, language=language) if language else None

    def _by_meaning(self, reply: str) -> Leak | None:
        if not reply.strip():
            return None
        if self._judged is None:
            return None
        text = f"{self._said_before} {reply}".strip()
        judged = judgement_of(self._judged, text, JUDGE_CONTEXT)
        for reading, told in zip(self._readings, _ways(judged), strict=True):
            if untold := told.concepts - reading.learner_shown:
                return Leak(0, 0.0, 0, by_meaning=True, concepts=tuple(sorted(untold)))
            if reading.by_verdict and told.verdict is Correctness.CORRECT and not reading.learner_done:
                return Leak(0, 1.0, 0, by_meaning=True)
        return None

    def _by_words(self, reply: str) -> Leak | None:
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


async def guarded(
    outputs: AsyncGenerator[Output, None], guard: LeakGuard, safe_hint: str
) -> AsyncGenerator[Output, None]:
    """The engine's outputs with every sentence checked before it is released (see the module doc).

    A leak stops the engine; the learner gets the engine's :class:`Fallback` (the reply the rules
    planned) when it is clean next to what was already released, else ``safe_hint``."""
    released: list[str] = []
    held: list[Output] = []
    fallback: tuple[str, ...] = ()
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
            if isinstance(output, Fallback):
                fallback = output.messages
                continue
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
        planned = bool(fallback) and guard.check(" ".join([*released, *fallback])) is None
        instead = list(fallback) if planned else [safe_hint]
        sent = "the planned reply" if planned else "a safe hint"
        yield Debug(
            {
                "leakGuard": "replaced",
                "reason": f"the reply gave away the sample solution; {sent} was sent instead",
                "sent": sent,
                "solution": leak.solution,
                "coverage": leak.coverage,
                "sharedNgrams": leak.shared,
                "byMeaning": leak.by_meaning,
                "conceptsNotShownByLearner": list(leak.concepts),
                "otherLanguage": leak.language,
            }
        )
        if in_message:
            yield Boundary()
        for item in messages_as_outputs(instead):
            yield item
    finally:
        await outputs.aclose()
