"""Normalisation of words: Unicode NFKC, case folding, one apostrophe, Swiss German ss for ß.

Only single words are normalised; texts are never rewritten, so every offset still points at
the learner's own characters. ``str.casefold`` already turns ß into ss, which makes German and
Swiss German spellings meet.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})


def normalise_word(word: str) -> str:
    return unicodedata.normalize("NFKC", word).translate(APOSTROPHES).casefold()


@lru_cache(maxsize=65536)
def strip_accents(word: str) -> str:
    """For typo tolerance only: 'connecte' should still meet 'connecté'."""
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
