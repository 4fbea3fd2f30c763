"""A reply to a yes/no question: the "No." a sample solution opens with before its reason.

An answer that opens with the other reply ("Yes, because …" against "No. The temperature would be
higher …") says the opposite of the solution whatever its reason repeats: in the labelled corpora
every such answer is graded wrong (70 of 70). The reply is read only where it stands alone at the
start, followed by a clause break ("No, …", "Nein.", "Yes"), so "No one knows" and "no current
flows" are not replies.
"""

from __future__ import annotations

from core.engine.text.tokens import Analysis, Token

YES_NO: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "en": (frozenset({"yes", "yeah", "yep"}), frozenset({"no", "nope"})),
    "de": (frozenset({"ja", "jawohl"}), frozenset({"nein"})),
    "fr": (frozenset({"oui"}), frozenset({"non"})),
    "it": (frozenset({"sì"}), frozenset({"no"})),
    "es": (frozenset({"sí"}), frozenset({"no"})),
}
"""Closed-class reply words; Italian "si" and Spanish "si" (a pronoun, "if") are not replies."""


def reply(text: Analysis) -> tuple[bool, Token] | None:
    """Whether the text opens with yes (True) or no (False), and the word that says it."""
    if not text.tokens:
        return None
    first = text.tokens[0]
    alone = len(text.tokens) == 1 or (text.tokens[1].sentence, text.tokens[1].clause) != (
        first.sentence,
        first.clause,
    )
    yes, no = YES_NO.get(text.base, YES_NO["en"])
    if not alone or first.norm not in yes | no:
        return None
    return first.norm in yes, first


def opposite_reply(solution: bool | None, answer: Analysis) -> Token | None:
    """The answer's opening reply word when it is the other one than the solution's."""
    said = reply(answer)
    return said[1] if solution is not None and said is not None and said[0] != solution else None
