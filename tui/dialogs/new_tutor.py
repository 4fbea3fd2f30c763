"""Create a tutor grounded in a task (ctrl+t on a task that has none): its id, name and greeting,
saved through the Service's tutor upsert (an authoring extension)."""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from core.api import TutorUpsert
from tui.i18n import _


def free_tutor_id(task_id: str, taken: Collection[str]) -> str:
    """``tutor-{task}``, else ``tutor-{task}-2`` …: the first id no tutor of the tenant has."""
    candidate, n = f"tutor-{task_id}", 1
    while candidate in taken:
        n += 1
        candidate = f"tutor-{task_id}-{n}"
    return candidate


class NewTutorScreen(ModalScreen[tuple[str, TutorUpsert] | None]):
    """Dismisses with (tutor id, the tutor to PUT) or None."""

    BINDINGS: ClassVar = [Binding("escape", "dismiss(None)", _("Cancel"))]

    def __init__(self, task_id: str, title: str, taken: Collection[str]) -> None:
        super().__init__(classes="dialog-screen")
        self.task_id, self.title, self.taken = task_id, title, frozenset(taken)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                _("No tutor is grounded in “{title}” yet. Create one for this task?").format(
                    title=self.title
                ),
                classes="dialog-question",
                markup=False,
            )
            yield Label(_("Tutor id"), classes="field-label")
            yield Input(free_tutor_id(self.task_id, self.taken), id="tutor-new-id")
            yield Label(_("Name"), classes="field-label")
            yield Input(_("Tutor: {title}").format(title=self.title), id="tutor-new-name")
            yield Label(_("Greeting"), classes="field-label")
            yield Input(
                _("Hello! Let us work on “{title}” together. What have you tried so far?").format(
                    title=self.title
                ),
                id="tutor-new-greeting",
            )
            yield Label("", id="tutor-new-problem", classes="field-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(_("Create tutor"), id="create", variant="primary")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#create", Button))

    @on(Input.Submitted)
    @on(Button.Pressed, "#create")
    def _create(self) -> None:
        tutor_id = self.query_one("#tutor-new-id", Input).value.strip()
        name = self.query_one("#tutor-new-name", Input).value.strip()
        greeting = self.query_one("#tutor-new-greeting", Input).value.strip()
        problem = self.query_one("#tutor-new-problem", Label)
        if not tutor_id or not name:
            problem.update(_("A tutor needs an id and a name."))
            problem.display = True
            return
        if tutor_id in self.taken:
            problem.update(_("A tutor with id {id!r} exists already: choose another id.").format(id=tutor_id))
            problem.display = True
            return
        upsert = TutorUpsert(name=name, initial_messages=[greeting] if greeting else [], taskId=self.task_id)
        self.dismiss((tutor_id, upsert))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)
