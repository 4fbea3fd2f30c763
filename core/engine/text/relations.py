"""Which words of a sentence give a cause and which its effect: a near miss that reuses a sample
solution's words with cause and effect swapped ("the metal is heated because it expands") covers
every word and is close in meaning, yet says something else.

A causal connective opens its clause (the tokenizer starts a clause at every connective): a
reason word ("because", "weil", "parce que") makes its clause the cause and the rest of the
sentence the effect; a result word ("so", "deshalb", "donc") makes its clause the effect and the
rest the cause. Words on both sides say nothing about the direction and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.text.languages import CLAUSE_CONNECTIVES
from core.engine.text.tokens import Analysis, Token, sentence_tokens

REASON_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"because", "since"}),
    "de": frozenset({"weil", "da", "denn"}),
    "fr": frozenset({"parce", "car", "puisque"}),
    "it": frozenset({"perché", "poiché"}),
    "es": frozenset({"porque", "pues"}),
}
RESULT_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"so"}),
    "de": frozenset({"deshalb"}),
    "fr": frozenset({"donc"}),
    "it": frozenset({"quindi"}),
    "es": frozenset({"así"}),
}
PURPOSE_AFTER: dict[str, frozenset[str]] = {"en": frozenset({"that"}), "de": frozenset({"dass"})}
"""A result word followed by one of these opens a purpose ("so that it can grow"), not a result."""
assert all(REASON_WORDS[b] | RESULT_WORDS[b] <= CLAUSE_CONNECTIVES[b] for b in REASON_WORDS), (
    "a causal connective must open a clause"
)


@dataclass(frozen=True, slots=True)
class Causal:
    """The stems of the content words on each side of a sentence's first causal connective."""

    cause: frozenset[str]
    effect: frozenset[str]


def causal_sides(tokens: tuple[Token, ...] | list[Token], base: str) -> Causal | None:
    """``tokens``: one sentence. None unless it has exactly one causal connective (a chain of
    reasons has no single direction) and words on both sides of it; "so that" gives a purpose,
    not a result."""
    reason, result = REASON_WORDS.get(base, frozenset()), RESULT_WORDS.get(base, frozenset())
    purpose = PURPOSE_AFTER.get(base, frozenset())
    markers = [
        t
        for i, t in enumerate(tokens)
        if t.norm in reason
        or (t.norm in result and not (i + 1 < len(tokens) and tokens[i + 1].norm in purpose))
    ]
    if len(markers) != 1:
        return None
    marker = markers[0]
    inside = {t.stem for t in tokens if t.clause == marker.clause and not (t.stop or t.negation)}
    outside = {t.stem for t in tokens if t.clause != marker.clause and not (t.stop or t.negation)}
    here, there = frozenset(inside - outside), frozenset(outside - inside)
    if not here or not there:
        return None
    return Causal(here, there) if marker.norm in reason else Causal(there, here)


def sentence_relations(analysis: Analysis, limit: int | None = None) -> tuple[Causal, ...]:
    """The causal relations the first ``limit`` sentences of a text state."""
    sides = (causal_sides(tokens, analysis.base) for tokens in sentence_tokens(analysis, limit))
    return tuple(c for c in sides if c is not None)


def reversed_relation(fact: Causal, answer: tuple[Causal, ...]) -> bool:
    """The answer gives the fact's cause as an effect and its effect as a cause, and nowhere
    states the relation the right way round."""

    def swapped(said: Causal) -> bool:
        return bool((fact.cause & said.effect) - said.cause) and bool(
            (fact.effect & said.cause) - said.effect
        )

    def agrees(said: Causal) -> bool:
        return bool(fact.cause & said.cause) and bool(fact.effect & said.effect)

    return any(swapped(s) for s in answer) and not any(agrees(s) for s in answer)
