"""Judging an answer against the sample solutions alone: the case of a new task.

Four signals per sample solution, each about its facts (:mod:`facts`), and all relative to the
task, since absolute word overlap and cosines differ by language and by how long authors write:

- ``fact_alignment``: per fact, the lexical coverage of its key terms by the one answer sentence
  that covers most of them (stems, typos, German compound parts, negation-aware: a contradicted
  term counts against the answer), averaged; a fact is stated in a sentence, and its words
  scattered over an answer say less;
- ``fact_gain``: for each fact, how much closer the nearest sentence of the answer comes to it
  than the problem statement does (USE multilingual cosines), averaged; this is what carries a
  paraphrase in other words or another language;
- ``facts_beaten``: the share of facts that some sentence of the answer is closer to than the
  problem statement is;
- ``fact_agreement``: per fact, alignment times gain, averaged. With the same two means, an answer
  that states a few facts fully, in the solution's words and by meaning, has a higher agreement
  than one that touches every fact; the model learns a negative weight for it, so it tells a
  partial answer from a complete one (held out, every corpus gained: docs/freeform-engine.md).

A logistic model over the four, trained across tasks on the labelled corpora in ../shared/bench
by ``bench/freeform_grader.py`` (which also judges it leaving one corpus out), gives the chance
that the answer is correct; two cut points, chosen there on the training corpora, read it as
CORRECT, PARTIAL or WRONG. The best of the sample solutions (they are alternatives) counts, its
chance lowered, when there are several, by a learnt amount per logarithm of their number: the best
of several noisy judgements is an optimistic one (:meth:`JudgeWeights.best_of`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from core.api import Correctness
from core.engine.text.coverage import AnswerWords, Coverage, KeyTerm, coverage, sentence_words, substituted
from core.engine.text.embedding import encoder
from core.engine.text.relations import (
    Causal,
    Comparison,
    clause_words,
    exchanged,
    restates,
    reversed_comparison,
    reversed_relation,
    said_of_another,
    said_of_every,
    sentence_comparisons,
    sentence_relations,
    universal_clauses,
)
from core.engine.text.replies import other_reply
from core.engine.text.tokens import Analysis, Token

FEATURES = ("fact_alignment", "fact_gain", "facts_beaten", "fact_agreement")
FACT_SHOWN_LEXICALLY = 0.5
FACT_SHOWN_BY_MEANING = 0.25
"""A fact counts as stated (for the feedback's "n of m") when half its key terms are there, or the
answer comes this much closer to it than the problem statement does. Reporting thresholds, set by
principle (half; a quarter of the cosine range), not fitted: the verdict does not use them."""
SAME_TEXT = 0.95
"""Cosine from which two sentences say the same. An answer that states every fact of a sample
solution this closely is that solution (CORRECT); one whose every sentence is this close to a
sentence of the problem statement only repeats the question (WRONG)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A clause of a fact that states something of its own (two content words or more)."""

    terms: tuple[KeyTerm, ...]
    words: frozenset[str]
    """What it says (core.engine.text.relations.said_words)."""


@dataclass(frozen=True, slots=True)
class Fact:
    text: str
    terms: tuple[KeyTerm, ...]
    relation: Causal | None = None
    """The cause and effect the fact states, if it states one ("… because …", "…, so …")."""
    comparison: Comparison | None = None
    """What the fact compares with what, if it compares ("… less dense than …")."""
    claims: tuple[Claim, ...] = ()
    """Its clauses, when several of them state something (see :func:`evidence`)."""
    said: frozenset[str] = frozenset()
    """What the whole fact says (core.engine.text.relations.said_words)."""

    @property
    def claim_words(self) -> tuple[frozenset[str], ...]:
        """What each of its claims says."""
        return tuple(c.words for c in self.claims)


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
    reply: str | None = None
    """The reply the solution opens with ("no", "yes", or the letter of a choice, "a")."""
    question: frozenset[str] = frozenset()
    """The stems of the problem statement's words."""

    @property
    def values(self) -> frozenset[str]:
        """The numbers and labels the solution names ("bulb A", "0 V")."""
        return frozenset(t.stem for t in self.terms if t.value)


@dataclass(frozen=True, slots=True)
class JudgeWeights:
    """The logistic model over :data:`FEATURES` and its two cut points."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    correct_from: float
    wrong_below: float
    solutions_penalty: float = 0.0
    """The logit the best sample solution's chance loses per unit of the logarithm of how many
    sample solutions the task has (:meth:`best_of`)."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeWeights:
        if tuple(data["features"]) != FEATURES:
            raise ValueError(
                f"the weights were trained on {data['features']}, this engine computes {FEATURES}"
            )
        return cls(
            mean=np.array(data["mean"]),
            scale=np.array(data["scale"]),
            coef=np.array(data["coef"]),
            intercept=float(data["intercept"]),
            correct_from=float(data["correct_from"]),
            wrong_below=float(data["wrong_below"]),
            solutions_penalty=float(data.get("solutions_penalty", 0.0)),
        )

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """The chance of CORRECT for one feature vector, or for each row of a matrix of them."""
        logit = ((features - self.mean) / self.scale) @ self.coef + self.intercept
        return np.asarray(1.0 / (1.0 + np.exp(-logit)))

    def best_of(self, probabilities: Sequence[float]) -> float:
        """The chance that an answer is correct given its chance against each sample solution.

        Any one solution may be met, so the best counts; but each chance is an estimate, and the
        best of several estimates is biased upwards: a wrong answer that reuses some words gets
        another draw with every solution. Measured with correct learners' answers as further
        solutions, taking the best called 40 % of SciEntsBank's answers correct with one solution
        and 70 % with five (docs/freeform-engine.md). So the best's logit is lowered by
        ``solutions_penalty`` × ln(number of solutions); a chance of 0 or 1 (an echo, a verbatim
        solution) stays."""
        best = max(probabilities)
        if len(probabilities) < 2 or not 0.0 < best < 1.0 or not self.solutions_penalty:
            return best
        logit = np.log(best / (1.0 - best)) - self.solutions_penalty * np.log(len(probabilities))
        return float(1.0 / (1.0 + np.exp(-logit)))

    def verdict(self, probability: float) -> tuple[Correctness, float]:
        """The verdict and the points as a share of the maximum (strictly between for PARTIAL)."""
        if probability >= self.correct_from:
            return Correctness.CORRECT, 1.0
        if probability < self.wrong_below:
            return Correctness.WRONG, 0.0
        position = (probability - self.wrong_below) / (self.correct_from - self.wrong_below)
        return Correctness.PARTIAL, 0.25 + 0.5 * position


@cache
def shipped_weights() -> JudgeWeights:
    """core/engine/freeform/grader.json, written by bench/freeform_grader.py --write."""
    text = resources.files(__package__).joinpath("grader.json").read_text(encoding="utf-8")
    return JudgeWeights.from_json(json.loads(text))


@dataclass(frozen=True, slots=True)
class Evidence:
    """What an answer shows of one sample solution."""

    features: np.ndarray
    shown: np.ndarray
    """Per fact, whether the answer states it (for the feedback's "n of m")."""
    matched: tuple[tuple[Token, ...], ...]
    """Per fact, its words in the answer sentence that states most of it: the fact's evidence."""
    verbatim: bool
    """Every fact is stated nearly word for word."""
    contradicts: bool
    """A sentence states a fact with one of its words turned into its opposite ("Bulb A is in an
    open path …" for "… a closed path …": half the fact's terms or more, counting the opposite as
    the word), compares what a fact compares the other way round ("water is less dense than ice"
    for "ice is less dense than water"), exchanges the words of two of its claims ("UDP is
    connection-oriented, TCP is connectionless"), or opens with another reply than the solution
    ("Yes, …" for "No. …", "B." for "A."): it says the opposite of the solution."""
    rearranged: tuple[Token, ...] = ()
    """The answer's words of the facts it states in another arrangement (compared the other way
    round, two claims' words exchanged): what the feedback points at as saying the opposite."""


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Correctness
    probability: float
    share: float
    """Points as a share of the maximum: 1, 0, or strictly between for PARTIAL."""
    reference: int
    facts_shown: tuple[bool, ...]
    fact_words: tuple[tuple[Token, ...], ...]
    """Per fact of the chosen reference, its words in the answer sentence that states most of it."""
    rearranged: tuple[Token, ...] = ()
    """The answer's words that state a fact of the chosen reference in another arrangement."""


MAX_SENTENCES = 64
"""A longer answer is read as its first 64 sentences: a pasted essay costs milliseconds, not seconds."""


def sentence_texts(text: Analysis) -> list[str]:
    """The sentences of an analysed text that :func:`sentence_vectors` encodes."""
    return [s.text(text.text) for s in text.sentences[:MAX_SENTENCES]] or [text.text]


def sentence_vectors(text: Analysis) -> np.ndarray:
    """Unit vectors of the sentences of an analysed text (an answer, a problem statement)."""
    return encoder().encode(sentence_texts(text))


@dataclass(frozen=True, slots=True)
class AnswerText:
    """An answer read once for every sample solution: its words, its sentences' words, and its
    sentences' vectors."""

    words: AnswerWords
    sentence_words: tuple[AnswerWords, ...]
    vectors: np.ndarray
    relations: tuple[Causal, ...]
    comparisons: tuple[Comparison, ...]
    clauses: dict[int, frozenset[str]]
    """What each clause says, by its number (core.engine.text.relations.clause_words)."""
    universal: tuple[frozenset[str], ...]
    """What each clause that speaks of every one of a kind says (relations.universal_clauses)."""
    analysis: Analysis

    @classmethod
    def of(
        cls,
        answer: Analysis,
        words: AnswerWords | None = None,
        sentences: tuple[AnswerWords, ...] | None = None,
    ) -> AnswerText:
        """``words`` and ``sentences`` (all of the answer's), when the caller has indexed them."""
        words = words or AnswerWords(answer)
        return cls(
            words,
            sentences[:MAX_SENTENCES]
            if sentences is not None
            else sentence_words(answer, MAX_SENTENCES, words),
            sentence_vectors(answer),
            sentence_relations(answer, MAX_SENTENCES),
            sentence_comparisons(answer, MAX_SENTENCES),
            clause_words(answer, MAX_SENTENCES),
            universal_clauses(answer, MAX_SENTENCES),
            answer,
        )


_NOTHING = Coverage(0.0, (), ())


def aligned(answer: AnswerText, terms: tuple[KeyTerm, ...]) -> Coverage:
    """The coverage of a fact's terms by the one answer sentence that covers most of them."""
    if not terms:
        return _NOTHING
    found = (coverage(words, terms, opposites=True) for words in answer.sentence_words)
    return max(found, key=lambda c: c.score, default=_NOTHING)


def opposing(fact: Fact, found: Coverage, answer: AnswerText) -> Coverage:
    """The coverage with only the opposite words that oppose the fact: not one in a clause about
    another of the fact's claims (:func:`core.engine.text.relations.said_of_another`), nor one of a
    comparison that states the fact's from its other side ("water is more dense than ice" for "ice
    is less dense than water", :func:`core.engine.text.relations.restates`)."""
    if not found.opposed or not (fact.claims or fact.comparison):
        return found
    claims = fact.claim_words
    opposites = answer.words.opposites
    restating = frozenset(
        stem
        for said in answer.comparisons
        if fact.comparison and restates(fact.comparison, said, opposites)
        for stem in said.before | said.after
    )
    kept = tuple(
        t
        for t in found.opposed
        if t.stem not in restating
        and not (
            claims
            and said_of_another(
                claims, opposites.get(t.stem, frozenset()), answer.clauses.get(t.clause, frozenset())
            )
        )
    )
    return found if len(kept) == len(found.opposed) else replace(found, opposed=kept)


def evidence(reference: Reference, answer: AnswerText) -> Evidence:
    in_sentence = [opposing(fact, aligned(answer, fact.terms), answer) for fact in reference.facts]
    # Its words in a swapped relation ("heated because it expands" for "expands because it is
    # heated"), with the things compared swapped ("water is less dense than ice" for "ice is
    # less dense than water"), or with two claims' words exchanged ("UDP is connection-oriented,
    # TCP is connectionless"), do not state a fact, however many of them there are.
    # Nor do its words around another element or quantity ("bulb B" for "bulb A").
    values = reference.values
    rearranged = np.array(
        [
            bool(
                f.comparison and reversed_comparison(f.comparison, answer.comparisons, answer.words.opposites)
            )
            or bool(f.claims and exchanged(f.claim_words, answer.clauses.values()))
            or bool(
                answer.universal
                and said_of_every(f.claim_words or (f.said,), answer.universal, answer.words.opposites)
            )
            for f in reference.facts
        ]
    )
    swapped = rearranged | np.array(
        [
            bool(f.relation and reversed_relation(f.relation, answer.relations))
            or bool(values and substituted(f.terms, values, answer.words))
            for f in reference.facts
        ]
    )
    lexical = np.where(swapped, 0.0, [c.score for c in in_sentence])
    nearest = (answer.vectors @ reference.vectors.T).max(axis=0)
    gain = nearest - reference.statement_similarity
    # A sentence vector does not see "open" against "closed", nor which way a cause runs: a fact
    # the answer states with an opposite word anywhere, or reversed, gains nothing by meaning.
    # (Zeroing it for negations as well, whose scope is judged per clause, cost German 0.016
    # held out: docs/freeform-engine.md.)
    opposed = np.array(
        [
            bool(f.terms and opposing(f, coverage(answer.words, f.terms, opposites=True), answer).opposed)
            for f in reference.facts
        ]
    )
    gain = np.where(opposed | swapped, np.minimum(gain, 0.0), gain)
    # A fact of several claims is contradicted when one of them is ("ice is more dense than
    # water" against "ice is less dense than water, because …"); only a fact with an opposite
    # word anywhere in the answer can be. An opposite the question says is its condition ("if
    # the speed is increased"), which a claim without the fact's other half cannot tell.
    claims = [
        said
        for f, o in zip(reference.facts, opposed, strict=True)
        if o
        for said in (opposing(f, aligned(answer, claim.terms), answer) for claim in f.claims)
        if not any(t.stem in reference.question for t in said.opposed)
    ]
    return Evidence(
        features=np.array([lexical.mean(), gain.mean(), (gain > 0).mean(), (lexical * gain).mean()]),
        shown=(lexical >= FACT_SHOWN_LEXICALLY) | (gain >= FACT_SHOWN_BY_MEANING),
        matched=tuple(c.matched for c in in_sentence),
        verbatim=bool((nearest >= SAME_TEXT).all() and not (opposed | swapped).any()),
        contradicts=contradicts(reference, in_sentence + claims, answer.words.modified)
        or bool(rearranged.any())
        or other_reply(reference.reply, answer.analysis) is not None,
        rearranged=tuple(
            t for c, r in zip(in_sentence, rearranged, strict=True) if r for t in c.matched if not t.stop
        ),
    )


def contradicts(reference: Reference, in_sentence: list[Coverage], modified: Mapping[int, str]) -> bool:
    """Some sentence states a fact with a word turned into its opposite, one the solution never
    uses: "the longer the string, the lower the pitch" does not contradict "if the string is
    shorter, the pitch will be higher" when the solution goes on "if it is longer, it is lower".
    A degree word counts as used only of the same thing (``modified``: what the answer's degree
    words say how much of): "plus dense" is not the "plus éloignées" of "moins dense …, parce que
    ses molécules sont plus éloignées"."""
    named = {t.stem: t.modifies for t in reference.terms}

    def used(token: Token) -> bool:
        scope = named.get(token.stem)
        return scope is not None and (not scope or modified.get(token.start) in scope)

    return any(
        c.opposed and c.turned >= FACT_SHOWN_LEXICALLY and not any(used(t) for t in c.opposed)
        for c in in_sentence
    )


def echoes(statement: np.ndarray, answer: AnswerText) -> bool:
    """Every sentence of the answer only repeats a sentence of the problem statement."""
    return bool(((answer.vectors @ statement.T).max(axis=1) >= SAME_TEXT).all())


def ruled_probability(weights: JudgeWeights, found: Evidence, echo: bool) -> float:
    """The model's chance that the answer is correct, with the rules that overrule it: a verbatim
    solution is correct, an echo of the question is not, and neither is an answer that contradicts
    the solution. The benchmark (bench/freeform_grader.py) judges with this too."""
    if found.verbatim:
        probability = 1.0
    elif echo:
        probability = 0.0
    else:
        probability = float(weights.probabilities(found.features))
    if found.contradicts:
        # Whatever else it says, an answer that contradicts a fact is not a correct one, and at
        # best half right (PARTIAL with half the points); the features alone weigh the fact's
        # other words, which it repeats (docs/freeform-engine.md).
        probability = min(probability, (weights.correct_from + weights.wrong_below) / 2)
    return probability


def judge(references: tuple[Reference, ...], statement: np.ndarray, answer: AnswerText) -> Judgement:
    """``statement``: the unit vectors of the problem statement's sentences. The facts shown are
    those of the likeliest sample solution."""
    assert references, "judge() needs at least one reference"
    weights = shipped_weights()
    echo = echoes(statement, answer)
    found = [evidence(reference, answer) for reference in references]
    chances = [ruled_probability(weights, f, echo) for f in found]
    index = int(np.argmax(chances))
    probability = weights.best_of(chances)
    verdict, share = weights.verdict(probability)
    shown = tuple(bool(s) for s in found[index].shown)
    return Judgement(verdict, probability, share, index, shown, found[index].matched, found[index].rearranged)
