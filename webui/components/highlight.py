"""Evidence spans marked in an answer's text: HTML <mark>s at the spans' offsets, all text escaped.

The feedback engine names evidence by offset and length into the answer (API.md 2.4 context
spans). The answer is the learner's text, so every piece is escaped and only our own <mark> tags
are HTML. Spans may overlap (one phrase can show a concept and a misconception): the text is cut at
every span boundary and each piece is marked with the gravest verdict among the spans covering it,
its tooltip listing every message that points there.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from core.api import Correctness

SEVERITY = [Correctness.CORRECT, Correctness.UNKNOWN, Correctness.PARTIAL, Correctness.WRONG]


@dataclass(frozen=True)
class Span:
    offset: int
    length: int
    verdict: Correctness
    note: str = ""


def highlight_html(text: str, spans: Iterable[Span]) -> str:
    """The escaped text with each evidence span wrapped in <mark class="fs-mark fs-{verdict}">."""
    usable = [s for s in spans if s.length > 0 and 0 <= s.offset < len(text)]
    cuts = sorted(
        {0, len(text)} | {s.offset for s in usable} | {min(s.offset + s.length, len(text)) for s in usable}
    )
    pieces = []
    for start, end in itertools.pairwise(cuts):
        chunk = html.escape(text[start:end])
        covering = [s for s in usable if s.offset <= start and end <= s.offset + s.length]
        if not covering:
            pieces.append(chunk)
            continue
        verdict = max((s.verdict for s in covering), key=SEVERITY.index)
        notes = html.escape(" · ".join(dict.fromkeys(s.note for s in covering if s.note)), quote=True)
        title = f' title="{notes}"' if notes else ""
        pieces.append(f'<mark class="fs-mark fs-{verdict.value.lower()}"{title}>{chunk}</mark>')
    return "".join(pieces)
