"""Feedback on freeform text: authored aspects with evidence spans, the sample solutions' facts,
and the verdicts of the task's graded answers.

Order of evidence: authored aspects decide when the task has them; otherwise the graded answers
(a calibrated nearest-neighbour vote, see :mod:`grading`) when there are enough; otherwise the
learnt judge of the answer against the sample solutions' facts (:mod:`judge`). The feedback items
always point at the learner's own words.
"""

from __future__ import annotations

from core.api import (
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
    achieved = _points(assessment, task.maxPoints)
    return FreeformTextResult(
        points=Points(achievedPoints=achieved, achievablePoints=task.maxPoints),
        allAspects=assessment.detected,
        answer=answer,
        feedback=feedback_items(task, assessment, analysis, ctx.catalogue),
        sampleSolutions=task.sampleSolutions,
        sampleSolution=task.sampleSolutions[0] if task.sampleSolutions else None,
    )


def verdict_of(task: FreeformTextTask, text: str, ctx: EngineContext) -> Correctness:
    """The verdict the task's judgement gives ``text``, without building the learner's feedback:
    the tutor's leak guard asks whether its own words would pass as the answer."""
    model = task_model(task, ctx)
    return assess(task, model, analyse(text, model.base)).verdict


def _points(assessment: Assessment, max_points: float) -> float:
    """Full points for CORRECT, none for WRONG, and strictly between for PARTIAL."""
    if assessment.verdict is Correctness.CORRECT:
        return max_points
    if assessment.verdict is not Correctness.PARTIAL:
        return 0.0
    points = round(max_points * min(max(assessment.score, 0.1), 0.9), 2)
    return points if 0 < points < max_points else max_points / 2  # rounding must not leave PARTIAL


__all__ = ["compute", "verdict_of"]
