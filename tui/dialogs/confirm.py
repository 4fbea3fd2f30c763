"""A yes/no question in a modal: destructive actions ask before they act."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.i18n import _


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True when the user confirms; escape and "Cancel" dismiss with False."""

    BINDINGS: ClassVar = [
        Binding("escape", "dismiss(False)", _("Cancel")),
        Binding("y", "dismiss(True)", _("Yes"), show=False),
    ]

    def __init__(self, question: str, confirm_label: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question, self.confirm_label = question, confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="error")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm")
