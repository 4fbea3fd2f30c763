"""Typo-tolerant word matching: equal stems, or normalised words a few edits apart (rapidfuzz
OSA distance, so a swap of two neighbouring letters, the commonest typo, is one edit).

The allowed number of edits grows with the word: none for short words (where one edit makes
another word: 'heat'/'hear'), one up to eight letters, two beyond.
"""

from __future__ import annotations

from functools import cache

from rapidfuzz.distance import OSA

from core.engine.text.normalise import strip_accents
from core.engine.text.tokens import Token


def allowed_edits(word: str) -> int:
    if len(word) <= 4:
        return 0
    return 1 if len(word) <= 8 else 2


@cache
def words_match(a: str, b: str) -> bool:
    """Two normalised words are the same word, up to accents and a typo."""
    if a == b:
        return True
    a, b = strip_accents(a), strip_accents(b)
    limit = min(allowed_edits(a), allowed_edits(b))
    return limit > 0 and OSA.distance(a, b, score_cutoff=limit) <= limit


def tokens_match(a: Token, b: Token) -> bool:
    """Same word (stem, or spelling up to typos), whatever the polarity."""
    return a.stem == b.stem or words_match(a.norm, b.norm)
