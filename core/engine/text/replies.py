"""The reply a text opens with: "No." to a yes/no question, "B." to a question that asks which.

A sample solution often opens with it before its reason ("No. The temperature would be higher …",
"A. The water in heater A got hotter faster …"). An answer that opens with another reply says the
opposite of the solution whatever its reason repeats: in the labelled corpora every such answer is
graded wrong (70 of 70 yes/no, 20 of 20 letters). A yes or no is read only where it stands alone at
the start, followed by a clause break ("No, …", "Nein.", "Yes"), so "No one knows" and "no current
flows" are not replies; a letter only where punctuation follows it ("B.", "Y,", "C)").
"""

from __future__ import annotations

from typing import NamedTuple

from core.engine.text.tokens import Analysis, Token

YES_NO: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "en": (frozenset({"yes", "yeah", "yep"}), frozenset({"no", "nope"})),
    "de": (frozenset({"ja", "jawohl"}), frozenset({"nein"})),
    "fr": (frozenset({"oui"}), frozenset({"non"})),
    "it": (frozenset({"sì"}), frozenset({"no"})),
    "es": (frozenset({"sí"}), frozenset({"no"})),
}
"""Closed-class reply words; Italian "si" and Spanish "si" (a pronoun, "if") are not replies."""
LETTER_END = ".,:)"


class Reply(NamedTuple):
    said: str
    """"yes", "no", or the letter chosen ("b")."""
    token: Token

    @property
    def choice(self) -> bool:
        return self.said not in ("yes", "no")


def reply(text: Analysis) -> Reply | None:
    """The reply the text opens with, if it opens with one."""
    if not text.tokens:
        return None
    first = text.tokens[0]
    if len(first.norm) == 1 and first.norm.isalpha():
        follows = text.text[first.end : first.end + 1]
        return Reply(first.norm, first) if follows and follows in LETTER_END else None
    alone = len(text.tokens) == 1 or (text.tokens[1].sentence, text.tokens[1].clause) != (
        first.sentence,
        first.clause,
    )
    yes, no = YES_NO.get(text.base, YES_NO["en"])
    if alone and first.norm in yes:
        return Reply("yes", first)
    if alone and first.norm in no:
        return Reply("no", first)
    return None


def other_reply(solution: str | None, answer: Analysis) -> Token | None:
    """The answer's opening reply when it is another of the same kind than the solution's ("Yes"
    for "No", "B" for "A"): the word the feedback points at."""
    said = reply(answer)
    if solution is None or said is None or said.said == solution:
        return None
    same_kind = said.choice == (solution not in ("yes", "no"))
    return said.token if same_kind else None
