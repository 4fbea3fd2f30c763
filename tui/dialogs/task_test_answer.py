"""One test answer to edit: its label, the answer (a free-text answer as its text, any other as
JSON) and the verdict it must get. Saving stays on the screen when the service refuses (an answer
that does not fit the task, a label another answer has), so nothing typed is lost."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, TextArea

from core.api import Correctness, TestAnswer
from core.client.history import answer_text
from core.client.task_test_answers import answer_from_text, edit_test_answer
from core.client.vocabulary import VERDICTS
from tui.i18n import _
from tui.labels import verdict_word
from tui.service_calls import service_call, studio


class TaskTestAnswerScreen(ModalScreen[bool]):
    """Dismisses with True once the edit is saved, False when cancelled."""

    DEFAULT_CSS = """
    #test-answer-text { height: 8; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "dismiss(False)", _("Cancel")),
        Binding("ctrl+s", "save", _("Save")),
    ]

    def __init__(self, task_id: str, test: TestAnswer) -> None:
        super().__init__(classes="dialog-screen")
        self.task_id, self.test = task_id, test

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog"):
            yield Label(_("Test answer"), classes="screen-title")
            yield Label(_("Label"))
            yield Input(self.test.label, id="test-answer-label")
            yield Label(_("Answer"))
            yield TextArea(answer_text(self.test.answer), id="test-answer-text", soft_wrap=True)
            yield Label(_("It must get"))
            yield Select(
                [(verdict_word(v), v) for v in VERDICTS],
                value=self.test.expected.verdict or Select.NULL,
                prompt=_("Any verdict"),
                id="test-answer-verdict",
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(_("Save  ctrl+s"), id="save", variant="primary")

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#save")
    def _save_pressed(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        verdict = self.query_one("#test-answer-verdict", Select).value
        self.save(
            self.query_one("#test-answer-label", Input).value,
            self.query_one("#test-answer-text", TextArea).text,
            verdict if isinstance(verdict, Correctness) else None,
        )

    @work(exclusive=True, group="test-answer")
    async def save(self, label: str, text: str, verdict: Correctness | None) -> None:
        async with service_call(self, _("Saving the test answer"), busy=self.query_one("#save")):
            app = studio(self)
            await edit_test_answer(
                await app.ready(),
                app.tenant_id,
                self.task_id,
                self.test.label,
                new_label=label,
                answer=answer_from_text(self.test.answer, text),
                verdict=verdict,
            )
            self.dismiss(True)
