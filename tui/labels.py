"""Words and colours the screens share, so a verdict or a task type looks the same everywhere."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.api import AspectType, Correctness, Language, RatingSubtype, TaskType
from core.client.vocabulary import (
    ASPECT_TYPE_LABELS,
    CHOICE_LABELS,
    SUBTYPE_LABELS,
    language_name,
    service_word_source,
    type_label_source,
    verdict_label_source,
)
from core.workspace.table import answer_summary
from tui import i18n
from tui.i18n import _, number, plural

VERDICT_STYLES: dict[str, str] = {
    Correctness.CORRECT: "bold #2fbf71",
    Correctness.PARTIAL: "bold #e0b43a",
    Correctness.WRONG: "bold #e5534b",
    Correctness.UNKNOWN: "bold #8b949e",
}
"""Rich styles of the four verdicts; app.tcss uses the same colours for the verdict banners."""

VERDICT_MARKS: dict[str, str] = {
    Correctness.CORRECT: "✔",
    Correctness.PARTIAL: "◐",
    Correctness.WRONG: "✘",
    Correctness.UNKNOWN: "?",
}


def type_label(task_type: str | TaskType) -> str:
    """The author-facing name of a task type given in any of its API spellings (core.client.vocabulary)."""
    return _(type_label_source(task_type))


def subtype_label(subtype: RatingSubtype) -> str:
    """A rating reason in the app's language ("Too strict")."""
    return _(SUBTYPE_LABELS[subtype])


def verdict_word(verdict: str) -> str:
    """A verdict's name in the app's language ("RICHTIG")."""
    return _(verdict_label_source(verdict))


def aspect_type_word(aspect_type: AspectType) -> str:
    """An aspect's kind in the app's language ("Fehlvorstellung")."""
    return _(ASPECT_TYPE_LABELS[aspect_type])


def answer_brief(answer: dict[str, Any]) -> str:
    """An answer in a few words, whatever its task type, in the app's language ("Option 2",
    "Optionen 1, 3"; options counted from 1, as the learner sees them)."""
    if "content" in answer:
        return str(answer["content"])
    if "selectedIndex" in answer:
        return _("option {number}").format(number=int(answer["selectedIndex"]) + 1)
    if "selected" in answer:
        chosen = [str(i + 1) for i, yes in enumerate(answer["selected"]) if yes]
        return _("options {numbers}").format(numbers=", ".join(chosen)) if chosen else _("no option chosen")
    if answer.get("messages"):
        count = len(answer["messages"])
        return plural("{count} message", "{count} messages", count).format(count=count)
    if "conversationId" in answer and not any(k in answer for k in ("blanks", "choices")):
        return _("conversation {id}").format(id=answer["conversationId"])
    return answer_summary(answer)


def service_word(value: str) -> str:
    """A word a service reports (its mode, the local principal, a permission) in the app's language."""
    return _(service_word_source(value))


def choice_word(value: str) -> str:
    """A fixed choice of the editor in the app's language: an aspect's kind, a matching mode, a
    task language ("Deutsch (Schweiz)"); any other value as it is."""
    if value in CHOICE_LABELS:
        return _(CHOICE_LABELS[value])
    if value in Language.__members__:
        return language_name(value, i18n.LANGUAGE)
    return value


def verdict_text(verdict: str, *, word: bool = True) -> Text:
    """A verdict as a coloured mark, with its name unless ``word`` is False."""
    mark = VERDICT_MARKS.get(verdict, "?")
    return Text(f"{mark} {verdict_word(verdict)}" if word else mark, style=VERDICT_STYLES.get(verdict, ""))


def verdict_trail(verdicts: list[str]) -> Text:
    """The last verdicts of a task as a row of marks, most recent first."""
    if not verdicts:
        return Text(_("not tried yet"), style="dim")
    return Text(" ").join(verdict_text(v, word=False) for v in verdicts)


def points_text(achieved: float, achievable: float) -> str:
    return _("{achieved} / {achievable} points").format(
        achieved=number(achieved), achievable=number(achievable)
    )
