"""A class's answers to one task, judged together, then moved by every grade the teacher gives.

Judging an answer is the dear part (its sentences encoded, the judge run against the sample
solutions' facts and the aspects): :func:`judge_answers` does it once per answer and task version
and keeps what the verdict needs afterwards (:class:`Unmoved`: the unmoved verdict, the judge's
chance, the answer's vector). A grade only changes the graded answers that move those verdicts
(:mod:`grading`), so :func:`verdicts` gives every answer's verdict again from what was kept, by the
same rule one answer's feedback follows (:func:`~core.engine.freeform.assessment.moved`), in
milliseconds for thousands of answers. The feedback text of an answer whose verdict moved is
written again by :func:`~core.engine.freeform.compute` when it is read.

:func:`groups` puts answers that say the same together within each verdict (a leader clustering
over the answers' vectors), so a teacher reads a class's fifty "the bulb is not connected" once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.api import Correctness, FreeformTextTask
from core.engine.base import EngineContext
from core.engine.freeform import points_for
from core.engine.freeform.assessment import SAME_ANSWER, Basis, assess_unmoved, moved
from core.engine.freeform.judge import sentence_texts
from core.engine.freeform.model import ENCODED_TOGETHER, answer_vector, task_model
from core.engine.freeform.review import order_by_value
from core.engine.text.embedding import encoder
from core.engine.text.tokens import analyse

SAME_GROUP = 0.8
"""Cosine of two answers' vectors from which they are shown as one group: sentence vectors put
paraphrases of one short statement at 0.8–0.95 and answers that only share a topic below 0.7."""


@dataclass(frozen=True, slots=True)
class Unmoved:
    """What is kept of a judged answer: enough to give its verdict again after any grade."""

    basis: Basis
    verdict: Correctness
    score: float
    """The share of the points the aspects or the judge give, before graded answers move it."""
    probability: float
    """The judge's chance that the answer is correct (for the facts it states)."""
    vector: np.ndarray
    """The answer's unit vector (:func:`answer_vector`; zeros for an answer without words)."""

    @classmethod
    def stored(cls, basis: str, verdict: str, score: float, probability: float, vector: bytes) -> Unmoved:
        """One as a store keeps it: the enums by value, the vector as float32 bytes."""
        return cls(
            Basis(basis), Correctness(verdict), score, probability, np.frombuffer(vector, dtype=np.float32)
        )

    @property
    def vector_bytes(self) -> bytes:
        return self.vector.astype(np.float32).tobytes()


@dataclass(frozen=True, slots=True)
class Verdict:
    verdict: Correctness
    points: float
    shares: tuple[float, float, float]
    """The votes' shares of CORRECT, PARTIAL and WRONG (what the review order takes turns among)."""
    same_as_graded: bool
    """The answer has the words of a graded answer, whose verdict it takes."""


def judge_answers(task: FreeformTextTask, texts: Sequence[str], ctx: EngineContext) -> list[Unmoved]:
    """Each text judged against the task (its sentences encoded in batches, which is faster)."""
    model = task_model(task, ctx)
    width = model.statement.shape[1]
    judged: list[Unmoved] = []
    for start in range(0, len(texts), ENCODED_TOGETHER):
        analyses = [analyse(text, model.base) for text in texts[start : start + ENCODED_TOGETHER]]
        encoder().encode([s for analysis in analyses for s in sentence_texts(analysis)])
        for analysis in analyses:
            unmoved = assess_unmoved(model, analysis)
            judged.append(
                Unmoved(
                    unmoved.basis,
                    unmoved.verdict,
                    unmoved.score,
                    (unmoved.by_facts or unmoved).probability,
                    answer_vector(analysis).astype(np.float32)
                    if analysis.tokens
                    else np.zeros(width, dtype=np.float32),
                )
            )
    return judged


def verdicts(task: FreeformTextTask, ctx: EngineContext, answers: Sequence[Unmoved]) -> list[Verdict]:
    """Every answer's verdict under the graded answers of ``ctx`` (the task's and the set's): the
    verdict :func:`~core.engine.freeform.compute` would give it, without judging it again."""
    if not answers:
        return []
    graded = task_model(task, ctx).graded
    probabilities = np.array([a.probability for a in answers])
    similarity = (
        np.stack([a.vector for a in answers]) @ graded.vectors.T.astype(np.float32)
        if graded.examples
        else np.zeros((len(answers), 0))
    )
    found = []
    for answer, judgement in zip(
        answers, graded.corrections.judge_all(probabilities, similarity), strict=True
    ):
        verdict, score = answer.verdict, answer.score
        if graded.examples and answer.basis is not Basis.EMPTY:
            _, verdict, score = moved(graded, judgement, answer.basis, verdict, score)
        same = answer.basis is not Basis.EMPTY and judgement.nearest_similarity >= SAME_ANSWER
        found.append(Verdict(verdict, points_for(verdict, score, task.maxPoints), judgement.shares, same))
    return found


def groups(answers: Sequence[Unmoved], verdicts_of: Sequence[Correctness]) -> list[int]:
    """A group number for each answer: answers of one verdict whose vectors are at least
    SAME_GROUP alike share one. Greedy: the answer with the most such neighbours leads a group of
    those not yet in one, then the next; groups are numbered from the largest, from 0."""
    count = len(answers)
    if not count:
        return []
    vectors = np.stack([a.vector for a in answers])
    labels = np.array([v.value for v in verdicts_of])
    neighbours: list[np.ndarray] = []
    for start in range(0, count, 512):  # rows in blocks: 5,000 answers never make a full matrix
        block = vectors[start : start + 512] @ vectors.T
        same = labels[start : start + 512, None] == labels[None, :]
        neighbours += [np.flatnonzero(row) for row in (block >= SAME_GROUP) & same]
    group = np.full(count, -1)
    made = 0
    for leader in sorted(range(count), key=lambda i: -len(neighbours[i])):
        if group[leader] >= 0:
            continue
        near = neighbours[leader]
        group[near[group[near] < 0]] = made
        group[leader] = made  # an answer without words is alike to none, itself included
        made += 1
    sizes = np.bincount(group, minlength=made)
    rank = np.empty(made, dtype=int)
    rank[sorted(range(made), key=lambda g: (-sizes[g], g))] = np.arange(made)
    numbers: list[int] = rank[group].tolist()
    return numbers


VERDICT_CLASSES = {Correctness.CORRECT: 0, Correctness.PARTIAL: 1, Correctness.WRONG: 2}


def review_order(
    answers: Sequence[Unmoved], found: Sequence[Verdict], graded: Sequence[int], limit: int
) -> list[int]:
    """Indices of answers to grade next (:mod:`review`), at most ``limit``. The ``graded`` ones
    stand for their neighbours and count among the picks of the verdict the judge gave them
    before any grade (so the picks keep taking turns among the judge's verdicts after every
    grade); neither they nor answers with their words are picked."""
    if not answers or limit <= 0:
        return []
    vectors = np.stack([a.vector for a in answers])
    done = [(i, VERDICT_CLASSES.get(answers[i].verdict, 1)) for i in graded]
    order = order_by_value([v.shares for v in found], vectors @ vectors.T, len(answers), done)
    return [i for i in order if not found[i].same_as_graded][:limit]
