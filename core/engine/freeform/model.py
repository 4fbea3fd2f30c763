"""Everything about a task that does not depend on the answer, built once per task version.

Analyses of the question and sample solutions, their key ideas, the authored aspects' phrases,
and the task's graded answers ready to move the judge (:mod:`grading`). Models live in a small LRU
cache keyed by the context's cache_key (task version and graded-answer revision), so a changed
task or new graded answers simply miss the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, replace
from threading import Lock

import numpy as np

from core.api import AspectDefinition, AspectType, Correctness, FreeformTextTask
from core.engine.base import EngineContext, GradedExample
from core.engine.freeform.facts import split_facts, without_point_marks
from core.engine.freeform.grading import (
    LABEL_SCORES,
    Corrections,
    CutPoints,
    Graded,
    Judgement,
    shipped_corrections,
)
from core.engine.freeform.judge import (
    AnswerText,
    Claim,
    Fact,
    Reference,
    judge,
    sentence_texts,
    sentence_vectors,
    shipped_weights,
)
from core.engine.text.asked import asked_items
from core.engine.text.coverage import KeyTerm, key_terms
from core.engine.text.embedding import encoder
from core.engine.text.languages import base_of
from core.engine.text.phrases import phrase_terms
from core.engine.text.relations import clause_tokens, said_words, sentence_comparisons, sentence_relations
from core.engine.text.replies import reply
from core.engine.text.tokens import Analysis, analyse

CACHE_SIZE = 128
ENCODED_TOGETHER = 64
"""Graded answers whose sentences are encoded in one call (at most 64 × 64 sentences, well within
the encoder's cache of 8,192 texts, so none is evicted before it is read)."""


@dataclass(frozen=True, slots=True)
class AspectPhrases:
    definition: AspectDefinition
    phrases: tuple[tuple[KeyTerm, ...], ...]
    description: tuple[KeyTerm, ...]
    meaning: np.ndarray
    """Unit vectors of the cues, the name and the description: a concept said in other words."""
    baseline: np.ndarray
    """Per vector, the cosine of the nearest sentence of the problem statement."""


@dataclass(frozen=True, slots=True)
class GradedIndex:
    vectors: np.ndarray
    """Unit vectors of the graded answers, then of the sample solutions (:func:`answer_vector`)."""
    corrections: Corrections
    examples: tuple[GradedExample, ...]
    """The graded answers in the order of ``vectors``."""

    def judge(self, probability: float, answer: Analysis) -> Judgement:
        """The judge's chance for an answer, moved by the graded answers near it."""
        similarities = (self.vectors @ answer_vector(answer)).tolist() if self.examples else []
        return self.corrections.judge(probability, similarities)


@dataclass(frozen=True, slots=True)
class TaskModel:
    base: str
    references: tuple[Reference, ...]
    """The sample solutions' facts, for judging an answer without graded answers (:mod:`judge`)."""
    statement: np.ndarray
    """Unit vectors of the problem statement's sentences: the baseline of every cosine the judge
    reads, and what an answer that only repeats the question says."""
    aspects: tuple[AspectPhrases, ...]
    graded: GradedIndex
    asked: int | None = None
    """How many items the problem statement asks for, when it says ("name two …"):
    :func:`core.engine.text.asked.asked_items`."""


_cache: OrderedDict[Hashable, TaskModel] = OrderedDict()
_cache_lock = Lock()
"""The service may judge answers in worker threads; the LRU's bookkeeping must not interleave.
A model is built outside the lock: two threads may build the same one, never a wrong one."""


def _key(task: FreeformTextTask, ctx: EngineContext) -> Hashable:
    return (
        ctx.cache_key if ctx.cache_key is not None else task.model_dump_json(),
        _graded_fingerprint(ctx.graded),
    )


def cached_model(task: FreeformTextTask, ctx: EngineContext) -> TaskModel | None:
    """The task's model if it is built already (see :func:`task_model`)."""
    key = _key(task, ctx)
    with _cache_lock:
        model = _cache.get(key)
        if model is not None:
            _cache.move_to_end(key)
        return model


def task_model(task: FreeformTextTask, ctx: EngineContext) -> TaskModel:
    """The task's model, built on first use: milliseconds for a sample solution, up to seconds for
    a task with many long graded answers (each one's sentences are encoded for the grader)."""
    model = cached_model(task, ctx)
    if model is not None:
        return model
    model = build_model(task, ctx.graded)
    with _cache_lock:
        _cache[_key(task, ctx)] = model
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return model


_last_fingerprint: tuple[tuple[GradedExample, ...], int] | None = None


def _graded_fingerprint(graded: tuple[GradedExample, ...]) -> int:
    """The graded answers are part of the version even if a caller's cache_key forgets them.
    A service passes the same cached tuple answer after answer, so the last one is remembered
    (replaced as one pair, so another thread reads an old or a new pair, never a mix)."""
    global _last_fingerprint
    last = _last_fingerprint
    if last is not None and last[0] is graded:
        return last[1]
    fingerprint = hash(tuple((g.text, g.correctness, g.points, g.feedback) for g in graded))
    _last_fingerprint = (graded, fingerprint)
    return fingerprint


def build_model(task: FreeformTextTask, graded: tuple[GradedExample, ...]) -> TaskModel:
    base = base_of(task.language)
    question = frozenset(t.stem for t in analyse(task.problemStatement, base).tokens)
    solutions = [without_point_marks(s.content) for s in task.sampleSolutions if s.content.strip()]
    statement = analyse(task.problemStatement, base)
    statement_vectors = sentence_vectors(statement)
    references = _references(task, base, question, statement_vectors)
    aspects = tuple(
        AspectPhrases(
            definition=a,
            phrases=tuple(
                terms
                for phrase in (*a.cues, a.name)
                if (terms := phrase_terms(analyse(phrase, base), accusing=a.type is AspectType.MISCONCEPTION))
            ),
            description=tuple(t for t in key_terms(analyse(a.description, base), question) if t.weight >= 1),
            meaning=(meaning := encoder().encode([*a.cues, a.name, a.description])),
            baseline=(statement_vectors @ meaning.T).max(axis=0),
        )
        for a in task.aspects
    )
    graded_index = _graded_index(task, graded, solutions, base, references, statement_vectors)
    return TaskModel(base, references, statement_vectors, aspects, graded_index, asked_items(statement))


def _references(
    task: FreeformTextTask, base: str, question: frozenset[str], statement_vectors: np.ndarray
) -> tuple[Reference, ...]:
    references = []
    for solution in task.sampleSolutions:
        texts = [analyse(text, base) for text in split_facts(solution.content)]
        # "No." before the reason, "Yes", a stray "1": no word of them is a thing to state. A
        # solution of only such words keeps them, to have something to judge against.
        stated = [text for text in texts if any(not t.stop and not t.negation for t in text.tokens)]
        facts = tuple(_fact(text, question) for text in stated or texts)
        if not facts:
            continue
        vectors = encoder().encode([f.text for f in facts])
        whole = analyse(without_point_marks(solution.content), base)
        said = reply(whole)
        references.append(
            Reference(
                terms=key_terms(whole, question),
                facts=facts,
                vectors=vectors,
                statement_similarity=(statement_vectors @ vectors.T).max(axis=0),
                reply=said.said if said else None,
                question=question,
            )
        )
    return tuple(references)


def _fact(text: Analysis, question: frozenset[str]) -> Fact:
    relations, comparisons = sentence_relations(text), sentence_comparisons(text)
    return Fact(
        text.text,
        key_terms(text, question),
        relations[0] if relations else None,
        comparisons[0] if comparisons else None,
        _claims(text, question),
        said_words(text.tokens),
    )


def _claims(text: Analysis, question: frozenset[str]) -> tuple[Claim, ...]:
    """The clauses of a fact that state something of their own (two content words or more), when
    it has several: "ice is less dense than water, because its molecules are further apart" makes
    two claims, and an answer that turns one round ("ice is more dense than water") contradicts
    the fact however little of the other it says; one that exchanges their words ("UDP is
    connection-oriented, TCP is connectionless") says something else."""
    claims = [tokens for tokens in clause_tokens(text).values() if len(said_words(tokens)) >= 2]
    if len(claims) < 2:
        return ()
    return tuple(
        Claim(
            key_terms(Analysis(text.text, text.base, tuple(tokens), ()), question),
            said_words(tokens),
        )
        for tokens in claims
    )


def judge_probability(model: TaskModel, answer: AnswerText) -> float:
    """The learnt judge's chance that an answer is correct, as it judges a task without graded
    answers (0 without a sample solution): the prior that graded answers move (:mod:`grading`)."""
    return _chance(model.references, model.statement, answer)


def _chance(references: tuple[Reference, ...], statement: np.ndarray, answer: AnswerText) -> float:
    return judge(references, statement, answer).probability if references else 0.0


def _score_of(example: GradedExample, max_points: float) -> float:
    if example.points is not None:
        return min(max(example.points / max_points, 0.0), 1.0)
    return LABEL_SCORES[example.correctness]


def answer_vector(analysis: Analysis) -> np.ndarray:
    """A text's meaning as one unit vector: the mean of its sentences' vectors, which the judge
    encodes anyway (so a judged answer's costs no further encoding)."""
    mean: np.ndarray = sentence_vectors(analysis).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else mean


def _graded_index(
    task: FreeformTextTask,
    graded: tuple[GradedExample, ...],
    solutions: list[str],
    base: str,
    references: tuple[Reference, ...],
    statement: np.ndarray,
) -> GradedIndex:
    # A store may hand back the label as a plain string: make it the enum once, here.
    examples = tuple(
        replace(g, correctness=Correctness(g.correctness)) for g in graded if g.correctness in LABEL_SCORES
    )
    analyses = [analyse(g.text, base) for g in examples]
    probabilities = []
    for start in range(0, len(analyses), ENCODED_TOGETHER):
        batch = analyses[start : start + ENCODED_TOGETHER]
        # One call encodes the batch's sentences faster than one call an answer; AnswerText.of
        # and answer_vector then find their vectors in the encoder's cache.
        encoder().encode([s for analysis in batch for s in sentence_texts(analysis)])
        probabilities += [_chance(references, statement, AnswerText.of(analysis)) for analysis in batch]
    vectors = (
        np.array([answer_vector(a) for a in (*analyses, *(analyse(s, base) for s in solutions))])
        if examples
        else np.zeros((0, 0))
    )
    weights = shipped_weights()
    corrections = Corrections(
        [
            Graded(g.correctness, _score_of(g, task.maxPoints), p)
            for g, p in zip(examples, probabilities, strict=True)
        ],
        vectors[: len(examples)] @ vectors.T if examples else np.zeros((0, 0)),
        len(solutions),
        CutPoints(weights.correct_from, weights.wrong_below),
        shipped_corrections(),
    )
    return GradedIndex(vectors, corrections, examples)
