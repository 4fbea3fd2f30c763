"""The interactions of a task, newest first, with their verdicts; selecting one opens its feedback."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable

from core.api import InteractionRecord
from core.workspace.table import answer_summary
from tui.labels import verdict_text
from tui.widgets.empty import EmptyState
from tui.widgets.feedback.rating import rating_summary


class HistoryPanel(Vertical):
    class Opened(Message):
        def __init__(self, record: InteractionRecord) -> None:
            super().__init__()
            self.record = record

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.records: dict[str, InteractionRecord] = {}

    def compose(self) -> ComposeResult:
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield EmptyState(
            "No answers yet. Try one in the “Try” tab; every feedback is kept here.", id="history-empty"
        )

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("When (UTC)", "User", "Verdict", "Points", "Answer", "Rating")
        self.show([])

    def show(self, records: list[InteractionRecord]) -> None:
        self.records = {r.interactionId: r for r in records}
        table = self.query_one(DataTable)
        table.clear()
        for record in sorted(records, key=lambda r: r.createdAt, reverse=True):
            points = record.feedback.result.points
            table.add_row(
                record.createdAt.strftime("%Y-%m-%d %H:%M:%S"),
                record.userId,
                verdict_text(record.verdict),
                f"{points.achievedPoints:g}/{points.achievablePoints:g}",
                Text(answer_summary(record.answer)[:60]),
                rating_summary(record.rating) if record.rating else "",
                key=record.interactionId,
            )
        table.display = bool(records)
        self.query_one(EmptyState).display = not records

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(self.Opened(self.records[event.row_key.value]))
