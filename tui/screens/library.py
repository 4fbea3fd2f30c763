"""The task library: the tenant's tasks with their last verdicts; filter, new, duplicate, delete."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input

from core.api import TaskSummary, TaskType
from core.client.templates import free_id, new_task
from tui.calls import service_call
from tui.i18n import _, plural
from tui.labels import type_label, verdict_trail
from tui.widgets.empty import EmptyState
from tui.widgets.list_table import ListTable

if TYPE_CHECKING:
    from tui.app import FeedbackStudioApp

NO_TASKS = _(
    "No tasks yet. Press [b]n[/] to create one of any of the six types, or [b]ctrl+p[/] for all commands."
)
NO_LIST = (
    "This remote does not offer the task library extension: it cannot list its tasks.\n"
    "Press [b]n[/] to create a task; tasks you save in this session appear here."
)


class LibraryScreen(Screen):
    app: FeedbackStudioApp

    BINDINGS: ClassVar = [
        Binding("n", "new", _("New")),
        Binding("enter", "open", _("Open"), show=False),
        Binding("e", "edit", _("Edit")),
        Binding("u", "duplicate", _("Duplicate")),
        Binding("delete,x", "delete", _("Delete")),
        Binding("slash", "filter", _("Filter")),
        Binding("escape", "clear_filter", _("Clear filter"), show=False),
        Binding("i", "import", _("Import")),
        Binding("o", "export", _("Export")),
        Binding("r", "reload", _("Reload")),
    ]

    class TasksLoaded(Message):
        def __init__(self, tasks: list[TaskSummary]) -> None:
            super().__init__()
            self.tasks = tasks

    def __init__(self) -> None:
        super().__init__()
        self.tasks: list[TaskSummary] = []
        self._loaded = False
        self._version = -1

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder=_("Filter by title, id, type or language  ( / )"), id="filter")
        yield ListTable(id="tasks")
        yield EmptyState(id="library-empty")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("Type"), _("Language"), _("Title"), _("Last verdicts"), _("Tried"), _("Id"))
        table.focus()
        self.load_tasks()

    def on_screen_resume(self) -> None:
        if self._loaded and self._version != self.app.tasks_version:
            self.load_tasks()

    @work(exclusive=True, group="library")
    async def load_tasks(self, select: str | None = None) -> None:
        async with service_call(self, _("Loading the tasks"), busy=self.query_one(DataTable)):
            self._version = self.app.tasks_version
            self.post_message(self.TasksLoaded(await self.app.list_tasks()))
            if select:
                self.call_after_refresh(self._select, select)

    def on_library_screen_tasks_loaded(self, message: TasksLoaded) -> None:
        self._loaded = True
        self.tasks = sorted(message.tasks, key=lambda t: ((t.title or t.taskId).casefold(), t.taskId))
        self._fill()

    @on(Input.Changed, "#filter")
    def _fill(self) -> None:
        needle = self.query_one("#filter", Input).value.strip().casefold()
        table = self.query_one(DataTable)
        selected = self.selected_id
        table.clear()
        for task in self.tasks:
            fields = (task.title, task.taskId, type_label(task.type), task.type, task.language.value)
            if needle and not any(needle in f.casefold() for f in fields):
                continue
            table.add_row(
                type_label(task.type),
                task.language.value,
                Text(task.title or task.taskId, style="bold"),
                verdict_trail(task.lastVerdicts[:5]),
                str(task.interactionCount),
                Text(task.taskId, style="dim"),
                key=task.taskId,
            )
        empty = self.query_one(EmptyState)
        empty.display = table.row_count == 0
        table.display = table.row_count > 0
        if selected:
            self._select(selected)
        if not self.tasks:  # the keys the empty state names must reach the screen, not the filter
            self.set_focus(None)
        if self.tasks and needle:
            empty.update(
                _("No task matches “{filter}”. Press [b]escape[/] to clear the filter.").format(filter=needle)
            )
        else:
            empty.update(NO_TASKS if self.app.extensions else NO_LIST)

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def _select(self, task_id: str) -> None:
        table = self.query_one(DataTable)
        if task_id in table.rows:
            table.move_cursor(row=table.get_row_index(task_id))

    @property
    def selected_id(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.display or table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    # --- actions ------------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.app.open_task(event.row_key.value)

    def action_open(self) -> None:
        if task_id := self.selected_id:
            self.app.open_task(task_id)

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        self.query_one("#filter", Input).value = ""
        self.query_one(DataTable).focus()

    def action_reload(self) -> None:
        self.load_tasks()

    def action_new(self) -> None:
        from tui.screens.new_task import NewTaskScreen

        self.app.push_screen(NewTaskScreen(), lambda t: t and self.new_task(t))

    def new_task(self, task_type: TaskType) -> None:
        from tui.screens.editor import EditorScreen

        taken = frozenset(t.taskId for t in self.tasks)
        self.app.push_screen(EditorScreen(new_task(task_type, taken), version=0), self._saved)

    def _saved(self, task_id: str | None) -> None:
        """A new task goes straight to trying answers; that is what an author does next."""
        if task_id:
            self.app.open_task(task_id)

    def action_edit(self) -> None:
        if task_id := self.selected_id:
            self.edit_task(task_id)

    @work(group="library-edit")
    async def edit_task(self, task_id: str) -> None:
        from tui.screens.editor import EditorScreen

        async with service_call(self, _("Opening the task")):
            opened = await self.app.task_definition(task_id)
            await self.app.push_screen(EditorScreen(opened.task, version=opened.version))

    def action_duplicate(self) -> None:
        if task_id := self.selected_id:
            self.duplicate(task_id)

    @work(group="library-edit")
    async def duplicate(self, task_id: str) -> None:
        async with service_call(self, _("Duplicating"), busy=self.query_one(DataTable)):
            original = (await self.app.task_definition(task_id)).task
            copy = original.model_copy(
                update={
                    "id": free_id(f"{task_id}-copy", {t.taskId for t in self.tasks}),
                    "title": f"{original.display_title} (copy)",
                }
            )
            await self.app.save_task(copy, expected_version=0)
            self.notify(_("Duplicated as {id}").format(id=copy.id), title=_("Task duplicated"))
            self.load_tasks(select=copy.id)

    def action_delete(self) -> None:
        task = next((t for t in self.tasks if t.taskId == self.selected_id), None)
        if task is None:
            return
        from tui.screens.confirm import ConfirmScreen

        tried = (
            plural(
                " and its {count} answer with its feedback",
                " and its {count} answers with their feedback",
                task.interactionCount,
            ).format(count=task.interactionCount)
            if task.interactionCount
            else ""
        )
        question = _("Delete “{title}”{answers}?\nThis cannot be undone.").format(
            title=task.title or task.taskId, answers=tried
        )
        self.app.push_screen(
            ConfirmScreen(question, _("Delete")), lambda yes: yes and self.delete(task.taskId)
        )

    # --- task files (core.workspace) ------------------------------------------------------------

    def action_import(self) -> None:
        from tui.screens.files import FilesScreen

        self.app.push_screen(
            FilesScreen(export=False, default_path="tasks"), lambda c: c and self.import_from(c[0])
        )

    def action_export(self) -> None:
        if not self.app.extensions:
            self.notify(
                _("This remote cannot list its tasks, so there is nothing to export."), severity="warning"
            )
            return
        from tui.screens.files import FilesScreen

        self.app.push_screen(
            FilesScreen(export=True, default_path="tasks"), lambda c: c and self.export_to(*c)
        )

    @work(group="library-files")
    async def import_from(self, path: Path) -> None:
        from core.client.files import import_files

        async with service_call(self, _("Importing"), busy=self.query_one(DataTable)):
            try:
                done = await import_files(await self.app.ready(), self.app.tenant_id, [path])
            except ValueError as exc:  # a file that is not a task: the author fixes the file
                self.notify(str(exc), title=_("Nothing imported"), severity="error", markup=False)
                return
            actions = Counter(item.action.lower() for item in done)
            self.notify(
                ", ".join(f"{n} {action}" for action, n in actions.items()) or "no task files found",
                title=_("Imported from {path}").format(path=path),
            )
            self.load_tasks(select=done[0].taskId if done else None)

    @work(group="library-files")
    async def export_to(self, path: Path, fmt: str) -> None:
        from core.client.files import export_files

        async with service_call(self, _("Exporting"), busy=self.query_one(DataTable)):
            written = await export_files(await self.app.ready(), self.app.tenant_id, path, fmt)  # type: ignore[arg-type]
            self.notify(
                plural(
                    "{count} file written to {path}", "{count} files written to {path}", len(written)
                ).format(count=len(written), path=path),
                title=_("Exported"),
            )

    @work(group="library-edit")
    async def delete(self, task_id: str) -> None:
        async with service_call(self, _("Deleting"), busy=self.query_one(DataTable)):
            await self.app.delete_task(task_id)
            self.notify(_("Deleted {id}").format(id=task_id), title=_("Task deleted"))
            self.load_tasks()
