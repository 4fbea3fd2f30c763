"""Judging an answer against the sample solutions alone: the case of a new task.

Three signals per sample solution, each about its facts (:mod:`facts`), and all relative to the
task, since absolute word overlap and cosines differ by language and by how long authors write:

- ``fact_coverage``: the mean lexical coverage of each fact's key terms (stems, typos, German
  compound parts, negation-aware: a contradicted term counts against the answer);
- ``fact_gain``: for each fact, how much closer the nearest sentence of the answer comes to it
  than the problem statement does (USE multilingual cosines), averaged; this is what carries a
  paraphrase in other words or another language;
- ``facts_beaten``: the share of facts that some sentence of the answer is closer to than the
  problem statement is.

A logistic model over the three, trained across tasks on the labelled corpora in ../shared/bench
by ``bench/freeform_grader.py`` (which also judges it leaving one corpus out), gives the chance
that the answer is correct; two cut points, chosen there on the training corpora, read it as
CORRECT, PARTIAL or WRONG. The best of the sample solutions (they are alternatives) counts.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from core.api import Correctness
from core.engine.text.coverage import AnswerWords, KeyTerm, coverage
from core.engine.text.embedding import encoder
from core.engine.text.tokens import Analysis

FEATURES = ("fact_coverage", "fact_gain", "facts_beaten")
FACT_SHOWN_LEXICALLY = 0.5
FACT_SHOWN_BY_MEANING = 0.25
"""A fact counts as stated (for the feedback's "n of m") when half its key terms are there, or the
answer comes this much closer to it than the problem statement does. Reporting thresholds, set by
principle (half; a quarter of the cosine range), not fitted: the verdict does not use them."""
SAME_TEXT = 0.95
"""An answer this close (cosine) to a sample solution is that solution; this close to the problem
statement, it only repeats the question."""


@dataclass(frozen=True, slots=True)
class Fact:
    text: str
    terms: tuple[KeyTerm, ...]


@dataclass(frozen=True, slots=True)
class Reference:
    """One sample solution, prepared once per task version."""

    terms: tuple[KeyTerm, ...]
    """The whole solution's key terms: the evidence and the contradictions the feedback points at."""
    facts: tuple[Fact, ...]
    vectors: np.ndarray
    """Unit vectors of the facts, one row each."""
    statement_similarity: np.ndarray
    """Per fact, the cosine of the nearest sentence of the problem statement: the task's baseline."""
    whole: np.ndarray
    """The unit vector of the whole solution (without point markers)."""


@dataclass(frozen=True, slots=True)
class Grader:
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    correct_from: float
    wrong_below: float

    def probability(self, features: np.ndarray) -> float:
        z = float(((features - self.mean) / self.scale) @ self.coef + self.intercept)
        return 1.0 / (1.0 + math.exp(-z))


@cache
def grader() -> Grader:
    """The shipped weights (core/engine/freeform/grader.json, written by bench/freeform_grader.py)."""
    data = json.loads(resources.files(__package__).joinpath("grader.json").read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"grader.json was trained on {data['features']}, this engine computes {FEATURES}")
    return Grader(
        mean=np.array(data["mean"]),
        scale=np.array(data["scale"]),
        coef=np.array(data["coef"]),
        intercept=float(data["intercept"]),
        correct_from=float(data["correct_from"]),
        wrong_below=float(data["wrong_below"]),
    )


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Correctness
    probability: float
    share: float
    """Points as a share of the maximum: 1, 0, or strictly between for PARTIAL."""
    reference: int
    facts_shown: tuple[bool, ...]


MAX_SENTENCES = 64
"""A longer answer is read as its first 64 sentences: a pasted essay costs milliseconds, not seconds."""


def sentence_vectors(answer: Analysis) -> np.ndarray:
    texts = [s.text(answer.text) for s in answer.sentences[:MAX_SENTENCES]] or [answer.text]
    return encoder().encode(texts)


def features(
    reference: Reference, words: AnswerWords, sentences: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The three features and, per fact, whether the answer shows it."""
    lexical = np.array([coverage(words, fact.terms).score if fact.terms else 0.0 for fact in reference.facts])
    nearest = (sentences @ reference.vectors.T).max(axis=0)
    gain = nearest - reference.statement_similarity
    shown = (lexical >= FACT_SHOWN_LEXICALLY) | (gain >= FACT_SHOWN_BY_MEANING)
    return np.array([lexical.mean(), gain.mean(), (gain > 0).mean()]), shown


def judge(
    references: tuple[Reference, ...], statement: np.ndarray, answer: Analysis, words: AnswerWords
) -> Judgement:
    """``statement``: the unit vector of the whole problem statement."""
    sentences = sentence_vectors(answer)
    whole = encoder().encode([answer.text])[0]
    model = grader()
    best: Judgement | None = None
    echo = float(whole @ statement) >= SAME_TEXT
    for index, reference in enumerate(references):
        values, shown = features(reference, words, sentences)
        if float(whole @ reference.whole) >= SAME_TEXT:
            probability = 1.0
        else:
            probability = 0.0 if echo else model.probability(values)
        if best is None or probability > best.probability:
            verdict, share = _verdict(probability, model)
            best = Judgement(verdict, probability, share, index, tuple(bool(s) for s in shown))
    assert best is not None, "judge() needs at least one reference"
    return best


def _verdict(probability: float, model: Grader) -> tuple[Correctness, float]:
    if probability >= model.correct_from:
        return Correctness.CORRECT, 1.0
    if probability < model.wrong_below:
        return Correctness.WRONG, 0.0
    position = (probability - model.wrong_below) / (model.correct_from - model.wrong_below)
    return Correctness.PARTIAL, 0.25 + 0.5 * position
