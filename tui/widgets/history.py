"""The interactions of a task, newest first, with their verdicts; selecting one opens its feedback.

A filter bar narrows them by learner, verdict and days (core.client.history, as in the web app),
and "Export CSV" writes what is shown to the user's downloads folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from platformdirs import user_downloads_path
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Select

from core.api import Correctness, InteractionRecord
from core.client.history import HistoryFilter, csv_bytes, day_of
from tui.i18n import _, date_time, number, plural
from tui.labels import answer_brief, verdict_text, verdict_word
from tui.widgets.empty import EmptyState
from tui.widgets.feedback.rating import rating_summary
from tui.widgets.list_table import ListTable, cut

NO_ANSWERS = _("No answers yet. Try one in the “Try” tab; every feedback is kept here.")
NO_MATCH = _("No answer matches the filters: clear one to see more.")


class HistoryPanel(Vertical):
    class Opened(Message):
        def __init__(self, record: InteractionRecord) -> None:
            super().__init__()
            self.record = record

    def __init__(self, task_id: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task_id = task_id
        self.all_records: list[InteractionRecord] = []
        self.records: dict[str, InteractionRecord] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="history-filters"):
            yield Input(placeholder=_("Learner"), id="history-user", compact=True)
            yield Select(
                [
                    (verdict_word(v), v.value)
                    for v in (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)
                ],
                prompt=_("Any verdict"),
                id="history-verdict",
                compact=True,
            )
            yield Input(placeholder=_("From YYYY-MM-DD"), id="history-since", compact=True)
            yield Input(placeholder=_("To YYYY-MM-DD"), id="history-until", compact=True)
            yield Button(_("Export CSV"), id="history-export", compact=True)
        yield ListTable(id="history-table", flexible="answer")
        yield EmptyState(NO_ANSWERS, id="history-empty")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in (
            ("when", _("When (UTC)")),
            ("user", _("User")),
            ("verdict", _("Verdict")),
            ("teacher", _("Teacher")),
            ("points", _("Points")),
            ("answer", _("Answer")),
            ("rating", _("Rating")),
        ):
            table.add_column(label, key=key)
        self.show([])

    def show(self, records: list[InteractionRecord]) -> None:
        self.all_records = records
        self._show_matching()

    def current_filter(self) -> HistoryFilter:
        """The filter the bar describes; a day that is not a date yet (while typing) is ignored."""
        verdict = self.query_one("#history-verdict", Select).value
        return HistoryFilter(
            user=self.query_one("#history-user", Input).value.strip(),
            verdicts=frozenset({Correctness(verdict)}) if isinstance(verdict, str) else frozenset(),
            since=day_of(self.query_one("#history-since", Input).value),
            until=day_of(self.query_one("#history-until", Input).value),
        )

    @on(Input.Changed)
    @on(Select.Changed)
    def _filter_changed(self) -> None:
        self._show_matching()

    @on(Button.Pressed, "#history-export")
    def export(self) -> None:
        shown = self.current_filter().apply(self.all_records)
        folder = user_downloads_path()
        path = _free_path(folder / f"{self.task_id or 'task'}-history.csv")
        try:
            path.write_bytes(csv_bytes(shown))
        except OSError as exc:
            self.notify(
                _("Could not write {path}: {reason}").format(path=path, reason=exc.strerror),
                title=_("Not exported"),
                severity="error",
            )
            return
        self.notify(
            plural(
                "{count} answer written to {path}", "{count} answers written to {path}", len(shown)
            ).format(count=len(shown), path=path),
            title=_("History exported"),
        )

    def _show_matching(self) -> None:
        records = self.current_filter().apply(self.all_records)
        self.records = {r.interactionId: r for r in records}
        table = self.query_one(ListTable)
        table.clear()
        for record in sorted(records, key=lambda r: r.createdAt, reverse=True):
            points = record.feedback.result.points
            table.add_row(
                date_time(record.createdAt),
                record.userId,
                verdict_text(record.verdict),
                verdict_text(record.override.verdict) if record.override else "",
                f"{number(points.achievedPoints)}/{number(points.achievablePoints)}",
                cut(answer_brief(record.answer)),
                rating_summary(record.rating) if record.rating else "",
                key=record.interactionId,
            )
        table.fit()
        table.display = bool(records)
        empty = self.query_one(EmptyState)
        empty.display = not records
        empty.update(NO_MATCH if self.all_records else NO_ANSWERS)
        self.query_one("#history-filters").display = bool(self.all_records)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:  # every row is added with its interaction's id
            self.post_message(self.Opened(self.records[event.row_key.value]))


def _free_path(path: Path) -> Path:
    """The path, or the same name with (2), (3) … when a file of that name exists already."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem} ({number}){path.suffix}")
    return candidate
