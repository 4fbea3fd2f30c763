"""The Test answers tab of a task: every answer the retest checks, with the verdict it must get,
to edit (label, answer, verdict) or delete.

The panel loads itself when its tab opens (``load``), since a gold answer may have been kept in
the Try tab or from the history meanwhile. Enter (or "Edit") opens the selected answer in
TaskTestAnswerScreen; "Delete" asks first.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable

from core.api import TestAnswer
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.task_test_answer import TaskTestAnswerScreen
from tui.i18n import _
from tui.labels import answer_brief, verdict_text
from tui.service_calls import service_call, studio
from tui.widgets.empty import EmptyState
from tui.widgets.list_table import ListTable, cut

NO_TEST_ANSWERS = _(
    "No test answers yet. Keep an answer as a test answer from Try or History: under its feedback, "
    "choose what it should be and press “Keep as test answer”. Every retest then checks it."
)


def expectation_text(test: TestAnswer) -> Text:
    """The verdict the answer must get, and the aspects it must (+) or must not (−) show."""
    verdict = test.expected.verdict
    parts = [verdict_text(verdict) if verdict else Text(_("any verdict"), style="dim")]
    parts += [Text(f"+{name}", style="dim") for name in test.expected.present]
    parts += [Text(f"−{name}", style="dim") for name in test.expected.absent]
    return Text(" ").join(parts)


class TaskTestAnswersPanel(Vertical):
    DEFAULT_CSS = """
    TaskTestAnswersPanel { height: 1fr; }
    #test-answers-bar { height: auto; margin-top: 1; }
    #test-answers-bar Button { margin-right: 2; }
    """
    BINDINGS: ClassVar = [Binding("delete", "delete", _("Delete"))]

    def __init__(self, task_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task_id = task_id
        self.answers: list[TestAnswer] = []

    def compose(self) -> ComposeResult:
        yield ListTable(id="test-answers-table", flexible="answer")
        with Horizontal(id="test-answers-bar"):
            yield Button(_("Edit"), id="test-answer-edit", compact=True)
            yield Button(_("Delete"), id="test-answer-delete", compact=True, variant="error")
        yield EmptyState(NO_TEST_ANSWERS, id="test-answers-empty")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in (("label", _("Label")), ("answer", _("Answer")), ("expected", _("Must get"))):
            table.add_column(label, key=key)
        self.show([])

    @work(exclusive=True, group="test-answers")
    async def load(self) -> None:
        async with service_call(self, _("Loading the test answers"), busy=self):
            service = await studio(self).ready()
            self.show((await service.list_test_answers(studio(self).tenant_id, self.task_id)).answers)

    def show(self, answers: list[TestAnswer]) -> None:
        self.answers = answers
        table = self.query_one(ListTable)
        table.clear()
        for test in answers:
            table.add_row(
                Text(test.label),
                cut(answer_brief(test.answer)),
                expectation_text(test),
                key=test.label,
            )
        table.fit()
        for selector in ("#test-answers-table", "#test-answers-bar"):
            self.query_one(selector).display = bool(answers)
        self.query_one(EmptyState).display = not answers

    def selected(self) -> TestAnswer | None:
        table = self.query_one(DataTable)
        if not self.answers or table.cursor_row >= len(self.answers):
            return None
        return self.answers[table.cursor_row]

    @on(DataTable.RowSelected, "#test-answers-table")
    @on(Button.Pressed, "#test-answer-edit")
    def action_edit(self) -> None:
        if test := self.selected():

            def reload(saved: bool | None) -> None:
                if saved:
                    self.load()

            self.app.push_screen(TaskTestAnswerScreen(self.task_id, test), reload)

    @on(Button.Pressed, "#test-answer-delete")
    def action_delete(self) -> None:
        if test := self.selected():
            question = _("Delete the test answer “{label}”? Retests no longer check it.").format(
                label=test.label
            )

            def delete(yes: bool | None) -> None:
                if yes:
                    self.delete(test.label)

            self.app.push_screen(ConfirmScreen(question, _("Delete")), delete)

    @work(exclusive=True, group="test-answers")
    async def delete(self, label: str) -> None:
        async with service_call(self, _("Deleting the test answer"), busy=self):
            service = await studio(self).ready()
            remaining = await service.delete_test_answer(studio(self).tenant_id, self.task_id, label)
            self.show(remaining.answers)
            self.notify(_("Test answer “{label}” deleted.").format(label=label))
