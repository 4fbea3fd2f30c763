"""The authoring editor's check: does each sample solution score CORRECT on its own task?

A sample solution that the engine judges PARTIAL or WRONG means learners who write it will be
told so too: a concept whose cues the solution does not use (and does not say in other words),
a misconception whose words the solution happens to contain, or graded answers that pull it
down. The service runs this check on a stored task (``Service.check_sample_solutions``), with the
engine and the context that judge its answers, and the editors show what it finds after a save.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.api import AspectType, Correctness, FreeformTextTask
from core.engine.base import EngineContext, GradedExample
from core.engine.freeform.assessment import assess
from core.engine.freeform.facts import without_point_marks
from core.engine.freeform.model import task_model
from core.engine.messages import Catalogue
from core.engine.text.phrases import Found
from core.engine.text.tokens import analyse


@dataclass(frozen=True, slots=True)
class SolutionCheck:
    """How the engine judges one sample solution of the task as if a learner had written it."""

    number: int
    """1-based, as the editor numbers the sample solutions."""
    verdict: Correctness
    missing_concepts: tuple[str, ...]
    """Authored concepts the solution does not show: their cues need the solution's words."""
    misconceptions: tuple[str, ...]
    """Authored misconceptions the solution shows: their cues catch a correct answer."""

    @property
    def passes(self) -> bool:
        return self.verdict is Correctness.CORRECT


def check_sample_solutions(
    task: FreeformTextTask, graded: tuple[GradedExample, ...] = (), *, ctx: EngineContext | None = None
) -> list[SolutionCheck]:
    """One check per non-empty sample solution, in the task's order. ``ctx``: the context the
    task's answers are judged with (its graded answers, the cache key of its model); without it,
    a context of ``graded`` alone, with no catalogue, since no messages are written."""
    model = task_model(task, ctx or EngineContext(catalogue=Catalogue({}), graded=graded))
    checks = []
    for number, solution in enumerate(task.sampleSolutions, 1):
        text = without_point_marks(solution.content)
        if not text:
            continue
        assessment = assess(task, model, analyse(text, model.base))
        checks.append(
            SolutionCheck(
                number=number,
                verdict=assessment.verdict,
                missing_concepts=tuple(
                    f.definition.name
                    for f in assessment.aspects
                    if f.definition.type is AspectType.CONCEPT and f.found is not Found.PRESENT
                ),
                misconceptions=tuple(
                    f.definition.name
                    for f in assessment.aspects
                    if f.definition.type is AspectType.MISCONCEPTION and f.found is Found.PRESENT
                ),
            )
        )
    return checks
