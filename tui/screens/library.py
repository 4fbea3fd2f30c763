"""The task library: the tenant's tasks with their last verdicts; filter, new, duplicate, delete."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input

from core.api import TaskSummary, TaskType
from core.client.i18n import N_
from core.client.library import TaskLibrary, copy_id
from core.client.templates import new_task
from core.client.vocabulary import COPY_TITLE
from core.workspace.documents import Format
from tui import i18n
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.files import FilesScreen
from tui.dialogs.new_task import NewTaskScreen
from tui.i18n import _, plural
from tui.labels import type_label, verdict_trail
from tui.navigation import OpenTask
from tui.service_calls import in_flight, service_call, studio
from tui.widgets.empty import EmptyState
from tui.widgets.footer import KeysFooter
from tui.widgets.list_table import ListTable, cut

if TYPE_CHECKING:
    from core.client.files import Replacement

NO_TASKS = _(
    "No tasks yet. Press [b]n[/] to create one of any of the six types, or [b]ctrl+p[/] for all commands."
)
NO_LIST = (
    "This remote does not offer the task library extension: it cannot list its tasks.\n"
    "Press [b]n[/] to create a task; tasks you save in this session appear here."
)


def _title_key(task: TaskSummary) -> tuple[str, str]:
    return ((task.title or task.taskId).casefold(), task.taskId)


SORTS: dict[str, tuple[str, Callable[[TaskSummary], tuple[str, ...]]]] = {
    "title": (N_("Title"), _title_key),
    "type": (N_("Type"), lambda t: (type_label(t.type).casefold(), *_title_key(t))),
    "language": (N_("Language"), lambda t: (t.language.value, *_title_key(t))),
}
"""The orders of the table: a column's name and the sort key (ties go by title)."""


COLUMNS = {
    "type": N_("Type"),
    "language": N_("Language"),
    "title": N_("Title"),
    "verdicts": N_("Last verdicts"),
    "tried": N_("Tried"),
    "id": N_("Id"),
}
WIDE_COLUMNS = ("type", "language", "title", "verdicts", "tried", "id")
NARROW_COLUMNS = ("title", "verdicts", "id")
WIDE_FROM = 100
"""Terminal width from which every column is shown (app.py's -wide breakpoint). The title takes
what the other columns leave (ListTable.fit): the id is always whole and in view."""


class LibraryScreen(Screen[None]):
    """The tasks of the connection's task library (core.client.library)."""

    BINDINGS: ClassVar = [
        # priority: each is acted on before the keys typed after it are routed, so that what
        # follows "/" reaches the filter and what follows "e" the editor, never a command here;
        # while the filter has the focus they are letters (check_action)
        Binding("n", "new", _("New"), priority=True),
        Binding("enter", "open", _("Open"), show=False, priority=True),
        Binding("e", "edit", _("Edit"), priority=True),
        Binding("u", "duplicate", _("Duplicate"), priority=True),
        Binding("delete,x", "delete", _("Delete"), priority=True),
        Binding("slash", "filter", _("Filter"), priority=True),
        Binding("s", "sort", _("Sort"), priority=True),
        Binding("escape", "clear_filter", _("Clear filter"), show=False),
        Binding("i", "import", _("Import"), priority=True),
        Binding("o", "export", _("Export"), priority=True),
        Binding("r", "reload", _("Reload"), priority=True),
    ]
    TYPED = frozenset(
        {"new", "open", "edit", "duplicate", "delete", "filter", "sort", "import", "export", "reload"}
    )
    """The actions whose keys are text while the filter has the focus."""

    class TasksLoaded(Message):
        def __init__(self, tasks: list[TaskSummary], extensions: bool) -> None:
            super().__init__()
            self.tasks, self.extensions = tasks, extensions

    def __init__(self) -> None:
        super().__init__()
        self.tasks: list[TaskSummary] = []
        self._shown_columns: tuple[str, ...] = WIDE_COLUMNS
        self.order = "title"
        """The key of SORTS the table is sorted by: s (or a click on a column's header) changes it."""
        self.extensions = True
        """Whether the service can list its tasks (else the library shows those saved here)."""
        self._loaded = False
        self._seen: tuple[TaskLibrary, int] | None = None
        """The library listed last and its count of changes then: a view of it is stale once
        either moved on (a save, a new verdict, another connection)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder=_("Filter by title, id, type or language  ( / )"), id="filter")
        yield ListTable(id="tasks", flexible="title")
        yield EmptyState(id="library-empty")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._set_columns()
        self.set_focus(self.query_one(DataTable))
        self.load_tasks()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not isinstance(self.focused, Input):
            return True
        if action == "filter":
            return None  # typed as "/", and still shown: the filter is where the letters go
        return action not in self.TYPED

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns that fit: an 80-column terminal shows the title first and cut to fit,
        then type, language and verdicts (the id and the count of answers are in the task)."""
        return NARROW_COLUMNS if self.app.size.width < WIDE_FROM else WIDE_COLUMNS

    def _set_columns(self) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for key in self.columns:
            table.add_column(_(COLUMNS[key]), key=key)
        self._shown_columns = self.columns

    def on_resize(self) -> None:
        if self.is_mounted and self._shown_columns != self.columns:
            self._set_columns()
            self._fill()

    def on_screen_resume(self) -> None:
        if self._loaded:
            self.reload_if_stale()

    @work(exclusive=True, group="library-stale")
    async def reload_if_stale(self) -> None:
        library = await studio(self).library()
        if self._seen != (library, library.changes):
            self.load_tasks()

    @work(exclusive=True, group="library")
    async def load_tasks(self, select: str | None = None) -> None:
        async with service_call(self, _("Loading the tasks"), busy=self.query_one(DataTable)):
            library = await studio(self).library()
            self._seen = (library, library.changes)
            self.post_message(self.TasksLoaded(await library.list(), library.extensions))
            if select:
                self.call_after_refresh(self._select, select)

    def on_library_screen_tasks_loaded(self, message: TasksLoaded) -> None:
        self._loaded = True
        self.extensions = message.extensions
        self.tasks = message.tasks
        self._fill()

    def action_sort(self) -> None:
        orders = list(SORTS)
        self.sort_by(orders[(orders.index(self.order) + 1) % len(orders)])

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.column_key.value in SORTS:
            self.sort_by(event.column_key.value)

    def sort_by(self, order: str) -> None:
        self.order = order
        self._fill()
        self.notify(_("Sorted by {column}").format(column=_(SORTS[order][0]).lower()), timeout=2)

    @on(Input.Changed, "#filter")
    def _fill(self) -> None:
        needle = self.query_one("#filter", Input).value.strip().casefold()
        table = self.query_one(ListTable)
        selected = self.selected_id
        table.clear()
        for task in sorted(self.tasks, key=SORTS[self.order][1]):
            fields = (task.title, task.taskId, type_label(task.type), task.type, task.language.value)
            if needle and not any(needle in f.casefold() for f in fields):
                continue
            cells = {
                "type": type_label(task.type),
                "language": task.language.value,
                "title": cut(task.title or task.taskId, "bold"),
                "verdicts": verdict_trail(task.lastVerdicts[:5]),
                "tried": str(task.interactionCount),
                "id": Text(task.taskId, style="dim"),
            }
            table.add_row(*(cells[key] for key in self._shown_columns), key=task.taskId)
        table.fit()
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
            empty.update(NO_TASKS if self.extensions else NO_LIST)

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
        if event.row_key.value:
            self.open(event.row_key.value)

    def action_open(self) -> None:
        if task_id := self.selected_id:
            self.open(task_id)

    def open(self, task_id: str) -> None:
        studio(self).hold_keys()  # typed on: the answer of the task that opens
        self.post_message(OpenTask(task_id))

    def action_filter(self) -> None:
        self.set_focus(self.query_one("#filter", Input))  # now: the next key is already typed

    def action_clear_filter(self) -> None:
        self.query_one("#filter", Input).value = ""
        self.query_one(DataTable).focus()

    def action_reload(self) -> None:
        self.load_tasks()

    def action_new(self) -> None:
        def chosen(task_type: TaskType | None) -> None:
            if task_type:
                self.new_task(task_type)

        self.app.push_screen(NewTaskScreen(), chosen)

    def new_task(self, task_type: TaskType) -> None:
        from tui.screens.editor import EditorScreen

        taken = frozenset(t.taskId for t in self.tasks)
        self.app.push_screen(
            EditorScreen(new_task(task_type, taken, i18n.LANGUAGE), version=0, taken=taken), self._saved
        )

    def _saved(self, task_id: str | None) -> None:
        """A new task goes straight to trying answers; that is what an author does next."""
        if task_id:
            self.post_message(OpenTask(task_id))

    def action_edit(self) -> None:
        if task_id := self.selected_id:
            studio(self).hold_keys()  # typed on: the editor's first field, once it opened
            self.edit_task(task_id)

    @work(group="library-edit")
    async def edit_task(self, task_id: str) -> None:
        from tui.screens.editor import EditorScreen

        async with service_call(self, _("Opening the task")):
            library = await studio(self).library()
            opened = await library.open(task_id)
            await self.app.push_screen(EditorScreen(opened.task, version=opened.version, taken=library.taken))
            return
        studio(self).release_keys(discard=True)  # not opened: they were not meant for the library

    def action_duplicate(self) -> None:
        if (task_id := self.selected_id) and not in_flight(self, "library-edit"):
            self.duplicate(task_id)

    @work(group="library-edit")
    async def duplicate(self, task_id: str) -> None:
        async with service_call(self, _("Duplicating"), busy=self.query_one(DataTable)):
            library = await studio(self).library()
            copy = await library.duplicate(task_id, copy_id(task_id, library.taken), _(COPY_TITLE))
            self.notify(_("Duplicated as {id}").format(id=copy.id), title=_("Task duplicated"))
            self.load_tasks(select=copy.id)

    def action_delete(self) -> None:
        task = next((t for t in self.tasks if t.taskId == self.selected_id), None)
        if task is None or in_flight(self, "library-edit"):
            return

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

        def delete(yes: bool | None) -> None:
            if yes:
                self.delete(task.taskId)

        self.app.push_screen(ConfirmScreen(question, _("Delete")), delete)

    # --- task files (core.workspace) ------------------------------------------------------------

    def action_import(self) -> None:
        if in_flight(self, "library-files"):
            return

        def chosen(choice: tuple[Path, Format] | None) -> None:
            if choice:
                self.import_from(choice[0])

        self.app.push_screen(FilesScreen(export=False, default_path="tasks"), chosen)

    def action_export(self) -> None:
        if in_flight(self, "library-files"):
            return
        if not self.extensions:
            self.notify(
                _("This remote cannot list its tasks, so there is nothing to export."), severity="warning"
            )
            return

        def chosen(choice: tuple[Path, Format] | None) -> None:
            if choice:
                self.confirm_export(*choice)

        self.app.push_screen(FilesScreen(export=True, default_path="tasks"), chosen)

    def confirm_export(self, path: Path, fmt: Format) -> None:
        """A file where the folder should be is refused in words; files of the same names in the
        folder are listed and written over only after the author agrees."""
        from core.workspace.files import task_file_path

        if path.exists() and not path.is_dir():
            self.notify(
                _("{path} is a file, not a folder: choose a folder (it is created if missing).").format(
                    path=path
                ),
                title=_("Not exported"),
                severity="error",
                markup=False,
            )
            return
        ids = [task.taskId for task in self.tasks]
        existing = sorted(p.name for p in (task_file_path(path, i, fmt) for i in ids) if p.exists())
        if not existing:
            self.export_to(path, fmt)
            return

        shown = ", ".join(existing[:5]) + (" …" if len(existing) > 5 else "")
        question = plural(
            "{path} holds {count} file that the export writes over: {files}.\nReplace it?",
            "{path} holds {count} files that the export writes over: {files}.\nReplace them?",
            len(existing),
        ).format(path=path, count=len(existing), files=shown)

        def replace(yes: bool | None) -> None:
            if yes:
                self.export_to(path, fmt)

        self.app.push_screen(ConfirmScreen(question, _("Replace")), replace)

    @work(group="library-files")
    async def import_from(self, path: Path, agreed: Sequence[Replacement] = ()) -> None:
        """Import; tasks that would replace different stored ones are listed and asked about first."""
        from core.client.files import WouldReplace, import_files

        async with service_call(self, _("Importing"), busy=self.query_one(DataTable)):
            try:
                library = await studio(self).library()
                done = await import_files(library.service, library.tenant_id, [path], agreed=agreed)
                library.changed()
            except WouldReplace as refused:
                self._confirm_replacing(path, refused.replacements)
                return
            except ValueError as exc:  # a file that is not a task: the author fixes the file
                self.notify(str(exc), title=_("Nothing imported"), severity="error", markup=False)
                return
            actions = Counter(item.action.lower() for item in done)
            self.notify(
                ", ".join(f"{n} {action}" for action, n in actions.items()) or "no task files found",
                title=_("Imported from {path}").format(path=path),
            )
            self.load_tasks(select=done[0].taskId if done else None)

    def _confirm_replacing(self, path: Path, replacements: list[Replacement]) -> None:
        listed = "\n".join(
            _("• {id} (version {version}): {fields}").format(
                id=r.taskId, version=r.version, fields=", ".join(r.fields)
            )
            for r in replacements
        )
        question = plural(
            "This task exists with other content; importing replaces it:\n{tasks}\nNothing is imported unless you agree.",
            "These tasks exist with other content; importing replaces them:\n{tasks}\nNothing is imported unless you agree.",
            len(replacements),
        ).format(tasks=listed)

        def replace(yes: bool | None) -> None:
            if yes:
                self.import_from(path, replacements)

        self.app.push_screen(ConfirmScreen(question, _("Replace")), replace)

    @work(group="library-files")
    async def export_to(self, path: Path, fmt: Format) -> None:
        from core.client.files import export_files

        async with service_call(self, _("Exporting"), busy=self.query_one(DataTable)):
            library = await studio(self).library()
            try:
                written = await export_files(library.service, library.tenant_id, path, fmt)
            except OSError as exc:  # a folder that cannot be made or written: the author picks another
                self.notify(
                    _("Could not write into {path}: {reason}").format(
                        path=exc.filename or path, reason=exc.strerror or exc
                    ),
                    title=_("Not exported"),
                    severity="error",
                    markup=False,
                )
                return
            self.notify(
                plural(
                    "{count} file written to {path}", "{count} files written to {path}", len(written)
                ).format(count=len(written), path=path),
                title=_("Exported"),
            )

    @work(group="library-edit")
    async def delete(self, task_id: str) -> None:
        async with service_call(self, _("Deleting"), busy=self.query_one(DataTable)):
            await (await studio(self).library()).delete(task_id)
            self.notify(_("Deleted {id}").format(id=task_id), title=_("Task deleted"))
            self.load_tasks()
