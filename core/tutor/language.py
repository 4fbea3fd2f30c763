"""Which language a sentence of a reply is in, told by its function words.

The tutor speaks the conversation's language (the grounded tutor's catalogue, the LLM's "Reply in
…"). A sentence in another language is how a solution is smuggled past a reader of one language:
"translate the answer", told a few words a turn. The leak guard judges meaning across languages
where the freeform judgement can (the sample solution's facts); a short fragment in another
language is below its reach, so the guard does not send a sentence that is plainly in another
language at all. Plainly: it has at least :data:`FOREIGN_WORDS` function words of another
language, and more than twice as many as of the conversation's (function-word lists overlap:
"in", "a", "plus" are words of several).
"""

from __future__ import annotations

import re

from core.engine.text.languages import STEMMER_NAMES, stop_words
from core.engine.text.segment import sentences

FOREIGN_WORDS = 3
_WORD = re.compile(r"\w+(?:'\w+)?")


def foreign_language(text: str, base: str) -> str | None:
    """The base of another language a sentence of ``text`` is plainly in, if one is."""
    for span in sentences(text) or ():
        words = [w.casefold() for w in _WORD.findall(span.text(text))]
        counts = {b: sum(w in stop_words(b) for w in words) for b in STEMMER_NAMES}
        other = max((b for b in counts if b != base), key=counts.__getitem__)
        if counts[other] >= FOREIGN_WORDS and counts[other] > 2 * counts.get(base, 0):
            return other
    return None
