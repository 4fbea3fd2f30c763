"""Which answers an author should grade next, so that a few corrections teach the judge most.

Two things make an answer worth grading (as in Powergrading and active learning): the judge is
unsure of it, and it stands for many others, since a graded answer moves the verdicts of the
answers near it (:mod:`grading`). The order is greedy: each pick has the most unsure, not yet
covered mass of answers near it, and the answers it covers then count less, so the next pick
stands for another group. Measured against random picks in bench/learning_curve.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.api import FreeformTextTask
from core.engine.base import EngineContext
from core.engine.freeform.grading import CorrectionWeights, shipped_corrections
from core.engine.freeform.judge import AnswerText
from core.engine.freeform.model import answer_vector, judge_probability, task_model
from core.engine.text.tokens import analyse

SURE_STILL_COUNTS = 0.1
"""An answer the judge is sure of still has this much worth: the judge can be sure and wrong for
the whole task (an author stricter than the sample solution), which a representative answer shows.
The doubt of a judgement, one minus its largest share, runs from 0 to 2/3."""


def review_order(task: FreeformTextTask, texts: Sequence[str], ctx: EngineContext, limit: int) -> list[int]:
    """Indices into ``texts``, at most ``limit``, best to grade first (the task's graded answers
    already count: the judge's doubt is the doubt it has with them)."""
    if not texts or limit <= 0:
        return []
    model = task_model(task, ctx)
    analyses = [analyse(text, model.base) for text in texts]
    vectors = np.array([answer_vector(a) for a in analyses])
    shares = [model.graded.judge(judge_probability(model, AnswerText.of(a)), a).shares for a in analyses]
    return order_by_value(shares, vectors @ vectors.T, shipped_corrections(), limit)


def order_by_value(
    shares: Sequence[tuple[float, float, float]],
    similarity: np.ndarray,
    weights: CorrectionWeights,
    limit: int,
) -> list[int]:
    """The greedy order over answers with these verdict shares and pairwise cosines."""
    doubt = np.array([1.0 - max(s) for s in shares]) + SURE_STILL_COUNTS
    near = np.exp(weights.closeness * (np.minimum(similarity, 1.0) - 1.0))
    uncovered = np.ones(len(shares))
    order: list[int] = []
    for _ in range(min(limit, len(shares))):
        value = (near @ (uncovered * doubt)) * doubt
        value[order] = -1.0
        pick = int(np.argmax(value))
        order.append(pick)
        uncovered *= 1.0 - near[pick]
    return order
