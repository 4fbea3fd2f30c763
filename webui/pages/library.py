"""The task library ("/"): every task of the tenant as a card, a filter, and what to do with them.

The list is read while the page is built, so the first response already shows the library (no
second round trip after the websocket connects); filtering works on that list in place.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from urllib.parse import quote

from nicegui import events, ui

from core.api import ServiceError, TaskSummary
from core.client.validation import id_problem
from core.client.vocabulary import TYPE_LABELS
from core.workspace.documents import Format
from webui.components.task_files import ACCEPTED, task_file, task_from_upload
from webui.components.task_types import action_word, type_icon, type_label
from webui.context import Studio, reporting
from webui.i18n import _, number, plural
from webui.theme import CHART_COLORS, dialog, empty_state, frame


def register(studio: Studio) -> None:
    @ui.page("/", response_timeout=30)
    async def library_page() -> None:
        with frame(_("Library")):
            await Library(studio).build()


PAGE = 30
"""Cards shown at first and added per "Show more": a big library still renders at once."""


class Library:
    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.tenant = ""
        self.tasks: list[TaskSummary] = []
        self.search = ""
        self.kind: str | None = None
        self.shown = PAGE

    async def build(self) -> None:
        with ui.row().classes("w-full items-center gap-2"):
            ui.input(placeholder=_("Filter by title or id"), on_change=lambda e: self._search(e.value)).props(
                "dense outlined clearable"
            ).classes("grow min-w-48").mark("library-filter")
            ui.select(
                {None: _("All types"), **{t.schema_name: type_label(t) for t in TYPE_LABELS}},
                value=None,
                on_change=lambda e: self._kind(e.value),
            ).props("dense outlined").classes("min-w-44")
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
            service = await self.studio.service()
            self.tenant = await self.studio.tenant(service)
            self.tasks = await service.list_tasks(self.tenant)
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
        self.cards()

    def _search(self, text: str | None) -> None:
        self.search = (text or "").strip().lower()
        self.shown = PAGE
        self.cards.refresh()

    def _kind(self, kind: str | None) -> None:
        self.kind = kind
        self.shown = PAGE
        self.cards.refresh()

    def _visible(self) -> list[TaskSummary]:
        return [
            t
            for t in self.tasks
            if (not self.kind or t.type == self.kind)
            and (self.search in t.title.lower() or self.search in t.taskId.lower())
        ]

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
            .mark(f"card-{summary.taskId}")
        ):
            with ui.row().classes("w-full items-center gap-1 no-wrap"):
                ui.html(_kind(summary), sanitize=False).classes(
                    "mr-auto min-w-0 flex flex-nowrap items-center gap-2"
                )
                self._action(
                    "duplicate", "content_copy", _("Duplicate"), lambda s=summary: self._duplicate_dialog(s)
                )
                self._action("export", "download", _("Export"), lambda s=summary: self._export_dialog(s))
                self._action("delete", "delete", _("Delete"), lambda s=summary: self._delete_dialog(s))
            ui.html(_about(summary), sanitize=False).classes("w-full flex flex-col gap-2")

    @staticmethod
    def _action(marker: str, icon: str, tip: str, action: Callable) -> ui.button:
        return (
            ui.button(icon=icon, on_click=action)
            .props(f'flat round dense size=sm color=grey-8 aria-label="{tip}" title="{tip}"')
            .mark(marker)
        )

    async def _reload(self) -> None:
        with reporting(_("Loading the library")):
            self.tasks = await (await self.studio.service()).list_tasks(self.tenant)
        self.cards.refresh()

    def _duplicate_dialog(self, summary: TaskSummary) -> None:
        async def duplicate() -> None:
            new_id = new_id_input.value.strip()
            if problem := id_problem(new_id):
                new_id_input.props(f'error error-message="{html.escape(problem)}"')
                return
            new_id_input.props(remove="error error-message")
            with reporting(_("Duplicating")):
                service = await self.studio.service()
                stored = await service.get_task(self.tenant, summary.taskId)
                title = _("{title} (copy)").format(title=stored.definition.display_title)
                copy = stored.definition.model_copy(update={"id": new_id, "title": title})
                await service.upsert_task(self.tenant, copy, expected_version=0)  # never over another task
                ui.notify(_("Duplicated as {id}").format(id=new_id), type="positive")
                await self._reload()
                box.close()  # last: closing deletes the dialog, the context of this handler

        with dialog() as box:
            ui.label(_("Duplicate “{title}”").format(title=summary.title or summary.taskId)).classes(
                "text-lg"
            )
            new_id_input = ui.input(_("Id of the copy"), value=f"{summary.taskId}-copy").classes("w-full")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                ui.button(_("Create copy"), on_click=duplicate).props("unelevated")

    def _delete_dialog(self, summary: TaskSummary) -> None:
        async def delete() -> None:
            with reporting(_("Deleting")):
                await (await self.studio.service()).delete_task(self.tenant, summary.taskId)
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
                ui.button(_("Delete"), on_click=delete, color="negative").props("unelevated")

    def _export_dialog(self, summary: TaskSummary) -> None:
        """Built when asked for: a menu on every card would slow the library's first render."""

        async def export(fmt: Format) -> None:
            with reporting(_("Exporting")):
                stored = await (await self.studio.service()).get_task(self.tenant, summary.taskId)
                name, content = task_file(stored.definition, fmt)
                ui.download.content(content, name, f"application/{fmt}")
                box.close()

        with dialog() as box:
            ui.label(_("Export “{title}”").format(title=summary.title or summary.taskId)).classes("text-lg")
            ui.label(_("A task file as `feedback-studio tasks import` reads it.")).classes(
                "text-sm opacity-70"
            )
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                for fmt in ("json", "yaml"):
                    ui.button(
                        _("{format} file").format(format=fmt.upper()), on_click=lambda f=fmt: export(f)
                    ).props("unelevated")

    def _import_dialog(self) -> None:
        async def receive(event: events.UploadEventArguments) -> None:
            try:
                task = task_from_upload(event.file.name, await event.file.read())
            except ValueError as exc:
                ui.notify(str(exc), type="negative", multi_line=True, close_button=True)
                return
            with reporting(_("Importing {file}").format(file=event.file.name)):
                response = await (await self.studio.service()).upsert_task(self.tenant, task)
                ui.notify(
                    _("{file}: task {id} {action}").format(
                        file=event.file.name, id=task.id, action=action_word(response.action)
                    ),
                    type="positive",
                )
            await self._reload()

        with dialog() as box:
            ui.label(_("Import task files")).classes("text-lg")
            ui.label(
                _("JSON or YAML files with one task each, as `feedback-studio tasks export` writes them.")
            ).classes("text-sm opacity-70")
            ui.upload(on_upload=receive, multiple=True, auto_upload=True).props(
                f'accept="{ACCEPTED}"'
            ).classes("w-full")
            ui.button(_("Done"), on_click=box.close).props("flat").classes("self-end")


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
        f'<span title="{v}" style="color: {CHART_COLORS.get(v, CHART_COLORS["UNKNOWN"])}">●</span>'
        for v in summary.lastVerdicts
    )
    answers = summary.interactionCount
    answer_count = plural("{count} answer", "{count} answers", answers).format(count=number(answers, 0))
    return (
        f'<a href="{html.escape(link)}" class="text-base font-medium text-primary no-underline">'
        f"{html.escape(summary.title or summary.taskId)}</a>"
        '<div class="flex items-center gap-1 text-xs opacity-70">'
        f'<span class="truncate mr-auto">{html.escape(summary.taskId)}</span>'
        f'<span class="whitespace-nowrap">{dots} {html.escape(answer_count)}</span></div>'
    )
