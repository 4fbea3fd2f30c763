"""The Class sets tab of a free-text task: the sets of a class's answers imported for it (name,
answers, judged, graded, created), to import (i), open (enter), export (e) or delete (x).

An import asks for the file and a name (ClassSetFileScreen, which reads the file and says what is
wrong with it), then judges every answer with a progress bar that Cancel stops
(core.client.class_sets.import_set: a stopped or failed import keeps nothing). Opening a set is
the task screen's to do (a widget opens no screen): the panel posts ``Opened``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Button, DataTable

from core.api.class_sets import ClassSet
from core.client.class_sets import NO_CLASS_SETS, ReadAnswers, import_set
from core.client.i18n import N_
from tui import i18n
from tui.dialogs.class_sets import ClassSetFileScreen, ClassSetPathScreen, ClassSetProgressScreen
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _, date_time, number, plural
from tui.service_calls import in_flight, service_call, studio
from tui.widgets.empty import EmptyState
from tui.widgets.list_table import ListTable, cut

COLUMNS = (
    ("name", N_("Name")),
    ("answers", N_("Answers")),
    ("judged", N_("Judged")),
    ("graded", N_("Graded")),
    ("created", N_("Created")),
)


def set_name(current: ClassSet) -> str:
    return current.name or current.classSetId


def ask_export(node: DOMNode, current: ClassSet) -> None:
    """Ask where to write ``current`` as CSV (an existing file only after the user agrees), then write it."""
    stem = re.sub(r"[^\w.-]+", "-", set_name(current)).strip("-") or "class-set"

    def chosen(path: Path | None) -> None:
        if path is None:
            return
        if path.is_dir():
            path = path / f"{stem}-judged.csv"
        if path.exists():
            question = _("{path} exists. Replace it with the export of “{name}”?").format(
                path=path, name=set_name(current)
            )
            target = path

            def replace(yes: bool | None) -> None:
                if yes:
                    _write(node, current, target)

            node.app.push_screen(ConfirmScreen(question, _("Replace")), replace)
        else:
            _write(node, current, path)

    node.app.push_screen(ClassSetPathScreen(set_name(current), f"{stem}-judged.csv"), chosen)


def _write(node: DOMNode, current: ClassSet, path: Path) -> None:
    async def export() -> None:
        async with service_call(node, _("Exporting the class set")):
            app = studio(node)
            text = await (await app.ready()).export_class_set(app.tenant_id, current.classSetId)
            try:
                await asyncio.to_thread(path.write_text, text, encoding="utf-8", newline="")
            except OSError as exc:
                node.app.notify(
                    _("Could not write {path}: {reason}").format(path=path, reason=exc.strerror or exc),
                    title=_("Not exported"),
                    severity="error",
                    markup=False,
                )
                return
            node.app.notify(
                plural(
                    "{count} answer written to {path}",
                    "{count} answers written to {path}",
                    current.answerCount,
                ).format(count=number(current.answerCount, 0), path=path),
                title=_("Exported"),
                markup=False,
            )

    node.run_worker(export(), group="class-set-export", exclusive=True)


class ClassSetsPanel(Vertical):
    DEFAULT_CSS = """
    ClassSetsPanel { height: 1fr; }
    #class-sets-bar { height: auto; margin-bottom: 1; }
    #class-sets-bar Button { margin-right: 2; }
    #class-sets-table { height: 1fr; }
    """
    BINDINGS: ClassVar = [
        Binding("i", "import", _("Import")),
        Binding("e", "export", _("Export")),
        Binding("x,delete", "delete", _("Delete")),
    ]

    class Loaded(Message):
        def __init__(self, sets: list[ClassSet]) -> None:
            super().__init__()
            self.sets = sets

    class Opened(Message):
        """The user opens a set (the task screen shows it)."""

        def __init__(self, class_set: ClassSet) -> None:
            super().__init__()
            self.class_set = class_set

    def __init__(self, task_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task_id = task_id
        self.sets: list[ClassSet] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="class-sets-bar"):
            yield Button(_("Import  i"), id="class-set-import", compact=True, variant="primary")
            yield Button(_("Open  enter"), id="class-set-open", compact=True)
            yield Button(_("Export  e"), id="class-set-export", compact=True)
            yield Button(_("Delete  x"), id="class-set-delete", compact=True, variant="error")
        yield ListTable(id="class-sets-table", flexible="name")
        yield EmptyState(_(NO_CLASS_SETS) + "\n" + _("Press [b]i[/] to import one."), id="class-sets-empty")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(_(label), key=key)
        self.show([])

    @work(exclusive=True, group="class-sets")
    async def load(self, select: str | None = None) -> None:
        async with service_call(self, _("Loading the class sets"), busy=self.query_one(DataTable)):
            app = studio(self)
            service, tenant = await app.ready(), app.tenant_id
            self.post_message(self.Loaded(await service.list_class_sets(tenant, self.task_id)))
            if select:
                self.call_after_refresh(self._select, select)

    def on_class_sets_panel_loaded(self, message: Loaded) -> None:
        self.show(message.sets)

    def show(self, sets: list[ClassSet]) -> None:
        self.sets = sorted(sets, key=lambda s: s.createdAt, reverse=True)
        table = self.query_one(DataTable)
        table.clear()
        for current in self.sets:
            judged = Text(number(current.judgedCount, 0))
            if current.judgedCount < current.answerCount:
                judged.stylize("bold #e0b43a")
            table.add_row(
                cut(set_name(current), "bold"),
                number(current.answerCount, 0),
                judged,
                number(current.gradedCount, 0),
                Text(date_time(current.createdAt), style="dim"),
                key=current.classSetId,
            )
        self.query_one(ListTable).fit()
        table.display = bool(self.sets)
        self.query_one(EmptyState).display = not self.sets
        for button in ("#class-set-open", "#class-set-export", "#class-set-delete"):
            self.query_one(button, Button).disabled = not self.sets
        if not self.sets and self.screen.focused is table:
            self.query_one("#class-set-import", Button).focus()

    def _select(self, set_id: str) -> None:
        table = self.query_one(DataTable)
        if set_id in table.rows:
            table.move_cursor(row=table.get_row_index(set_id))
            table.focus()

    def selected(self) -> ClassSet | None:
        table = self.query_one(DataTable)
        if not self.sets or not table.display or table.cursor_row >= len(self.sets):
            return None
        return self.sets[table.cursor_row]

    # --- actions ------------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#class-sets-table")
    @on(Button.Pressed, "#class-set-open")
    def action_open(self) -> None:
        if current := self.selected():
            self.post_message(self.Opened(current))

    @on(Button.Pressed, "#class-set-export")
    def action_export(self) -> None:
        if current := self.selected():
            ask_export(self, current)

    @on(Button.Pressed, "#class-set-delete")
    def action_delete(self) -> None:
        current = self.selected()
        if current is None or in_flight(self, "class-sets-edit"):
            return
        question = plural(
            "Delete the class set “{name}” with its {count} answer and your grades?\nThis cannot be undone.",
            "Delete the class set “{name}” with its {count} answers and your grades?\nThis cannot be undone.",
            current.answerCount,
        ).format(name=set_name(current), count=number(current.answerCount, 0))

        def delete(yes: bool | None) -> None:
            if yes:
                self.delete(current)

        self.app.push_screen(ConfirmScreen(question, _("Delete")), delete)

    @work(group="class-sets-edit")
    async def delete(self, current: ClassSet) -> None:
        async with service_call(self, _("Deleting the class set"), busy=self.query_one(DataTable)):
            app = studio(self)
            await (await app.ready()).delete_class_set(app.tenant_id, current.classSetId)
            self.notify(_("Class set “{name}” deleted.").format(name=set_name(current)), markup=False)
        self.load()

    @on(Button.Pressed, "#class-set-import")
    def action_import(self) -> None:
        if not in_flight(self, "class-sets-edit"):
            self.app.push_screen(ClassSetFileScreen(), self._file_read)

    def _file_read(self, read: tuple[str, ReadAnswers] | None) -> None:
        if read is not None:
            self.start_import(*read)

    def start_import(self, name: str, answers: ReadAnswers) -> None:
        app = studio(self)

        async def job(progress: Callable[[ClassSet], None]) -> ClassSet:
            service = await app.ready()
            return await import_set(service, app.tenant_id, self.task_id, name, answers.answers, progress)

        summary = answers.summary(i18n.LANGUAGE)

        def imported(done: ClassSet | None) -> None:
            if done is not None:
                self.notify(
                    summary,
                    title=_("Class set “{name}” imported").format(name=set_name(done)),
                    markup=False,
                )
            self.load(select=done.classSetId if done else None)

        self.app.push_screen(
            ClassSetProgressScreen(
                _("Importing “{name}” and judging its answers").format(name=name),
                summary,
                job,
                stopped=_("Import of “{name}” stopped: nothing was kept.").format(name=name),
                doing=_("Importing the class set"),
            ),
            imported,
        )
