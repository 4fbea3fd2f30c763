"""Judging an answer with the author's corrections: the sample-solution judge is the prior, the
task's graded answers are evidence that moves it, from the first one on.

Four steps, each a principle whose few constants are learnt across corpora, never per task
(bench/learning_curve.py fits them leaving one corpus out and writes them to grader.json):

1. **The judge as a distribution over verdicts.** The judge's chance that an answer is correct
   becomes shares of CORRECT, PARTIAL and WRONG: ordinal, with the judge's own cut points as the
   boundaries and a learnt ``sharpness``. Read with the rule of step 4, an answer with no graded
   answer gets exactly the judge's verdict.
2. **The author's strictness.** The judge's chance is a calibrated chance of CORRECT (a logistic
   model trained across corpora), so the graded answers, each CORRECT or not, shift its logit by
   the most probable offset under a normal prior of spread ``shift_spread``: an author stricter or
   more lenient than the sample solution moves every verdict a little, no further than all graded
   answers together support, and an author the judge already agrees with moves it not at all.
3. **Near answers vote.** Each graded answer votes for its verdict with a weight that falls with
   its distance, ``exp(closeness × (cosine − 1))`` of the answers' sentence vectors, less that of
   a typical pair of the task's answers (the ``typical_quantile`` of the cosines among the graded
   answers and to the sample solutions), and only the √n nearest of n vote (a nearest-neighbour
   rule whose reach grows with the evidence); the sample solutions vote CORRECT the same way (an
   answer that says what the solution says stays near it); the shifted judge counts as
   ``prior_weight`` votes. Cosines mean little by themselves: two answers to one question sit at
   a median cosine of 0.3 to 0.6, by the question, where the weight alone still gives every far
   answer a vote of 0.03 to 0.14, and five of them weigh as much as the judge. So a vote counts
   only as far as the answer is nearer than most, and an answer near none keeps the judge's verdict.
4. **Agreement.** With two graded answers or more, the task's own answers say how far to trust
   the judge against its neighbours: the prior's weight and the judge's slope (how sharply its
   chance separates this task's answers) are those under which each graded answer, judged by the
   others, gets its own verdict most likely; held towards the shared ``prior_weight`` and a slope
   of 1 by a penalty on their logarithms (``*_stiffness``), so that a few answers move them little.
   An answer is CORRECT when CORRECT has half the votes or more, WRONG when WRONG has more than
   half, PARTIAL otherwise.

A single label (every graded answer CORRECT), an author who disagrees with the sample solution
(near answers, the shift and the slope follow the author) and PARTIAL with points (the points'
share votes for the points) need no special case.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from core.api import Correctness

LABEL_SCORES = {Correctness.CORRECT: 1.0, Correctness.PARTIAL: 0.5, Correctness.WRONG: 0.0}
VERDICTS = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)
PRIOR_WEIGHT_FACTORS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""The prior weights step 4 tries, as multiples of the shared one."""
SLOPES = (0.5, 0.7, 1.0, 1.4, 2.0)
NEWTON_STEPS = 25
LOGIT_LIMIT = 6.9
"""A chance of 0 or 1 (a verbatim solution, an echo of the question) is read as 0.001 or 0.999."""
SHIFT_LIMIT = 6.0
FEWEST_VOTERS = 3


@dataclass(frozen=True, slots=True)
class CorrectionWeights:
    """How graded answers move the judge (learnt across corpora, grader.json's ``corrections``)."""

    sharpness: float
    shift_spread: float
    prior_weight: float
    closeness: float
    prior_weight_stiffness: float
    slope_stiffness: float
    typical_quantile: float


@cache
def shipped_corrections() -> CorrectionWeights:
    """grader.json's ``corrections``, written by bench/learning_curve.py --write."""
    text = resources.files(__package__).joinpath("grader.json").read_text(encoding="utf-8")
    return CorrectionWeights(**json.loads(text)["corrections"])


@dataclass(frozen=True, slots=True)
class CutPoints:
    """The judge's: CORRECT from ``correct_from``, WRONG below ``wrong_below`` (chances)."""

    correct_from: float
    wrong_below: float

    def share(self, probability: float) -> float:
        """The judge's share of the points for a chance (as JudgeWeights.verdict gives it)."""
        if probability >= self.correct_from:
            return 1.0
        if probability < self.wrong_below:
            return 0.0
        return 0.25 + 0.5 * (probability - self.wrong_below) / (self.correct_from - self.wrong_below)


@dataclass(frozen=True, slots=True)
class Graded:
    """A graded answer as the blend reads it."""

    correctness: Correctness
    score: float
    """Its share of the points (the author's points, else the label's share)."""
    probability: float
    """The judge's chance that it is correct."""


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Correctness
    score: float
    """The share of the points: the votes' mean of the judge's share and the graded scores."""
    shares: tuple[float, float, float]
    """The votes' shares of CORRECT, PARTIAL and WRONG."""
    nearest: int
    """Position of the most similar graded answer (-1 without graded answers)."""
    nearest_similarity: float


def logits(probabilities: np.ndarray) -> np.ndarray:
    clipped = np.clip(probabilities, 1e-12, 1 - 1e-12)
    result: np.ndarray = np.clip(np.log(clipped / (1 - clipped)), -LOGIT_LIMIT, LOGIT_LIMIT)
    return result


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class Corrections:
    """A task's graded answers, ready to judge new answers (built once per task version)."""

    def __init__(
        self,
        graded: Sequence[Graded],
        similarity: np.ndarray,
        solutions: int,
        cuts: CutPoints,
        weights: CorrectionWeights,
    ) -> None:
        """``similarity``: cosines of each graded answer to every graded answer, then to each of
        the ``solutions`` sample solutions (one row per graded answer)."""
        self._graded = tuple(graded)
        self._cuts = cuts
        self._weights = weights
        self._high, self._low = (
            math.log(cuts.correct_from / (1 - cuts.correct_from)),
            math.log(cuts.wrong_below / (1 - cuts.wrong_below)),
        )
        self._logits = logits(np.array([g.probability for g in self._graded]))
        self._labels = np.array([VERDICTS.index(g.correctness) for g in self._graded], dtype=int)
        self._scores = np.array([g.score for g in self._graded] + [1.0] * solutions)
        self._votes = np.vstack(
            [np.eye(3)[self._labels].reshape(-1, 3), np.tile([1.0, 0.0, 0.0], (solutions, 1))]
        )
        self._typical_weight = self._closeness_weight(
            np.array(_typical(np.asarray(similarity), weights.typical_quantile))
        )
        self.slope, self.prior_weight = 1.0, weights.prior_weight
        if len(self._graded) >= 2:
            self.slope, self.prior_weight = self._fit_agreement(np.asarray(similarity))
        self.shift = self._fit_shift(self.slope)

    def score_of(self, position: int) -> float:
        """The share of the points the author gave the graded answer at ``position``."""
        return float(self._scores[position])

    def shares(self, probability: float) -> tuple[float, float, float]:
        """The judge's chance, shifted by the author's strictness, as shares of the verdicts."""
        correct, partial, wrong = self._prior(self.slope * logits(np.array([probability])) + self.shift)[0]
        return float(correct), float(partial), float(wrong)

    def judge(self, probability: float, similarities: Sequence[float]) -> Judgement:
        """``similarities``: to each graded answer, then to each sample solution."""
        return self.judge_all(np.array([probability]), np.array([similarities], dtype=float))[0]

    def judge_all(self, probabilities: np.ndarray, similarity: np.ndarray) -> list[Judgement]:
        """:meth:`judge` for many answers at once (one row of ``similarity`` each)."""
        if not self._graded:
            return [
                Judgement(_verdict(prior := self.shares(p)), self._cuts.share(p), prior, -1, 0.0)
                for p in probabilities.tolist()
            ]
        z = self.slope * logits(probabilities) + self.shift
        near = self._nearness(similarity)
        shares = self._blend(self._prior(z), near, self.prior_weight)
        prior_points = np.array([self._cuts.share(p) for p in _sigmoid(z).tolist()])
        points = (self.prior_weight * prior_points + near @ self._scores) / (
            self.prior_weight + near.sum(axis=1)
        )
        graded = similarity[:, : len(self._graded)]
        nearest = graded.argmax(axis=1)
        return [
            Judgement(
                _verdict(judged := (float(row[0]), float(row[1]), float(row[2]))),
                float(points[i]),
                judged,
                int(nearest[i]),
                float(graded[i, nearest[i]]),
            )
            for i, row in enumerate(shares)
        ]

    def _prior(self, z: np.ndarray) -> np.ndarray:
        a = self._weights.sharpness
        correct = _sigmoid(a * (z - self._high))
        not_wrong = np.maximum(_sigmoid(a * (z - self._low)), correct)
        return np.stack([correct, not_wrong - correct, 1.0 - not_wrong], axis=-1)

    def _nearness(self, similarity: np.ndarray) -> np.ndarray:
        """Each row's voting weights: the √n nearest voters, weighted by how much closer they are
        than a typical pair of the task's answers."""
        weights: np.ndarray = np.maximum(self._closeness_weight(similarity) - self._typical_weight, 0.0)
        voters = max(FEWEST_VOTERS, math.ceil(math.sqrt(similarity.shape[1])))
        if similarity.shape[1] > voters:
            kept = -np.sort(-weights, axis=1)[:, voters - 1 : voters]
            weights = np.where(weights >= kept, weights, 0.0)
        return weights

    def _closeness_weight(self, similarity: np.ndarray) -> np.ndarray:
        weight: np.ndarray = np.exp(self._weights.closeness * (np.minimum(similarity, 1.0) - 1.0))
        return weight

    def _blend(self, prior: np.ndarray, near: np.ndarray, prior_weight: float) -> np.ndarray:
        blended: np.ndarray = (prior_weight * prior + near @ self._votes) / (prior_weight + near.sum(axis=1))[
            :, None
        ]
        return blended

    def _fit_agreement(self, similarity: np.ndarray) -> tuple[float, float]:
        """Slope and prior weight under which each graded answer, judged by the others, most
        likely gets its own verdict (penalised towards 1 and the shared weight)."""
        count = len(self._graded)
        masked = similarity.copy()
        masked[np.arange(count), np.arange(count)] = -np.inf  # no answer votes for itself
        near = self._nearness(masked)
        labels = self._labels if (self._labels == 1).any() else np.where(self._labels == 2, 2, 0)
        rows = np.arange(count)
        w = self._weights
        best: tuple[float, float, float] | None = None
        for slope in SLOPES:
            z = slope * self._logits + self._fit_shift(slope)
            prior = self._prior(z)
            for factor in PRIOR_WEIGHT_FACTORS:
                shares = self._blend(prior, near, w.prior_weight * factor)
                if not (self._labels == 1).any():  # a task of CORRECT and WRONG: PARTIAL is not correct
                    shares = np.stack([shares[:, 0], shares[:, 1] * 0, shares[:, 1] + shares[:, 2]], axis=-1)
                fit = float(np.log(np.maximum(shares[rows, labels], 1e-6)).sum())
                fit -= (
                    w.prior_weight_stiffness * math.log(factor) ** 2
                    + w.slope_stiffness * math.log(slope) ** 2
                )
                if best is None or fit > best[0]:
                    best = (fit, slope, w.prior_weight * factor)
        assert best is not None
        return best[1], best[2]

    def _fit_shift(self, slope: float) -> float:
        """The offset of the judge's logit with the highest posterior: the judge's chance is a
        calibrated chance of CORRECT (a logistic model trained across corpora), so each graded
        answer is a draw of CORRECT or not from it, and Newton's method finds the offset under
        which they are likeliest, with a normal prior (concave, so it converges). An author whose
        answers the judge gets right on the whole leaves it where it is, whatever the mix."""
        spread = self._weights.shift_spread
        if not self._graded or spread <= 0:
            return 0.0
        correct = (self._labels == 0).astype(float)
        shift = 0.0
        for _ in range(NEWTON_STEPS):
            p = _sigmoid(slope * self._logits + shift)
            gradient = float((correct - p).sum()) - shift / spread**2
            curvature = float((p * (1 - p)).sum()) + 1.0 / spread**2
            shift = max(-SHIFT_LIMIT, min(SHIFT_LIMIT, shift + gradient / curvature))
        return shift


def _typical(similarity: np.ndarray, quantile: float) -> float:
    """The ``quantile`` of the cosines between different graded answers and from each to the
    sample solutions (``similarity`` as :class:`Corrections` takes it); -1 without any."""
    count = similarity.shape[0]
    if not count:
        return -1.0
    between = similarity[:, :count][~np.eye(count, dtype=bool)]
    cosines = np.concatenate([between, similarity[:, count:].ravel()])
    return float(np.quantile(cosines, quantile)) if cosines.size else -1.0


def _verdict(shares: tuple[float, float, float]) -> Correctness:
    correct, _, wrong = shares
    if correct >= 0.5:
        return Correctness.CORRECT
    return Correctness.WRONG if wrong > 0.5 else Correctness.PARTIAL
