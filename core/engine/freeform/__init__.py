"""Feedback on freeform text: authored aspects with evidence spans, the sample solutions' facts,
and the verdicts of the task's graded answers.

Order of evidence: authored aspects decide when the task has them; otherwise the learnt judge of
the answer against the sample solutions' facts (:mod:`judge`), moved by the task's graded answers
from the first one on (:mod:`grading`). The feedback items always point at the learner's own
words.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.api import (
    AspectType,
    Correctness,
    FreeformTextAnswer,
    FreeformTextResult,
    FreeformTextTask,
    Points,
)
from core.engine.base import EngineContext
from core.engine.freeform.assessment import Assessment, assess
from core.engine.freeform.model import task_model
from core.engine.freeform.report import feedback_items
from core.engine.text.tokens import analyse


def compute(task: FreeformTextTask, answer: FreeformTextAnswer, ctx: EngineContext) -> FreeformTextResult:
    model = task_model(task, ctx)
    analysis = analyse(answer.content, model.base)
    assessment: Assessment = assess(task, model, analysis)
    achieved = points_for(assessment.verdict, assessment.score, task.maxPoints)
    return FreeformTextResult(
        points=Points(achievedPoints=achieved, achievablePoints=task.maxPoints),
        allAspects=assessment.detected,
        answer=answer,
        feedback=feedback_items(task, assessment, analysis, ctx.catalogue),
        sampleSolutions=task.sampleSolutions,
        sampleSolution=task.sampleSolutions[0] if task.sampleSolutions else None,
    )


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the task's judgement makes of a text, without the learner's feedback built."""

    verdict: Correctness
    concepts: frozenset[str]
    """Names of the concepts the text shows: the authored ones, or on a task without aspects the
    facts of the sample solution (named by their text)."""
    by_facts: Judgement | None = None
    """On a task with aspects, the text judged by the sample solutions' facts alone, as the task
    would judge it without aspects and graded answers (read off the same judgement, which weighs
    the facts before the aspects overrule them, rather than judged twice)."""


def judgement_of(task: FreeformTextTask, text: str, ctx: EngineContext) -> Judgement:
    """The tutor's leak guard asks whether its own words would pass as the answer, or show a
    concept the learner has not shown yet; it judges the learner's words the same way."""
    model = task_model(task, ctx)
    assessment = assess(task, model, analyse(text, model.base))
    by_facts = assessment.by_facts
    if by_facts is None and model.aspects:  # a text without a word is judged empty either way
        by_facts = assessment
    return Judgement(
        assessment.verdict,
        _concepts(assessment),
        Judgement(by_facts.verdict, _concepts(by_facts)) if by_facts is not None else None,
    )


def _concepts(assessment: Assessment) -> frozenset[str]:
    return frozenset(d.aspect.name for d in assessment.detected if d.aspect.type is AspectType.CONCEPT)


def points_for(verdict: Correctness, score: float, max_points: float) -> float:
    """Full points for CORRECT, none for WRONG, and strictly between for PARTIAL (``score``: the
    assessment's share of the points)."""
    if verdict is Correctness.CORRECT:
        return max_points
    if verdict is not Correctness.PARTIAL:
        return 0.0
    points = round(max_points * min(max(score, 0.1), 0.9), 2)
    return points if 0 < points < max_points else max_points / 2  # rounding must not leave PARTIAL


__all__ = ["Judgement", "compute", "judgement_of", "points_for"]
