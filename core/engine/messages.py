"""Message catalogues: every sentence a learner reads comes from here, in the task's language.

Catalogues are JSON files under assets/messages/<lang>/<area>.json, read once by
:func:`core.assets.load_catalogue` and passed to the engines (which do no I/O). A key is
``<area>.<name>``; a missing translation falls back to English, so a gap shows as English, not
as a crash. DE_CH is German with Swiss spelling (no ß).

A value may be a list of phrasings of one move (the tutor's "good, that is there" said three
ways): :meth:`Catalogue.phrasing` picks one, so that a conversation does not read like a loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.api import Language

FALLBACK = "en"


Phrasing = str | list[str]
"""One sentence, or several ways to say it."""


class Catalogue:
    def __init__(self, tables: Mapping[str, Mapping[str, Phrasing]]) -> None:
        self._tables = tables

    def text(self, language: Language, key: str, **params: Any) -> str:
        """The sentence ``key`` in ``language`` (of a list of phrasings, the first)."""
        return self.phrasing(language, key, 0, **params)

    def phrasing(self, language: Language, key: str, variant: int, /, **params: Any) -> str:
        """The ``variant``-th phrasing of ``key`` (cyclic); a single sentence is every variant."""
        table = self._tables.get(language.base, {})
        phrasing = table.get(key) or self._tables.get(FALLBACK, {}).get(key)
        if phrasing is None:
            raise KeyError(f"message {key!r} is in no catalogue")
        template = phrasing if isinstance(phrasing, str) else phrasing[variant % len(phrasing)]
        text = template.format(**params)
        return swiss_spelling(text) if language is Language.DE_CH else text

    def has(self, key: str) -> bool:
        return key in self._tables.get(FALLBACK, {})

    def languages(self) -> list[str]:
        return sorted(self._tables)


def swiss_spelling(text: str) -> str:
    """Swiss Standard German writes ss for ß."""
    return text.replace("ß", "ss").replace("ẞ", "SS")
