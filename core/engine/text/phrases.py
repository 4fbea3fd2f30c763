"""Finding a phrase (an aspect's cue or name) in an answer, with exact spans and polarity.

A phrase is found when all its content words occur in one sentence of the answer (stems, or the
same spelling up to a typo). Polarity must agree: the cue "connected" is not found in "not
connected", but the cue "not connected" is, and "connected" there counts as contradicted; so does
a word's opposite ("open" for the cue "closed circuit").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from core.engine.text.coverage import AnswerWords, KeyTerm
from core.engine.text.languages import UNIVERSAL_WORDS
from core.engine.text.segment import Span
from core.engine.text.tokens import Analysis, Token, quantified


class Found(Enum):
    ABSENT = "absent"
    PRESENT = "present"
    CONTRADICTED = "contradicted"


@dataclass(frozen=True, slots=True)
class PhraseMatch:
    found: Found
    tokens: tuple[Token, ...] = ()
    said_in_other_words: bool = False
    """The tokens are a whole sentence that says the phrase in other words: it is the evidence."""

    def spans(self, answer: Analysis) -> list[Span]:
        """The evidence in the answer (:func:`evidence_spans`; a sentence said in other words whole)."""
        if self.said_in_other_words and self.tokens:
            return [Span(self.tokens[0].start, self.tokens[-1].end)]
        return evidence_spans(answer, self.tokens)


LONG_FUNCTION_WORD = 5
"""Stop lists are broad (English's holds 'empty', 'large', 'higher'); in an author's short cue,
a listed word this long is more likely meant than glue, so the phrase needs it too."""


def phrase_terms(phrase: Analysis, *, accusing: bool = False) -> tuple[KeyTerm, ...]:
    """The words a phrase needs: its content words, or all its words if it has none. A word that
    speaks of every one of a kind is needed too, said of the same thing: the cue "both poles" is
    not in "connect both wires to the same pole" (``KeyTerm.modifies``: what it speaks of).

    ``accusing``: the phrase flags a misconception, and a cue of one content word needs its other
    words too: "un solo cable" (a single wire) is not "cable", "last chance" not "chance", "used
    up" not "used". A false accusation costs a learner more than a missed one; a concept's cue
    keeps its one word ("on a Sunday" is said "on Sunday")."""
    universal = UNIVERSAL_WORDS.get(phrase.base, frozenset())
    words = [(i, t) for i, t in enumerate(phrase.tokens) if not t.negation]
    needed = [
        (i, t) for i, t in words if not t.stop or len(t.norm) >= LONG_FUNCTION_WORD or t.norm in universal
    ]
    if not needed or (accusing and len({t.stem for _, t in needed}) < 2):
        needed = words
    unique = {
        (t.stem, t.negated): KeyTerm(
            t.stem,
            t.norm,
            t.negated,
            1.0,
            modifies=quantified(phrase.tokens, i) if t.norm in universal else frozenset(),
        )
        for i, t in needed
    }
    return tuple(unique.values())


def find_phrase(sentences: Sequence[AnswerWords], terms: tuple[KeyTerm, ...]) -> PhraseMatch:
    """``sentences``: the answer's words sentence by sentence (coverage.sentence_words), indexed
    once per answer for all its phrases (each indexing its sentences anew cost a long answer with
    many cues most of its judgement, and lost the words' lookups that phrases share)."""
    if not terms:
        return PhraseMatch(Found.ABSENT)
    contradicted: tuple[Token, ...] = ()
    stems = {t.stem for t in terms}
    for words in sentences:
        if len(words.reachable(terms)) < len(terms):
            continue  # a word of the phrase is neither in this sentence nor its opposite
        agrees: list[bool] = []
        occurrences: list[list[Token]] = []
        for term in terms:
            tokens, _ = words.find(term)
            if term.modifies:
                tokens = [t for t in tokens if words.quantified(t) & term.modifies]
            if not tokens and stems.isdisjoint(words.opposites.get(term.stem, ())):
                # "the circuit is open" says the cue "circuit is closed" the other way round, as
                # "not closed" does; a cue naming both ends ("plus to minus") has no opposite.
                tokens = [t._replace(negated=not t.negated) for t in words.opposite(term)]
            if not tokens:
                break
            same = [t for t in tokens if t.negated == term.negated]
            agrees.append(bool(same))
            occurrences.append(same or tokens)
        else:
            occurrences = _within_predicate(occurrences, words.predicates)
            if not all(occurrences):
                continue
            chosen = _tightest(occurrences)
            if all(agrees):
                return PhraseMatch(Found.PRESENT, chosen)
            contradicted = contradicted or chosen
    return PhraseMatch(Found.CONTRADICTED, contradicted) if contradicted else PhraseMatch(Found.ABSENT)


def _within_predicate(
    occurrences: list[list[Token]], predicates: tuple[tuple[int, int], ...]
) -> list[list[Token]]:
    """A German verb read with its particle ("nimmt … auf") closes its predicate there, and the
    words between another such verb and its particle are that verb's: a phrase with such a verb
    takes its other words neither from after its particle nor from inside another's ("Sie nehmen
    Kohlendioxid auf und geben Sauerstoff ab" does not say "nehmen Sauerstoff auf", nor "Sie nehmen
    Sauerstoff auf und geben Kohlendioxid ab" "geben Sauerstoff ab"). ``predicates``: the
    sentence's (verb start, particle end)."""
    own = {t.start: t.closed_at for tokens in occurrences for t in tokens if t.closed_at}
    if not own:
        return occurrences
    end = max(own.values())
    others = [(start, stop) for start, stop in predicates if start not in own]

    def belongs(token: Token) -> bool:
        return bool(token.closed_at) or (
            token.start < end and not any(start <= token.start < stop for start, stop in others)
        )

    return [[t for t in tokens if belongs(t)] for tokens in occurrences]


def _tightest(occurrences: list[list[Token]]) -> tuple[Token, ...]:
    """One occurrence per word, chosen so the evidence is as short as it can be.

    "the circuit is a closed circuit" shows "closed circuit", not "circuit is a closed": each
    occurrence of the first word anchors a choice of the nearest occurrence of every other word.
    """

    def around(anchor: Token) -> tuple[Token, ...]:
        return (anchor, *(min(o, key=lambda t: abs(t.start - anchor.start)) for o in occurrences[1:]))

    def width(tokens: tuple[Token, ...]) -> int:
        return max(t.end for t in tokens) - min(t.start for t in tokens)

    return min((around(anchor) for anchor in occurrences[0]), key=width)


def content_spans(answer: Analysis, tokens: tuple[Token, ...] | list[Token]) -> list[Span]:
    """:func:`evidence_spans` of the words that matched a sample solution's fact, whose key terms
    include its function words: where content words matched, the others neither start nor end a
    span nor make one of their own ("circuit is closed", not "so the circuit is closed and current
    flows through the"). Values ("bulb A") stay. A phrase's match needs none of this: each of its
    words is one the phrase needs ("un solo cable")."""
    content = [t for t in tokens if not t.stop or t.value]
    return evidence_spans(answer, content or tokens)


def evidence_spans(answer: Analysis, tokens: tuple[Token, ...] | list[Token]) -> list[Span]:
    """Matched words as readable spans: one span per clause, from its first to its last word,
    taking in the negation word when the words are negated ("not connected", not "connected")."""
    by_clause: dict[int, list[Token]] = {}
    for token in tokens:
        by_clause.setdefault(token.clause, []).append(token)
    spans = set()
    for clause, members in by_clause.items():
        start, end = min(t.start for t in members), max(t.end for t in members)
        end = max([end, *(t.closed_at for t in members if t.closed_at)])  # "nehmen Kohlendioxid auf"
        if any(t.negated for t in members):
            cues = [t for t in answer.tokens if t.clause == clause and t.negation]
            start, end = min([start, *(t.start for t in cues)]), max([end, *(t.end for t in cues)])
        spans.add(Span(start, end))
    return sorted(spans, key=lambda s: s.start)
