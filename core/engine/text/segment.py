"""Sentences and clauses of a text as character ranges of the original text.

A small regex segmenter rather than pysbd: the spans must sit exactly on the learner's text, and a
regex gives offsets by construction, costs microseconds (answers are judged in milliseconds) and
never reorders or cleans the text. A missed abbreviation only splits a sentence in two, which at
worst narrows the scope of a negation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SENTENCE_END = re.compile(
    r"""(?:
        (?<![A-Za-z]\.[A-Za-z])(?<!\b[A-Za-z])   # not after 'e.g' or a single initial
        (?<!^\d)(?<!^\d\d)                       # nor after a list item's number ('1. We can …')
        [.!?…]+["')\]»]*(?=\s+|$)                # end punctuation before a space
      | \n\s*                                    # a line break ends lists and bullets
      | ;\s                                      # semicolons separate statements
    )""",
    re.VERBOSE | re.MULTILINE,
)
_CLAUSE_BREAK = re.compile(r"[,:;()\[\]–—]|\s-\s|\n")
WRAP_WIDTH = 50
"""A line this long that ends without punctuation and goes on in lowercase was wrapped, not ended:
text pasted from a PDF or an e-mail breaks its sentences at the page's width ("… act according to
their flow\ntables and …"). A list's items are shorter, or start with a bullet or a capital."""


def _wrapped(text: str, at: int, end: int) -> bool:
    """The line break at ``at`` (its whitespace running to ``end``) only wraps a sentence."""
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:at].rstrip()
    return (
        len(line) >= WRAP_WIDTH
        and line[-1] not in ".!?…:;"
        and end < len(text)
        and (text[end].islower() or text[end] == "(")
    )


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int

    def text(self, source: str) -> str:
        return source[self.start : self.end]


def _trimmed(text: str, start: int, end: int) -> Span | None:
    while start < end and (text[start].isspace() or text[start] in "-*•·●○▪"):
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end) if end > start else None


def sentences(text: str) -> list[Span]:
    spans: list[Span] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if text[match.start()] == "\n" and _wrapped(text, match.start(), match.end()):
            continue
        span = _trimmed(text, start, match.end())
        if span is not None:
            spans.append(span)
        start = match.end()
    span = _trimmed(text, start, len(text))
    if span is not None:
        spans.append(span)
    return spans


def clause_breaks(text: str) -> list[int]:
    """Offsets where punctuation opens a new clause (connective words are found by the tokenizer);
    a line break that only wraps a sentence opens none."""
    return [
        match.start()
        for match in _CLAUSE_BREAK.finditer(text)
        if match.group() != "\n" or not _wrapped(text, match.start(), match.end())
    ]
