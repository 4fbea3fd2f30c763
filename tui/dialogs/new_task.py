"""Pick the type of a new task; the editor then opens on a small valid example of that type."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.api import TaskType
from tui.i18n import _
from tui.labels import type_label

TYPE_HINTS: dict[TaskType, str] = {
    TaskType.FREEFORM_TEXT: _("a written answer judged by aspects and sample solutions"),
    TaskType.IN_TEXT_FILL_IN_BLANKS: _("gaps {{1}} … in a text, each with accepted answers"),
    TaskType.IN_TEXT_CHOICES: _("choice points {{1}} … in a text, one option correct"),
    TaskType.MULTIPLE_CHOICE: _("options, exactly one correct"),
    TaskType.MULTIPLE_RESPONSES: _("options, any number correct"),
    TaskType.SIMULATION: _("a role-play with a persona, judged on the conversation"),
}


class NewTaskScreen(ModalScreen[TaskType | None]):
    BINDINGS: ClassVar = [Binding("escape", "dismiss(None)", _("Cancel"))]

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("What kind of task?"), classes="dialog-question")
            yield OptionList(
                *(Option(f"{type_label(t)}  [dim]{TYPE_HINTS[t]}[/]", id=t.value) for t in TaskType),
                id="task-types",
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:  # every option has its task type's value as its id
            self.dismiss(TaskType(event.option.id))
