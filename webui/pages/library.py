"""The task library ("/"): every task of the tenant as a card, a filter, and what to do with them.

The list is read while the page is built, so the first response already shows the library (no
second round trip after the websocket connects); filtering works on that list in place.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any
from urllib.parse import quote

from nicegui import events, ui

from core.api import Language, ServiceError, TaskDefinition, TaskSummary
from core.client.files import Replacement, WouldReplace
from core.client.library import TaskLibrary, copy_id
from core.client.validation import id_problem
from core.client.vocabulary import COPY_TITLE, TYPE_LABELS
from core.workspace.documents import Format
from webui.components.busy import sends
from webui.components.task_files import ACCEPTED, task_file, task_from_upload, upload_limit
from webui.components.task_types import action_word, type_icon, type_label
from webui.i18n import N_, _, language, number, plural
from webui.page_services import BUILD_SECONDS, PageServices, reporting
from webui.theme import ICON_GREY, VERDICT_TEXT_CLASSES, dialog, empty_state, frame


def register(studio: PageServices) -> None:
    @ui.page("/", response_timeout=BUILD_SECONDS)
    async def library_page() -> None:
        with frame(_("Library")):
            await Library(studio).build()


PAGE = 30
"""Cards shown at first and added per "Show more": a big library still renders at once."""


class Library:
    """The page of the connection's task library (core.client.library, as the terminal app's)."""

    def __init__(self, studio: PageServices) -> None:
        self.studio = studio
        self._library: TaskLibrary | None = None
        self.tasks: list[TaskSummary] = []
        self.search = ""
        self.kind: str | None = None
        self.language: str | None = None
        self.order = "changed"
        self.shown = PAGE

    async def build(self) -> None:
        with ui.row().classes("w-full items-center gap-2"):
            ui.input(placeholder=_("Filter by title or id"), on_change=lambda e: self._search(e.value)).props(
                "dense outlined clearable"
            ).props(f'aria-label="{_("Filter by title or id")}"').classes("grow min-w-48").mark(
                "library-filter"
            )
            ui.select(
                {None: _("All types"), **{t.schema_name: type_label(t) for t in TYPE_LABELS}},
                value=None,
                on_change=lambda e: self._narrow(kind=e.value),
            ).props(f'dense outlined aria-label="{_("Type")}"').classes("min-w-44").mark("library-type")
            ui.select(
                {None: _("All languages"), **{language.value: language.value for language in Language}},
                value=None,
                on_change=lambda e: self._narrow(language=e.value),
            ).props(f'dense outlined aria-label="{_("Language")}"').classes("min-w-36").mark(
                "library-language"
            )
            ui.select(
                {key: _(label) for key, (label, _key) in SORTS.items()},
                value=self.order,
                on_change=lambda e: self._narrow(order=e.value),
            ).props(f'dense outlined aria-label="{_("Order")}"').classes("min-w-44").mark("library-order")
            with ui.button(_("New task"), icon="add").props("unelevated"), ui.menu():
                for task_type in TYPE_LABELS:
                    target = f"/new/{task_type.value}"
                    with (
                        ui.menu_item(on_click=lambda t=target: ui.navigate.to(t)).mark(target),
                        ui.row().classes("items-center gap-2"),
                    ):
                        ui.icon(type_icon(task_type), color="primary")
                        ui.label(type_label(task_type))
            ui.button(_("Import"), icon="upload_file", on_click=self._import_dialog).props("outline")
        try:
            self._library = await self.studio.library()
            self.tasks = await self._library.list()
        except ServiceError as exc:
            empty_state(
                "cloud_off",
                _("The service did not answer"),
                _("{reason}. Check the connection in Settings.").format(reason=exc.message),
            )
            ui.button(_("Settings"), icon="settings", on_click=lambda: ui.navigate.to("/settings")).classes(
                "self-center"
            )
            return
        if not self.library.extensions:
            ui.label(
                _(
                    "This remote does not offer the task library extension: it cannot list its tasks. "
                    "Tasks saved here while the web app runs are listed."
                )
            ).classes("text-sm opacity-70").mark("no-list")
        self.cards()

    @property
    def library(self) -> TaskLibrary:
        """The library, once the page has read it (every action is offered only after that)."""
        assert self._library is not None
        return self._library

    def _search(self, text: str | None) -> None:
        self.search = (text or "").strip().lower()
        self.shown = PAGE
        self.cards.refresh()

    def _narrow(self, **choice: str | None) -> None:
        """A type, language or order was chosen: the cards again, from the first page."""
        for name, value in choice.items():
            setattr(self, name, value)
        self.shown = PAGE
        self.cards.refresh()

    def _visible(self) -> list[TaskSummary]:
        shown = [
            t
            for t in self.tasks
            if (not self.kind or t.type == self.kind)
            and (not self.language or t.language.value == self.language)
            and (self.search in t.title.lower() or self.search in t.taskId.lower())
        ]
        return sorted(shown, key=SORTS[self.order][1])

    @ui.refreshable_method
    def cards(self) -> None:
        if not self.tasks:
            empty_state(
                "library_add",
                _("No tasks yet"),
                _(
                    "Create one with New task, import a task file, or run `feedback-studio seed-demo` for the demo tasks."
                ),
            )
            return
        visible = self._visible()
        if not visible:
            empty_state(
                "filter_alt_off", _("No task matches the filter"), _("Clear the filter to see all tasks.")
            )
            return
        ui.label(_("{shown} of {count} tasks").format(shown=len(visible), count=len(self.tasks))).classes(
            "text-sm opacity-70"
        )
        with (
            ui.element("div")
            .classes("w-full grid grid-cols-1 md:grid-cols-2 xl:grid-cols-3 gap-3")
            .props('data-testid="library"')
        ):
            for summary in visible[: self.shown]:
                self._card(summary)
        hidden = len(visible) - self.shown
        if hidden > 0:
            more = min(hidden, PAGE)
            ui.button(
                _("Show {count} more").format(count=more), icon="expand_more", on_click=self._show_more
            ).props("flat").classes("self-center")

    def _show_more(self) -> None:
        self.shown += PAGE
        self.cards.refresh()

    def _card(self, summary: TaskSummary) -> None:
        with (
            ui.card()
            .classes("gap-2 hover:shadow-lg transition-shadow")
            .props("flat bordered")
            .mark("task-card", f"card-{summary.taskId}")
        ):
            with ui.row().classes("w-full items-center gap-1 no-wrap"):
                ui.html(_kind(summary), sanitize=False).classes(
                    "mr-auto min-w-0 flex flex-nowrap items-center gap-2"
                )
                self._action(
                    "duplicate", "content_copy", _("Duplicate"), partial(self._duplicate_dialog, summary)
                )
                self._action("export", "download", _("Export"), partial(self._export_dialog, summary))
                self._action("delete", "delete", _("Delete"), partial(self._delete_dialog, summary))
            ui.html(_about(summary), sanitize=False).classes("w-full flex flex-col gap-2")

    @staticmethod
    def _action(marker: str, icon: str, tip: str, action: Callable[[], Any]) -> ui.button:
        return (
            ui.button(icon=icon, on_click=action)
            .props(f'flat round dense size=sm color={ICON_GREY[0]} aria-label="{tip}" title="{tip}"')
            .mark(marker)
        )

    async def _reload(self) -> None:
        with reporting(_("Loading the library")):
            self.tasks = await self.library.list()
        self.cards.refresh()

    def _duplicate_dialog(self, summary: TaskSummary) -> None:
        async def duplicate() -> None:
            new_id = new_id_input.value.strip()
            if problem := id_problem(new_id, language()):
                new_id_input.props(f'error error-message="{html.escape(problem)}"')
                return
            new_id_input.props(remove="error error-message")
            with reporting(_("Duplicating")):
                await self.library.duplicate(summary.taskId, new_id, _(COPY_TITLE))  # never over another task
                ui.notify(_("Duplicated as {id}").format(id=new_id), type="positive")
                await self._reload()
                box.close()  # last: closing deletes the dialog, the context of this handler

        with dialog() as box:
            ui.label(_("Duplicate “{title}”").format(title=summary.title or summary.taskId)).classes(
                "text-lg"
            )
            offered = copy_id(summary.taskId, self.library.taken)
            new_id_input = ui.input(_("Id of the copy"), value=offered).classes("w-full")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Create copy")), duplicate).props("unelevated").mark("create-copy")

    def _delete_dialog(self, summary: TaskSummary) -> None:
        async def delete() -> None:
            with reporting(_("Deleting")):
                await self.library.delete(summary.taskId)
                ui.notify(_("Deleted {id}").format(id=summary.taskId), type="positive")
                await self._reload()
                box.close()

        with dialog() as box:
            ui.label(
                _("Remove “{title}” from the library?").format(title=summary.title or summary.taskId)
            ).classes("text-lg")
            ui.label(
                _("Its answers, feedback and ratings are deleted with it. This cannot be undone.")
            ).classes("text-sm opacity-70")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Delete"), color="negative"), delete).props("unelevated").mark(
                    "confirm-delete"
                )

    def _export_dialog(self, summary: TaskSummary) -> None:
        """Built when asked for: a menu on every card would slow the library's first render."""

        async def export(fmt: Format) -> None:
            with reporting(_("Exporting")):
                name, content = task_file((await self.library.open(summary.taskId)).task, fmt)
                ui.download.content(content, name, f"application/{fmt}")
                box.close()

        with dialog() as box:
            ui.label(_("Export “{title}”").format(title=summary.title or summary.taskId)).classes("text-lg")
            ui.label(_("A task file as `feedback-studio tasks import` reads it.")).classes(
                "text-sm opacity-70"
            )
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                formats: tuple[Format, ...] = ("json", "yaml")
                for fmt in formats:
                    sends(
                        ui.button(_("{format} file").format(format=fmt.upper())), partial(export, fmt)
                    ).props("unelevated")

    async def _import(self, file: str, task: TaskDefinition, agreed: Sequence[Replacement] = ()) -> None:
        """Save an uploaded task; one that would replace a different stored task asks first."""
        with reporting(_("Importing {file}").format(file=file)):
            try:
                response = await self.library.import_task(task, agreed)
            except WouldReplace as refused:
                self._replace_dialog(file, task, refused.replacements)
                return
            ui.notify(
                _("{file}: task {id} {action}").format(
                    file=file, id=task.id, action=action_word(response.action)
                ),
                type="positive",
            )
        await self._reload()

    def _replace_dialog(self, file: str, task: TaskDefinition, replacements: list[Replacement]) -> None:
        [replacing] = replacements

        async def replace() -> None:
            await self._import(file, task, replacements)
            box.close()  # last: closing deletes the dialog, the context of this handler

        with dialog() as box:
            ui.label(_("Replace the task {id}?").format(id=task.id)).classes("text-lg")
            ui.label(
                _(
                    "{file} holds other content for a task that exists (version {version}). Importing it changes: {fields}."
                ).format(file=file, version=replacing.version, fields=", ".join(replacing.fields))
            ).classes("text-sm").mark("replace-fields")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Keep the stored task"), on_click=box.close).props("flat")
                sends(ui.button(_("Replace"), color="negative"), replace).props("unelevated").mark(
                    "confirm-replace"
                )

    def _import_dialog(self) -> None:
        limit = upload_limit(self.studio.settings.max_body_bytes)

        def too_big(name: str) -> None:
            ui.notify(
                _("{file} is larger than {size}, the most a task file may have: not imported").format(
                    file=name, size=byte_size(limit)
                ),
                type="negative",
                multi_line=True,
                close_button=True,
            )

        async def receive(event: events.UploadEventArguments) -> None:
            if event.file.size() > limit:  # the browser refuses these; whatever came anyway
                too_big(event.file.name)
                return
            try:
                task = task_from_upload(event.file.name, await event.file.read())
            except ValueError as exc:
                ui.notify(str(exc), type="negative", multi_line=True, close_button=True)
                return
            await self._import(event.file.name, task)

        def rejected(event: events.GenericEventArguments) -> None:
            """Files the browser refused to send (too big for the server, which answered 413
            without a word, and the file was ticked as if it had gone)."""
            for entry in event.args or []:
                too_big(str(entry.get("name", "")))

        def failed(event: events.GenericEventArguments) -> None:
            for entry in event.args or []:
                ui.notify(
                    _("{file} was not imported: the upload failed ({status})").format(
                        file=entry.get("name", ""), status=entry.get("status", "")
                    ),
                    type="negative",
                    multi_line=True,
                    close_button=True,
                )

        with dialog() as box:
            ui.label(_("Import task files")).classes("text-lg")
            ui.label(
                _("JSON or YAML files with one task each, as `feedback-studio tasks export` writes them.")
            ).classes("text-sm opacity-70")
            upload = ui.upload(on_upload=receive, multiple=True, auto_upload=True, max_file_size=limit)
            upload.props(f'accept="{ACCEPTED}"').classes("w-full")
            upload.on(
                "rejected",
                rejected,
                js_handler="(entries) => emit(entries.map((e) => ({name: e.file.name, size: e.file.size})))",
            )
            upload.on(
                "failed",
                failed,
                js_handler="(info) => emit(info.files.map((f) => ({name: f.name, status: info.xhr.status})))",
            )
            ui.label(_("At most {size} a file.").format(size=byte_size(limit))).classes("text-xs opacity-70")
            ui.button(_("Done"), on_click=box.close).props("flat").classes("self-end")


def byte_size(size: int) -> str:
    """A file size as the language writes it: "984 kB", "2.5 MB"."""
    return f"{number(size / 1e6, 1)} MB" if size >= 1_000_000 else f"{number(size / 1e3, 0)} kB"


def _title_key(summary: TaskSummary) -> tuple[str, str]:
    return ((summary.title or summary.taskId).casefold(), summary.taskId)


SORTS: dict[str, tuple[str, Callable[[TaskSummary], Any]]] = {
    "changed": (N_("Last changed first"), lambda t: -t.updatedAt.timestamp()),
    "title": (N_("By title"), _title_key),
    "type": (N_("By type"), lambda t: (type_label(t.type).casefold(), *_title_key(t))),
    "language": (N_("By language"), lambda t: (t.language.value, *_title_key(t))),
}
"""The orders of the cards: a label and the sort key (ties go by title)."""


def _kind(summary: TaskSummary) -> str:
    """The task's type and language as one piece of HTML (the values are ours: nothing to escape).

    A card is built of as few elements as it can be: each costs the server time on every
    first render of the library, the page an author opens most.
    """
    return (
        f'<i class="q-icon notranslate material-icons text-primary text-2xl shrink-0" aria-hidden="true">'
        f"{type_icon(summary.type)}</i>"
        f'<span class="text-xs uppercase tracking-wide opacity-70 truncate" title="{type_label(summary.type)}">{type_label(summary.type)}</span>'
        f'<span class="q-badge q-badge--outline text-secondary shrink-0">{summary.language.value}</span>'
    )


def _about(summary: TaskSummary) -> str:
    """The title (a link to the task page), the id, the last verdicts and the number of answers."""
    link = f"/tasks/{quote(summary.tenantId)}/{quote(summary.taskId)}"
    dots = "".join(
        f'<span title="{v}" class="{VERDICT_TEXT_CLASSES.get(v, "fs-unknown")}">●</span>'
        for v in summary.lastVerdicts
    )
    answers = summary.interactionCount
    answer_count = plural("{count} answer", "{count} answers", answers).format(count=number(answers, 0))
    return (
        f'<a href="{html.escape(link)}" class="text-base font-medium text-primary no-underline">'
        f"{html.escape(summary.title or summary.taskId)}</a>"
        '<div class="flex items-center gap-1 text-xs">'  # the dots at full strength, the words faded
        f'<span class="truncate mr-auto opacity-70">{html.escape(summary.taskId)}</span>'
        f'<span class="whitespace-nowrap">{dots} <span class="opacity-70">{html.escape(answer_count)}</span></span></div>'
    )
