"""The facts of a sample solution: the units an answer is expected to state.

Authors write a sample solution as prose, as a list ("● configuration of forwarding tables"), or
with the points of each part ("… zu erkennen geben (0.25 P) und …"). A fact is a piece that
carries points, else a sentence or list item (a line; a heading line ending in ':' is none). Text around the marked pieces (an author's
remark such as "Zentrale Frage ist dabei …") is not a fact when some pieces carry points.
Point markers are taken out of the text that answers are compared with.
"""

from __future__ import annotations

import re

from core.engine.text.segment import sentences

POINT_MARK = re.compile(
    r"\(\s*\d+(?:[.,]\d+)?\s*(?:p|pkt|pt|pts|punkte?|points?|punti|pti)\.?\s*\)", re.IGNORECASE
)
"""'(0.25 P)', '(1 point)', '(0,5 Punkte)', '(2 pts)', '(1 punto)'."""
LIST_NUMBER = re.compile(r"^(?:\d{1,2}|[a-z])[.)]\s+")
"""A list item's number or letter ('1. ', '2) ', 'b) '): not a value the fact names."""
MAX_FACTS = 24
"""A longer solution is read as its first 24 facts: judging stays a few milliseconds."""


def without_point_marks(text: str) -> str:
    return " ".join(POINT_MARK.sub(" ", text).split())


def split_facts(solution: str) -> list[str]:
    if POINT_MARK.search(solution):
        facts = [_last_sentence(piece) for piece in POINT_MARK.split(solution)[:-1]]
    else:
        facts = [s.text(solution) for s in sentences(solution) if not s.text(solution).endswith(":")]
    cleaned = [LIST_NUMBER.sub("", " ".join(f.split())).strip(" ,;.") for f in facts]
    return [f for f in cleaned if any(ch.isalnum() for ch in f)][:MAX_FACTS] or (
        [without_point_marks(solution)] if solution.strip() else []
    )


def _last_sentence(piece: str) -> str:
    """The part of the text before a point marker that the points belong to: its sentence."""
    spans = sentences(piece)
    return spans[-1].text(piece) if spans else ""
