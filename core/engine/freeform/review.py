"""Which answers an author should grade next, so that a few corrections teach the judge most.

A graded answer moves the verdicts of the answers near it (:mod:`grading`), so the order is a
greedy cover (facility location, as Powergrading groups a class's answers): each pick stands for
the most answers not yet stood for, and the answers near it then count less, so the next pick
stands for another group. The picks take turns among the judge's verdicts (the one with the
fewest picks goes next), so the first few already show the author's line on each side: a task's
shift and the judge's slope are learnt from answers on both sides of its cut points.

Measured in bench/learning_curve.py against random picks, grading the first k of one half of each
question's answers and judging the other half: better at k = 5 on every corpus, at k = 10 on two
of three (level on SciEntsBank), up to 0.01 below at k = 20 (docs/freeform-engine.md). The judge's
doubt as a weight, alone or with the cover, and the expected change of every other verdict did
worse.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.api import FreeformTextTask
from core.engine.base import EngineContext
from core.engine.freeform.judge import AnswerText, sentence_texts
from core.engine.freeform.model import ENCODED_TOGETHER, answer_vector, judge_probability, task_model
from core.engine.text.embedding import encoder
from core.engine.text.tokens import analyse

STANDS_FOR = 20.0
"""How fast an answer's standing for another falls with their distance: exp(20 × (cosine − 1)),
a third at cosine 0.95, a fiftieth at 0.8 (sentence vectors put paraphrases at 0.8–0.95); 10, 30
and 40 were measured as well, no better."""
NEGLIGIBLE = 1e-3
"""An answer stands for another by less than this from cosine 0.65 down: no cover to lose."""


def review_order(task: FreeformTextTask, texts: Sequence[str], ctx: EngineContext, limit: int) -> list[int]:
    """Indices into ``texts``, at most ``limit``, best to grade first (the task's graded answers
    already count: the verdicts the picks take turns among are those the judge gives with them)."""
    if not texts or limit <= 0:
        return []
    model = task_model(task, ctx)
    analyses = [analyse(text, model.base) for text in texts]
    for start in range(0, len(analyses), ENCODED_TOGETHER):  # batches encode faster than answers
        encoder().encode([s for a in analyses[start : start + ENCODED_TOGETHER] for s in sentence_texts(a)])
    vectors = np.array([answer_vector(a) for a in analyses], dtype=np.float32)
    shares = [model.graded.judge(judge_probability(model, AnswerText.of(a)), a).shares for a in analyses]
    return order_by_value(shares, vectors @ vectors.T, limit)


def order_by_value(
    shares: Sequence[tuple[float, float, float]],
    similarity: np.ndarray,
    limit: int,
    graded: Sequence[tuple[int, int]] = (),
) -> list[int]:
    """The greedy order over answers with these verdict shares and pairwise cosines. ``graded``:
    answers among them graded already, each with its grade (0 CORRECT, 1 PARTIAL, 2 WRONG): they
    stand for their neighbours and count among their grade's picks, and are not picked again (a
    class set orders its answers again after every grade)."""
    count = len(shares)
    near = np.exp(STANDS_FOR * (np.minimum(similarity, 1.0) - 1.0)).astype(np.float32)
    verdicts = np.array([0 if s[0] >= 0.5 else 2 if s[2] > 0.5 else 1 for s in shares])
    picks_of = dict.fromkeys(sorted(set(verdicts.tolist())), 0)
    uncovered = np.ones(count, dtype=np.float32)
    value = near @ uncovered
    taken: list[int] = []

    def stand_for(pick: int) -> None:
        # Only the answers near the pick lose cover: update the values through those columns
        # (a class set of thousands of answers costs milliseconds a pick, not a full product).
        nonlocal value
        taken.append(pick)
        touched = np.flatnonzero(near[pick] > NEGLIGIBLE)
        lost = uncovered[touched] * near[pick, touched]
        uncovered[touched] -= lost
        value -= near[:, touched] @ lost

    for done, grade in graded:
        stand_for(done)
        picks_of[grade] = picks_of.get(grade, 0) + 1
    order: list[int] = []
    for _ in range(min(limit, count - len(taken))):
        value[taken] = -np.inf
        verdict = min(
            (v for v in picks_of if np.isfinite(value[verdicts == v]).any()), key=lambda v: (picks_of[v], v)
        )
        candidates = np.flatnonzero(verdicts == verdict)
        pick = int(candidates[np.argmax(value[candidates])])
        order.append(pick)
        picks_of[verdict] += 1
        stand_for(pick)
    return order
