"""The retest of one task as a table (issue 9): what each answer gets now against what it got.

After an edit of the task the author reads here which earlier answers would now be judged
differently and which test answers no longer get what they must; "Accept new feedback" turns the
changed verdicts into graded answers (core.workspace.retest.reassign), after a confirmation.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Static

from core.api import AnswerRetest, AnswerSource, Correctness, FeedbackSnapshot, TaskBase, TaskRetest
from core.client.i18n import N_
from tui.i18n import _, plural
from tui.labels import VERDICT_STYLES, answer_brief, verdict_text
from tui.widgets.empty import EmptyState
from tui.widgets.list_table import ListTable, cut

FAILURE_STYLE = VERDICT_STYLES[Correctness.WRONG]
COLUMNS = {
    "answer": N_("Answer"),
    "given": N_("Given"),
    "verdict": N_("Verdict"),
    "points": N_("Points"),
    "check": N_("Check"),
    "aspects": N_("Aspects"),
}
"""The retest's columns; the answer given takes what the others leave (the verdicts stay in view)."""
NOTHING_TO_RETEST = _(
    "Nothing to retest yet. Answer the task in the “Try” tab (every answer is recomputed here "
    "after an edit), or add test answers with what they must get: "
    "`feedback-studio tasks import` with a test file beside the task file."
)


class RetestPanel(Vertical):
    """Shows a TaskRetest; posts AcceptWanted when the author asks to accept the new feedback."""

    class AcceptWanted(Message):
        def __init__(self, report: TaskRetest) -> None:
            super().__init__()
            self.report = report

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: TaskRetest | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="retest-bar"):
            yield Static("", id="retest-summary")
            yield Button(
                _("Accept new feedback"), id="retest-accept", variant="warning", disabled=True, compact=True
            )
        yield ListTable(id="retest-table", flexible="given")
        yield EmptyState(NOTHING_TO_RETEST, id="retest-empty", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in COLUMNS.items():
            table.add_column(_(label), key=key)
        self.show(None)

    def show(
        self, report: TaskRetest | None, task: TaskBase | None = None, *, accepted: bool = False
    ) -> None:
        """Fill the table; None (not retested yet) shows nothing, a report without answers the hint.

        ``accepted``: the report comes right after its new feedback was accepted. The earlier
        answers keep the feedback they were given, so they still show as changed; accepting them
        again would add them twice, so Accept waits for the next retest."""
        self.report = report
        answers = report.answers if report else []
        table = self.query_one(ListTable)
        table.clear()
        for index, item in enumerate(answers):
            table.add_row(*_row(item, task), key=str(index))
        table.fit()
        table.display = bool(answers)
        self.query_one(EmptyState).display = report is not None and not answers
        self.query_one("#retest-summary", Static).update(_summary(report) if report else "")
        self.query_one("#retest-bar").display = bool(answers)
        acceptable = sum(a.changed and a.passed and a.after is not None for a in answers)
        accept = self.query_one("#retest-accept", Button)
        accept.label = (
            _("Accepted") if accepted else _("Accept new feedback ({count})").format(count=acceptable)
        )
        accept.disabled = accepted or not acceptable

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "retest-accept" and self.report is not None:
            event.stop()
            event.button.disabled = True  # until the next report: accepting twice would add twice
            self.post_message(self.AcceptWanted(self.report))


def _summary(report: TaskRetest) -> Text:
    total = len(report.answers)
    return Text.assemble(
        plural("{count} answer", "{count} answers", total).format(count=total) + " · ",
        (_("{count} changed").format(count=report.changedCount), "bold" if report.changedCount else ""),
        " · ",
        (_("{count} failed").format(count=report.failed), FAILURE_STYLE if report.failed else ""),
        _(" · against version {version}").format(version=report.version)
        if report.version is not None
        else "",
    )


def _row(item: AnswerRetest, task: TaskBase | None) -> tuple[Text, ...]:
    if item.source is AnswerSource.TEST_ANSWER:
        name = _capped(Text(_("test {label}").format(label=item.label)), 20)
    else:
        times = f" ×{item.occurrences}" if item.occurrences > 1 else ""
        name = Text(_("earlier") + times, style="dim")
    return (
        name,
        cut(_given(item.answer, task)),
        _verdicts(item),
        _points(item),
        _capped(_check(item)),
        _capped(_aspects(item)),
    )


def _capped(text: Text, width: int = 28) -> Text:
    """A long check or list of aspects is cut rather than pushing the verdicts out of view."""
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    return text


def _given(answer: dict[str, Any], task: TaskBase | None) -> str:
    """Chosen options by their text (an author remembers "Venus", not "option 1")."""
    options = [option.content for option in getattr(task, "options", None) or []]
    chosen = answer.get("selected")
    if "selectedIndex" in answer:
        chosen = [i == answer["selectedIndex"] for i in range(len(options))]
    if options and isinstance(chosen, list) and len(chosen) == len(options) and any(chosen):
        return ", ".join(option for option, on in zip(options, chosen, strict=True) if on)
    return answer_brief(answer)


def _verdicts(item: AnswerRetest) -> Text:
    """before → after; a test answer has no before, an answer that no longer fits has no after."""
    after = _verdict(item.after)
    if item.before is None:
        return after
    arrow = Text(" → ", style="bold" if item.verdictChanged else "dim")
    return Text.assemble(_verdict(item.before), arrow, after)


def _verdict(snapshot: FeedbackSnapshot | None) -> Text:
    return verdict_text(snapshot.verdict) if snapshot else Text("—", style="dim")


def _points(item: AnswerRetest) -> Text:
    if item.after is None:
        return Text("")
    now = f"{item.after.achievedPoints:g}/{item.after.achievablePoints:g}"
    if item.before is None or not item.pointsChange:
        return Text(now)
    style = VERDICT_STYLES[Correctness.CORRECT] if item.pointsChange > 0 else FAILURE_STYLE
    return Text.assemble(now, " ", (f"({item.pointsChange:+g})", style))


def _aspects(item: AnswerRetest) -> Text:
    """Gained (+) and lost (−) for an earlier answer; what was detected for a test answer."""
    if item.before is None:
        return Text(", ".join(item.after.aspects) if item.after else "", style="dim")
    parts = [Text(f"+{a}", style=VERDICT_STYLES[Correctness.CORRECT]) for a in item.aspectsGained]
    parts += [Text(f"−{a}", style=FAILURE_STYLE) for a in item.aspectsLost]
    return Text(" ").join(parts)


def _check(item: AnswerRetest) -> Text:
    if item.failures:
        return Text("; ".join(item.failures), style=FAILURE_STYLE)
    if item.error:
        return Text(_("no feedback: {error}").format(error=item.error), style=FAILURE_STYLE)
    if item.changed:
        return Text(_("changed"), style=VERDICT_STYLES[Correctness.PARTIAL])
    return Text(_("passed") if item.expected else _("unchanged"), style="dim")
