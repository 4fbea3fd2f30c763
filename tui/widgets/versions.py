"""The Versions tab of a task: every version with its time and author, two of them side by side,
and an old one restored as the newest (core.client.task_history).

The panel loads itself when its tab opens (``load``) and compares the version before the newest
with the newest; selecting a row of the table puts that version on the left. "Restore" asks first
and writes the left version on top of the newest one listed, so a save the author has not seen is
never overwritten (the service answers with a conflict instead).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Select, Static

from core.api import TaskAction, TaskVersion, TaskVersionSummary
from core.client.task_history import Change, differs, restore_version, side_by_side
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _, date_time
from tui.service_calls import service_call, studio
from tui.widgets.empty import EmptyState
from tui.widgets.list_table import ListTable

STYLES = {Change.SAME: "", Change.CHANGED: "yellow", Change.REMOVED: "red", Change.ADDED: "green"}


class VersionsPanel(Vertical):
    DEFAULT_CSS = """
    VersionsPanel { height: 1fr; }
    #versions-table { height: auto; max-height: 10; }
    #versions-bar { height: auto; margin: 1 0; }
    #versions-bar .versions-label { width: auto; margin: 0 1; }
    #versions-bar Select { width: 18; }
    #versions-bar Button { margin-left: 2; }
    #versions-diff-area { height: 1fr; }
    """

    class Restored(Message):
        """An old version became the newest: the task screen shows the task again."""

    def __init__(self, task_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task_id = task_id
        self.versions: list[TaskVersionSummary] = []
        self.definitions: dict[int, TaskVersion] = {}

    def compose(self) -> ComposeResult:
        yield ListTable(id="versions-table")
        with Horizontal(id="versions-bar"):
            yield Static(_("Compare"), classes="versions-label")
            yield Select[int]([], prompt=_("Older"), id="versions-old", compact=True)
            yield Static(_("with"), classes="versions-label")
            yield Select[int]([], prompt=_("Newer"), id="versions-new", compact=True)
            yield Button(_("Restore the older"), id="versions-restore", compact=True, variant="warning")
        yield VerticalScroll(Static(id="versions-diff"), id="versions-diff-area")
        yield EmptyState(_("Loading the versions…"), id="versions-empty")

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(_("Version"), _("When"), _("Author"), _("Title"))
        self._show_parts(False)

    def _show_parts(self, loaded: bool) -> None:
        for selector in ("#versions-table", "#versions-bar", "#versions-diff-area"):
            self.query_one(selector).display = loaded
        self.query_one(EmptyState).display = not loaded

    @work(exclusive=True, group="versions")
    async def load(self) -> None:
        async with service_call(self, _("Loading the versions"), busy=self):
            service = await studio(self).ready()
            self.versions = await service.list_task_versions(studio(self).tenant_id, self.task_id)
            self.definitions.clear()
            self._fill()

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for v in self.versions:
            table.add_row(
                str(v.version), date_time(v.createdAt), v.author or "—", v.title, key=str(v.version)
            )
        options = [(_("Version {n}").format(n=v.version), v.version) for v in self.versions]
        older, newer = self.query_one("#versions-old", Select), self.query_one("#versions-new", Select)
        with self.prevent(Select.Changed):
            older.set_options(options)
            newer.set_options(options)
            newer.value = self.versions[0].version
            older.value = self.versions[min(1, len(self.versions) - 1)].version
        self._show_parts(True)
        self.compare()

    @on(DataTable.RowSelected, "#versions-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.query_one("#versions-old", Select).value = int(str(event.row_key.value))

    @on(Select.Changed)
    def _sides_changed(self) -> None:
        self.compare()

    def _sides(self) -> tuple[int, int] | None:
        older = self.query_one("#versions-old", Select).value
        newer = self.query_one("#versions-new", Select).value
        return (older, newer) if isinstance(older, int) and isinstance(newer, int) else None

    @work(exclusive=True, group="versions-diff")
    async def compare(self) -> None:
        sides = self._sides()
        if sides is None:
            return
        async with service_call(self, _("Reading a version"), busy=self.query_one("#versions-diff-area")):
            old, new = [await self._version(n) for n in sides]
            self._show_diff(old, new)

    async def _version(self, number: int) -> TaskVersion:
        if number not in self.definitions:
            service = await studio(self).ready()
            self.definitions[number] = await service.get_task_version(
                studio(self).tenant_id, self.task_id, number
            )
        return self.definitions[number]

    def _show_diff(self, old: TaskVersion, new: TaskVersion) -> None:
        newest = self.versions[0].version
        restore = self.query_one("#versions-restore", Button)
        restore.label = _("Restore version {n}").format(n=old.version)
        restore.disabled = old.version == newest
        rows = side_by_side(old.definition, new.definition)
        diff = self.query_one("#versions-diff", Static)
        if len(self.versions) == 1:
            diff.update(_("This is the only version: every saved change will be listed here."))
            return
        if not differs(rows):
            diff.update(
                _("Version {old} and version {new} are the same.").format(old=old.version, new=new.version)
            )
            return
        table = Table(expand=True, show_lines=False, box=None, pad_edge=False)
        table.add_column(_("Version {n}").format(n=old.version), ratio=1, overflow="fold")
        table.add_column(_("Version {n}").format(n=new.version), ratio=1, overflow="fold")
        for row in rows:
            style = STYLES[row.change]
            table.add_row(Text(row.old or "", style=style), Text(row.new or "", style=style))
        diff.update(table)

    @on(Button.Pressed, "#versions-restore")
    def _confirm_restore(self) -> None:
        sides = self._sides()
        if sides is None or not self.versions:
            return
        question = _("Restore version {old}? It is saved as version {new}; no version is lost.").format(
            old=sides[0], new=self.versions[0].version + 1
        )
        older = sides[0]

        def restore(yes: bool | None) -> None:
            if yes:
                self.restore(older)

        self.app.push_screen(ConfirmScreen(question, _("Restore")), restore)

    @work(exclusive=True, group="versions")
    async def restore(self, number: int) -> None:
        async with service_call(self, _("Restoring a version"), busy=self):
            service = await studio(self).ready()
            old = await self._version(number)
            response = await restore_version(service, old, current_version=self.versions[0].version)
            if response.action is TaskAction.UNCHANGED:
                self.notify(_("Version {n} is the same as the newest version.").format(n=number))
                return
            self.notify(
                _("Version {n} is the task's newest version again.").format(n=number),
                title=_("Version restored"),
            )
            self.post_message(self.Restored())
