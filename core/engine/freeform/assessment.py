"""What an answer shows: detected aspects, covered key ideas, contradictions, and the verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from core.api import Aspect as WireAspect
from core.api import (
    AspectDefinition,
    AspectType,
    Correctness,
    DetectedAspect,
    FreeformTextTask,
    TextSpan,
)
from core.engine.base import GradedExample, to_aspect
from core.engine.freeform.grading import Judgement
from core.engine.freeform.judge import FACT_SHOWN_BY_MEANING, AnswerText, judge, sentence_vectors
from core.engine.freeform.model import AspectPhrases, GradedIndex, TaskModel
from core.engine.text.coverage import AnswerWords, coverage, sentence_words
from core.engine.text.phrases import Found, PhraseMatch, content_spans, evidence_spans, find_phrase
from core.engine.text.replies import other_reply
from core.engine.text.segment import Span
from core.engine.text.tokens import Analysis

DESCRIPTION_COVERED = 0.6
SAID_IN_OTHER_WORDS = 0.7
"""Cosine from which an answer sentence says what a concept's cue or description says. USE puts
paraphrases of one short statement at about 0.7–0.9 and sentences that share a topic at 0.3–0.6
(docs/freeform-engine.md); set by that principle, not fitted."""
SAME_ANSWER = 0.995
"""A graded answer this similar in meaning has the same words (sentence vectors put a negated or
swapped near miss at 0.9 and above): its verdict is taken over."""
SIMILAR_FEEDBACK = 0.85
"""From this similarity on, the author's feedback on a graded answer is shown as well."""


class Basis(Enum):
    EMPTY = "empty"
    ASPECTS = "aspects"
    GRADED = "graded"
    COVERAGE = "coverage"
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class AspectFinding:
    definition: AspectDefinition
    found: Found
    spans: tuple[Span, ...]


@dataclass(slots=True)
class Assessment:
    basis: Basis
    verdict: Correctness
    score: float
    detected: list[DetectedAspect[list[TextSpan]]] = field(default_factory=list)
    aspects: list[AspectFinding] = field(default_factory=list)
    evidence: list[Span] = field(default_factory=list)
    contradictions: list[Span] = field(default_factory=list)
    covered_ideas: int = 0
    total_ideas: int = 0
    asked_ideas: int = 0
    """How many of the sample solution's items the question asks for, when it says so and the
    solution offers more ("name two of …"): the count the feedback holds the answer to."""
    similar: GradedExample | None = None
    probability: float = 0.0
    """The learnt judge's chance that the answer is correct (0 without a sample solution): the
    verdict without graded answers, and a signal of the graded-answer grader."""
    by_facts: Assessment | None = None
    """On a task with aspects, the judgement of the sample solutions' facts that the aspects
    overruled: the same answer judged as if the task had none (the tutor's leak guard asks both)."""


def text_spans(text: str, spans: list[Span] | tuple[Span, ...]) -> list[TextSpan]:
    return [TextSpan(content=text[s.start : s.end], offset=s.start, length=s.end - s.start) for s in spans]


def assess(task: FreeformTextTask, model: TaskModel, answer: Analysis) -> Assessment:
    result = assess_unmoved(model, answer)
    if result.basis is not Basis.EMPTY:
        _apply_graded(model, answer, result)
    return result


def assess_unmoved(model: TaskModel, answer: Analysis) -> Assessment:
    """The answer judged by the task's aspects or sample solutions, before the graded answers move
    the verdict: what a class set keeps of each answer, to move it again after every grade."""
    if not answer.tokens:
        return Assessment(Basis.EMPTY, Correctness.WRONG, 0.0)
    words = AnswerWords(answer)
    sentences = sentence_words(answer, whole=words)
    result = _coverage_assessment(model, answer, words, sentences)
    if model.aspects:
        result = _aspect_assessment(model, answer, words, sentences, result)
    return result


def _coverage_assessment(
    model: TaskModel, answer: Analysis, words: AnswerWords, sentences: tuple[AnswerWords, ...]
) -> Assessment:
    """No graded answers: the learnt judge of :mod:`judge` over the sample solutions' facts."""
    if not model.references:
        return Assessment(Basis.NOTHING, Correctness.UNKNOWN, 0.0)
    judgement = judge(model.references, model.statement, AnswerText.of(answer, words, sentences))
    reference = model.references[judgement.reference]
    shown = [
        (fact, matched)
        for fact, is_shown, matched in zip(
            reference.facts, judgement.facts_shown, judgement.fact_words, strict=True
        )
        if is_shown
    ]
    detected = [
        DetectedAspect[list[TextSpan]](
            aspect=WireAspect(name=_idea_name(fact.text), description=fact.text, type=AspectType.CONCEPT),
            context=text_spans(answer.text, content_spans(answer, matched)),
        )
        for fact, matched in shown
    ]
    best = coverage(words, reference.terms, opposites=True)
    return Assessment(
        basis=Basis.COVERAGE,
        verdict=judgement.verdict,
        score=judgement.share,
        detected=detected,
        evidence=content_spans(answer, best.matched),
        contradictions=evidence_spans(
            answer,
            [
                *best.contradicted,
                *judgement.rearranged,
                *filter(None, [other_reply(reference.reply, answer)]),
            ],
        ),
        covered_ideas=len(shown),
        total_ideas=len(reference.facts),
        asked_ideas=model.asked if model.asked and model.asked < len(reference.facts) else 0,
        probability=judgement.probability,
    )


def _idea_name(text: str, limit: int = 60) -> str:
    single_line = " ".join(text.split())
    return single_line if len(single_line) <= limit else single_line[: limit - 1].rstrip() + "…"


def _said_in_other_words(phrases: AspectPhrases, answer: Analysis, sentences: np.ndarray) -> PhraseMatch:
    """A concept none of whose cues occurs may still be said in other words: an answer sentence
    close in meaning to a cue or the description (and clearly closer than the problem statement),
    that does not negate, and that says something besides a part of one cue: "The bulb gets a
    wire" is close to the cue "wire in the bulb gets hot" because it has all its words but the one
    that matters. Only for concepts: a misconception is flagged on its words alone, since
    sentence vectors do not see negation and a false accusation costs a learner more."""
    if phrases.definition.type is not AspectType.CONCEPT or not len(phrases.meaning):
        return PhraseMatch(Found.ABSENT)
    similarity = sentences @ phrases.meaning.T
    close = (similarity >= SAID_IN_OTHER_WORDS) & (similarity - phrases.baseline >= FACT_SHOWN_BY_MEANING)
    cues = [frozenset(t.stem for t in terms) for terms in phrases.phrases]
    for index in np.flatnonzero(close.any(axis=1)):
        tokens = tuple(t for t in answer.tokens if t.sentence == index)
        said = {t.stem for t in tokens if not t.stop}
        if tokens and not any(t.negation for t in tokens) and not any(said <= cue for cue in cues):
            return PhraseMatch(Found.PRESENT, tokens, said_in_other_words=True)
    return PhraseMatch(Found.ABSENT)


def _denied(answer: Analysis, match: PhraseMatch) -> bool:
    """A misconception's words in a clause that negates anything ("a single wire is *not* enough",
    "it is not that the current is used up") may be denied rather than believed: the negation's
    scope covers only the words after it, yet it turns the whole claim. A false accusation costs a
    learner more than a missed one, so such a clause does not flag it."""
    if match.found is not Found.PRESENT:
        return False
    clauses = {t.clause for t in match.tokens}
    return any(t.negation and t.clause in clauses for t in answer.tokens)


def _find_aspect(
    phrases: AspectPhrases, words: AnswerWords, sentences: tuple[AnswerWords, ...]
) -> PhraseMatch:
    contradicted: PhraseMatch | None = None
    for terms in phrases.phrases:
        match = find_phrase(sentences, terms)
        if match.found is Found.PRESENT:
            return match
        if match.found is Found.CONTRADICTED and contradicted is None:
            contradicted = match
    if contradicted is not None:
        return contradicted
    if phrases.description and not phrases.definition.cues:
        found = coverage(words, phrases.description)
        if found.score >= DESCRIPTION_COVERED:
            return PhraseMatch(Found.PRESENT, found.matched)
    return PhraseMatch(Found.ABSENT)


def _aspect_assessment(
    model: TaskModel,
    answer: Analysis,
    words: AnswerWords,
    sentences: tuple[AnswerWords, ...],
    fallback: Assessment,
) -> Assessment:
    findings = []
    vectors: np.ndarray | None = None
    for phrases in model.aspects:
        match = _find_aspect(phrases, words, sentences)
        if phrases.definition.type is AspectType.MISCONCEPTION and _denied(answer, match):
            match = PhraseMatch(Found.ABSENT)
        if match.found is Found.ABSENT and phrases.definition.type is AspectType.CONCEPT:
            vectors = sentence_vectors(answer) if vectors is None else vectors
            match = _said_in_other_words(phrases, answer, vectors)
        findings.append(AspectFinding(phrases.definition, match.found, tuple(match.spans(answer))))
    concepts = [f for f in findings if f.definition.type is AspectType.CONCEPT]
    misconceptions = [
        f for f in findings if f.definition.type is AspectType.MISCONCEPTION and f.found is Found.PRESENT
    ]
    total = sum(f.definition.points for f in concepts)
    earned = sum(f.definition.points for f in concepts if f.found is Found.PRESENT)
    penalty = sum(f.definition.points for f in misconceptions)
    without_concepts = 0.0 if misconceptions else 1.0
    share = min(max((earned - penalty) / total, 0.0), 1.0) if total > 0 else without_concepts
    if share >= 1.0 and not misconceptions:
        verdict = Correctness.CORRECT
    elif share <= 0.0:
        verdict = Correctness.WRONG
    else:
        verdict = Correctness.PARTIAL
    return Assessment(
        basis=Basis.ASPECTS,
        verdict=verdict,
        score=share,
        detected=[
            DetectedAspect[list[TextSpan]](
                aspect=to_aspect(f.definition), context=text_spans(answer.text, f.spans)
            )
            for f in findings
            if f.found is Found.PRESENT
        ],
        aspects=findings,
        evidence=fallback.evidence,
        covered_ideas=fallback.covered_ideas,
        total_ideas=fallback.total_ideas,
        asked_ideas=fallback.asked_ideas,
        by_facts=fallback,
    )


def _apply_graded(model: TaskModel, answer: Analysis, result: Assessment) -> None:
    """The graded answers move the judge's verdict (:func:`moved`), and the author's feedback on a
    near graded answer is shown."""
    graded = model.graded
    if not graded.examples:
        return
    # The judge ran for the facts the answer states (by_facts when aspects overruled it).
    judgement = graded.judge((result.by_facts or result).probability, answer)
    nearest = graded.examples[judgement.nearest] if judgement.nearest >= 0 else None
    if nearest is not None and judgement.nearest_similarity >= SIMILAR_FEEDBACK and nearest.feedback:
        result.similar = nearest
    result.basis, result.verdict, result.score = moved(
        graded, judgement, result.basis, result.verdict, result.score
    )


def moved(
    graded: GradedIndex, judgement: Judgement, basis: Basis, verdict: Correctness, score: float
) -> tuple[Basis, Correctness, float]:
    """Basis, verdict and share of the points once the graded answers moved those of an answer's
    unmoved assessment (:func:`assess_unmoved`): an answer the author graded already (the same words) gets the author's verdict;
    on a task with aspects the aspects decide otherwise; elsewhere the blend of :mod:`grading`."""
    if judgement.nearest >= 0 and judgement.nearest_similarity >= SAME_ANSWER:
        return (
            basis,
            graded.examples[judgement.nearest].correctness,
            graded.corrections.score_of(judgement.nearest),
        )
    if basis is Basis.ASPECTS:
        return basis, verdict, score
    return Basis.GRADED, judgement.verdict, judgement.score
