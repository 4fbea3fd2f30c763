"""Judging an answer by the graded answers of its task: a calibrated nearest-neighbour vote.

Three signals per answer: the similarity-weighted vote of its nearest graded answers (the sample
solutions vote as fully correct answers), its lexical coverage of the sample solutions, and the
learnt judge's chance that it is correct (:func:`judge.judge`, the best sample solution with the
judge's rules), which reads each fact in one sentence and by meaning as well. A small ridge
regression per task weighs them against the graded scores, and the verdict thresholds are chosen
on the task's own graded answers, each judged by leave-one-out (it never votes for itself), when
they know PARTIAL (where the boundaries depend on how the author scores partial answers); with
CORRECT and WRONG only, the regression onto 1 and 0 is cut at 0.5 (a threshold tuned on a few
dozen answers overfits: −0.02 macro-F1 on held-out train answers). Nothing here depends on a
data set: every constant is a principle (ridge strength, candidate k) or learnt per task.

The judge's chance is a third signal, not a replacement for the coverage: with the judge's weights
trained on the other corpora, adding it raised both unseen-answers files on held-out train answers
and on their test answers, while replacing the coverage by it lowered SAF English
(bench/graded_judge_experiment.py, docs/freeform-engine.md, tenth session).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from core.api import Correctness

NEIGHBOUR_COUNTS = (3, 5, 7, 9)
RIDGE = 0.1
THRESHOLD_CANDIDATES = 20
"""Pairs of thresholds are searched among this many quantiles of the predictions."""
LABEL_SCORES = {Correctness.CORRECT: 1.0, Correctness.PARTIAL: 0.5, Correctness.WRONG: 0.0}
MIN_GRADED = 5


@dataclass(frozen=True, slots=True)
class Judgement:
    score: float
    """The predicted share of the points (0 … 1) before thresholds."""
    verdict: Correctness
    nearest: int
    """Position of the most similar example (graded answers first, then sample solutions)."""
    nearest_similarity: float


def votes(
    similarities: Sequence[float], scores: Sequence[float], counts: Sequence[int], skip: int = -1
) -> list[float]:
    """For each k in ``counts``: the similarity²-weighted mean score of the k nearest examples
    (squared: the closest count most). One sort serves every k."""
    nearest = sorted(
        ((s, y) for i, (s, y) in enumerate(zip(similarities, scores, strict=True)) if i != skip),
        reverse=True,
    )[: max(counts)]
    results = []
    total = weighted = 0.0
    position = 0
    for k in sorted(counts):
        for s, y in nearest[position:k]:
            w = max(s, 1e-6) ** 2
            total += w
            weighted += w * y
        position = k
        results.append(weighted / total if total else 0.5)
    return results


def vote(similarities: Sequence[float], scores: Sequence[float], k: int, skip: int = -1) -> float:
    return votes(similarities, scores, (k,), skip)[0]


def ridge_fit(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> list[float]:
    """Least squares with a light ridge (the last column is the intercept, not penalised)."""
    d = len(rows[0])
    matrix = [
        [sum(r[i] * r[j] for r in rows) + (RIDGE if i == j and i < d - 1 else 0.0) for j in range(d)]
        + [sum(r[i] * t for r, t in zip(rows, targets, strict=True))]
        for i in range(d)
    ]
    for c in range(d):
        pivot = max(range(c, d), key=lambda r: abs(matrix[r][c]))
        matrix[c], matrix[pivot] = matrix[pivot], matrix[c]
        if abs(matrix[c][c]) < 1e-12:
            continue
        for r in range(d):
            if r != c:
                f = matrix[r][c] / matrix[c][c]
                matrix[r] = [x - f * y for x, y in zip(matrix[r], matrix[c], strict=True)]
    return [matrix[i][d] / matrix[i][i] if abs(matrix[i][i]) > 1e-12 else 0.0 for i in range(d)]


@dataclass(frozen=True, slots=True)
class Thresholds:
    correct_from: float
    wrong_below: float
    """Equal to correct_from when the graded answers know no PARTIAL."""

    def verdict(self, score: float) -> Correctness:
        if score >= self.correct_from:
            return Correctness.CORRECT
        return Correctness.WRONG if score < self.wrong_below else Correctness.PARTIAL


def _candidates(values: Sequence[float], limit: int) -> list[float]:
    """Midpoints between distinct predictions, thinned to ``limit`` quantiles."""
    ordered = sorted(set(values))
    mids = [(a + b) / 2 for a, b in pairwise(ordered)] or [0.5]
    if len(mids) <= limit:
        return mids
    step = len(mids) / limit
    return [mids[int(i * step)] for i in range(limit)]


def choose_thresholds(predictions: Sequence[float], gold: Sequence[Correctness]) -> Thresholds:
    """The pair of thresholds that judges the most graded answers right; ties go to the points
    halfway between the label scores (0.25 and 0.75).

    Accuracy rather than macro-F1: on a few dozen answers of one task a rare label makes macro-F1
    jump, and chasing it pushed thresholds to extremes (held-out train answers: +0.01 macro-F1)."""
    candidates = _candidates(predictions, THRESHOLD_CANDIDATES)
    best: tuple[int, float, Thresholds] | None = None
    for high in candidates:
        for low in (c for c in candidates if c < high):
            thresholds = Thresholds(high, low)
            right = sum(thresholds.verdict(p) == g for p, g in zip(predictions, gold, strict=True))
            key = (right, -abs(high - 0.75) - abs(low - 0.25))
            if best is None or key > best[:2]:
                best = (*key, thresholds)
    return best[2] if best is not None else Thresholds(0.75, 0.25)


class Grader:
    """Calibrated on a task's graded answers; judges new answers from their similarities."""

    def __init__(
        self,
        pairwise: Sequence[Sequence[float]],
        scores: Sequence[float],
        gold: Sequence[Correctness],
        coverages: Sequence[float],
        probabilities: Sequence[float],
    ) -> None:
        """``pairwise``/``scores`` cover graded answers then sample solutions; ``gold``,
        ``coverages`` and ``probabilities`` (the judge's chance of each) the graded answers only."""
        self._scores = list(scores)
        graded = len(gold)
        rows = [[self._vote(pairwise[i], skip=i), coverages[i], probabilities[i], 1.0] for i in range(graded)]
        self._weights = ridge_fit(rows, scores[:graded])
        if Correctness.PARTIAL in gold:
            predictions = [sum(w * x for w, x in zip(self._weights, r, strict=True)) for r in rows]
            self.thresholds = choose_thresholds(predictions, gold)
        else:
            self.thresholds = Thresholds(0.5, 0.5)

    def _vote(self, similarities: Sequence[float], skip: int = -1) -> float:
        """The mean vote over several neighbourhood sizes: steadier than picking one k."""
        by_k = votes(similarities, self._scores, NEIGHBOUR_COUNTS, skip)
        return sum(by_k) / len(by_k)

    def judge(self, similarities: Sequence[float], coverage: float, probability: float) -> Judgement:
        """``probability``: the learnt judge's chance that the answer is correct."""
        row = [self._vote(similarities), coverage, probability, 1.0]
        score = sum(w * x for w, x in zip(self._weights, row, strict=True))
        nearest = max(range(len(similarities)), key=similarities.__getitem__)
        return Judgement(
            score=min(max(score, 0.0), 1.0),
            verdict=self.thresholds.verdict(score),
            nearest=nearest,
            nearest_similarity=similarities[nearest],
        )
