"""One stored interaction opened from the history: its feedback as it was given, its rating, and
the teacher's verdict beside the engine's."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from core.api import InteractionRecord, TaskBase
from tui.i18n import _, date_time
from tui.widgets.feedback.override import OverrideBar
from tui.widgets.feedback.view import FeedbackView
from tui.widgets.footer import KeysFooter


class InteractionScreen(ModalScreen[None]):
    BINDINGS: ClassVar = [Binding("escape", "dismiss", _("Close"))]

    def __init__(self, record: InteractionRecord, task: TaskBase | None) -> None:
        super().__init__(classes="dialog-screen")
        self.record, self.definition = record, task

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide-dialog"):
            yield Static(
                _("Answer of {learner} · {time} · task version {version}").format(
                    learner=self.record.userId,
                    time=date_time(self.record.createdAt),
                    version=self.record.taskVersion,
                ),
                classes="screen-title",
            )
            yield OverrideBar(self.record)
            yield FeedbackView(self.record.feedback, self.definition, rating=self.record.rating)
        yield KeysFooter()
