"""The task editor: the common fields, the form of the task's type, a learner's-eye preview of
gaps and choice points, and inline validation on every change; ctrl+s saves (upsert)."""

from __future__ import annotations

from collections.abc import Collection
from copy import deepcopy
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Header, Input, Select, Static, TextArea

from core.api import InTextChoicesTask, InTextFillInBlanksTask, TaskBase, TaskDefinition, VersionConflict
from core.client.authoring import save_and_check
from core.client.validation import field_path, validate
from tui import i18n
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _
from tui.labels import type_label
from tui.service_calls import service_call, studio
from tui.widgets.editor.fields import FieldSet, Problems, RowList
from tui.widgets.editor.forms import COMMON, type_parts
from tui.widgets.footer import KeysFooter
from tui.widgets.statement import choice_gap, learner_view, numbered_gap


class EditorScreen(Screen[str | None]):
    """Dismisses with the saved task's id, or None when the author leaves without saving."""

    BINDINGS: ClassVar = [Binding("ctrl+s", "save", _("Save")), Binding("escape", "leave", _("Back"))]

    class Saved(Message):
        def __init__(self, task_id: str) -> None:
            super().__init__()
            self.task_id = task_id

    def __init__(self, task: TaskBase, *, version: int | None, taken: Collection[str] = ()) -> None:
        """``version``: the stored version being edited (0 for a new task, None where the service
        keeps no versions); the save is refused if another save came in between. ``taken``: the
        ids of the library, which a new or renamed task is warned off before it saves."""
        super().__init__()
        self.draft = task
        self.taken = frozenset(taken)
        self.version = version
        self.is_new = version == 0
        self.original = task.to_wire()
        self.common = FieldSet(COMMON, self.original, id="common")
        self.parts = type_parts(task.task_type, self.original)
        self._check_pending = False
        self.connection = 0
        """The connection the task was opened on: a save never lands on another service."""

    def compose(self) -> ComposeResult:
        heading = (
            _("New task: {type}").format(type=type_label(self.draft.type))
            if self.is_new
            else _("Editing {id}").format(id=self.draft.id)
        )
        yield Header()
        with VerticalScroll(id="editor"):
            yield Static(heading, classes="screen-title")
            yield self.common
            if isinstance(self.draft, InTextFillInBlanksTask | InTextChoicesTask):
                yield Static(_("As the learner sees it"), classes="section-title")
                yield Static(id="preview")
            yield from self.parts
            yield Problems(id="task-problems")
            with Horizontal(classes="toolbar"):
                yield Button(_("Save"), id="save", variant="primary")
                yield Button(_("Cancel"), id="cancel")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.connection = studio(self).connections
        self.check()
        self.set_focus(self.common.query_one(Input))

    @property
    def unsaved(self) -> bool:
        """Whether the form differs from the task as opened (an invalid form is a change too)."""
        task, _problems = validate(self.document(), i18n.LANGUAGE)
        return task is None or task.to_wire() != self.original

    def document(self) -> dict[str, Any]:
        """The task as the form stands: the original with every part's edits applied."""
        document = deepcopy(self.original)
        for part in (self.common, *self.parts):
            part.apply(document)
        return document

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    @on(RowList.Changed)
    def _changed(self) -> None:
        """Coalesce a burst of changes (the inputs' first values at mount, fast typing) into one check."""
        if not self._check_pending:
            self._check_pending = True
            self.call_later(self.check)

    def check(self) -> TaskDefinition | None:
        """Validate the whole document and show each problem at its field; returns the valid task."""
        self._check_pending = False
        document = self.document()
        task, problems = validate(document, i18n.LANGUAGE)
        shown = self.common.show_errors(problems)
        for part in self.parts:
            shown |= part.show_errors(problems)
        rest = [
            msg if not loc else f"{field_path(loc)}: {msg}"
            for loc, msg in problems.items()
            if loc not in shown
        ]
        if document.get("id") != self.draft.id or self.is_new:
            if document.get("id") in self.taken:
                rest.append(
                    _("A task with id {id!r} exists already: choose another id.").format(id=document["id"])
                )
            elif not self.is_new:
                rest.append(
                    _("Saving creates a new task {id!r}; {old!r} stays as it is.").format(
                        id=document.get("id"), old=self.draft.id
                    )
                )
        self.query_one("#task-problems", Problems).show("\n".join(f"⚠ {line}" for line in rest))
        self.query_one("#save", Button).disabled = task is None
        self._preview(document)
        return task

    def _preview(self, document: dict[str, Any]) -> None:
        if not self.query("#preview"):
            return
        statement = document.get("problemStatement", "")
        if isinstance(self.draft, InTextChoicesTask):
            options = {
                i: c.get("options") or ["?"] for i, c in enumerate(document.get("choices", []), start=1)
            }
            view = learner_view(statement, choice_gap(options))
        else:
            view = learner_view(statement, numbered_gap)
        self.query_one("#preview", Static).update(view)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "cancel":
            self.action_leave()

    def action_save(self) -> None:
        if studio(self).connections != self.connection:
            self.notify(
                _("This task was opened on another service; it is not saved to this one."),
                title=_("Not saved"),
                severity="error",
            )
            return
        task = self.check()
        if task is None:
            self.notify(_("Fix the marked fields first."), title=_("Not saved"), severity="warning")
            return
        self.save(task)

    def expected_version(self, task: TaskBase) -> int | None:
        """What the save must find stored: a renamed task is a new one, never an overwrite."""
        return 0 if task.id != self.draft.id else self.version

    @work(exclusive=True, group="editor")
    async def save(self, task: TaskDefinition, *, overwrite: bool = False) -> None:
        """Save on top of the version opened; ``overwrite`` (the author chose it) saves regardless."""
        expected = None if overwrite else self.expected_version(task)
        try:
            async with service_call(
                self, _("Saving"), busy=self.query_one("#editor"), raising=(VersionConflict,)
            ):
                saved = await save_and_check(await studio(self).library(), task, expected)
                self.notify(f"{task.id}: {saved.response.action.value.lower()}", title=_("Task saved"))
                if warnings := saved.warnings(_):
                    self.notify(
                        "\n".join(warnings),
                        title=_("Check the sample solution"),
                        severity="warning",
                        timeout=20,
                    )
                self.post_message(self.Saved(task.id))
        except VersionConflict as conflict:
            self.ask_to_overwrite(task, conflict.message)

    def ask_to_overwrite(self, task: TaskDefinition, conflict: str) -> None:
        """Another save came first (or the id is taken): the author decides, nothing is lost."""

        question = _(
            "{conflict}.\n\nSave your version over it? Cancel keeps your edits here, unsaved."
        ).format(conflict=conflict)

        def overwrite(yes: bool | None) -> None:
            if yes:
                self.save(task, overwrite=True)

        self.app.push_screen(ConfirmScreen(question, _("Overwrite")), overwrite)

    def on_editor_screen_saved(self, message: Saved) -> None:
        """Leave once the save's worker is done with this screen's widgets."""
        self.dismiss(message.task_id)

    def action_leave(self) -> None:
        if not self.unsaved:
            self.dismiss(None)
            return

        self.app.push_screen(
            ConfirmScreen(_("Leave the editor and discard your changes?"), _("Discard")),
            lambda yes: yes and self.dismiss(None),
        )
