"""Words and colours the screens share, so a verdict or a task type looks the same everywhere."""

from __future__ import annotations

from rich.text import Text

from core.api import Correctness, RatingSubtype, TaskType
from core.client.vocabulary import SUBTYPE_LABELS, type_label_source
from tui.i18n import _, number

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


def verdict_text(verdict: str, *, word: bool = True) -> Text:
    """A verdict as a coloured mark, with its name unless ``word`` is False."""
    mark = VERDICT_MARKS.get(verdict, "?")
    return Text(f"{mark} {verdict}" if word else mark, style=VERDICT_STYLES.get(verdict, ""))


def verdict_trail(verdicts: list[str]) -> Text:
    """The last verdicts of a task as a row of marks, most recent first."""
    if not verdicts:
        return Text(_("not tried yet"), style="dim")
    return Text(" ").join(verdict_text(v, word=False) for v in verdicts)


def points_text(achieved: float, achievable: float) -> str:
    return _("{achieved} / {achievable} points").format(
        achieved=number(achieved), achievable=number(achievable)
    )
