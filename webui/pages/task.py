"""The task page at the taskLink the API hands out ("/tasks/{tenantId}/{taskId}"), and "/new/{type}".

Try, Edit, History, Retest, Test answers and Versions are tabs of one page, so an author edits,
tries again and sees the effect without losing their place. The history and the retest run when their tab is first opened,
not before (unless the page is opened on it, ``?tab=Versions``); the test answers are read again
each time their tab is shown, as Try and History keep new ones. Retest, Test answers and Versions
are offered only by a service with the authoring extensions.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote

from nicegui import events, ui

from core.api import ServiceError, SimulationTask, TaskBase, TaskType, try_parse_task_type
from core.api.validation import GAP
from core.client.library import OpenedTask
from core.client.templates import new_task
from core.client.vocabulary import AUTHOR_ID
from webui.components.class_sets import TAB as CLASS_SETS_TAB
from webui.components.class_sets import ClassSetsPanel
from webui.components.history import history_view
from webui.components.retest_view import RetestPanel
from webui.components.task_editor import task_editor
from webui.components.task_test_answers import TAB as TEST_ANSWERS_TAB
from webui.components.task_test_answers import TaskTestAnswersPanel
from webui.components.task_types import type_icon, type_label
from webui.components.task_versions import TAB as VERSIONS_TAB
from webui.components.task_versions import VersionsPanel
from webui.components.try_answer import TryAnswer
from webui.i18n import N_, _, language
from webui.page_services import BUILD_SECONDS, PageServices, reporting
from webui.theme import APP_TITLE, empty_state, frame


def register(studio: PageServices) -> None:
    @ui.page("/tasks/{tenant_id}/{task_id}", response_timeout=BUILD_SECONDS)
    async def task_page(tenant_id: str, task_id: str, tab: str = "") -> None:
        """``tab`` names the tab to open (its English name), e.g. ``?tab=Versions``."""
        with frame(_("Task")):
            try:
                library = await studio.library(tenant_id)
                opened = await library.open(task_id)
            except ServiceError as exc:
                empty_state("search_off", _("Task {id} is not available").format(id=task_id), exc.message)
                ui.button(_("Back to the library"), icon="arrow_back", on_click=lambda: ui.navigate.to("/"))
                return
            ui.page_title(f"{opened.task.display_title} · {APP_TITLE}")
            await TaskPage(studio, tenant_id, opened, library.extensions, opened=tab).build()

    @ui.page("/new/{type_name}", response_timeout=BUILD_SECONDS)
    async def new_task_page(type_name: str) -> None:
        task_type = try_parse_task_type(type_name)
        with frame(_("New task")):
            if task_type is None:
                empty_state(
                    "help",
                    _("There is no task type {name}").format(name=type_name),
                    _("Pick a type under New task in the library."),
                )
                return
            try:
                library = await studio.library()
                taken = {t.taskId for t in await library.list()}
            except ServiceError as exc:
                empty_state("cloud_off", _("The service did not answer"), exc.message)
                return
            tenant = library.tenant_id
            # the example of the type (core.client.templates), as in the terminal app: an author
            # starts from a valid task of the shape to fill, under an id the library has free
            draft = new_task(task_type, taken, language()).to_wire()
            with ui.row().classes("items-center gap-2"):
                ui.icon(type_icon(task_type), color="primary", size="md")
                ui.label(_("New task: {type}").format(type=type_label(task_type))).classes(
                    "text-xl font-semibold"
                )

            async def open_saved(task: TaskBase) -> None:
                ui.navigate.to(f"/tasks/{tenant}/{task.id}")

            task_editor(studio, tenant, draft, version=0, on_saved=open_saved)


@dataclass(frozen=True)
class Tab:
    """One tab of the task page. A lazy tab is built the first time it opens (with a spinner till
    then), so reading, say, the whole history costs nothing until someone looks at it."""

    name: str
    icon: str
    build: Callable[[TaskPage], Awaitable[None] | None]
    lazy: bool = False
    reread: bool = False
    """Built again each time it is shown, as what it shows changes on other tabs (a lazy tab)."""
    extension: bool = False
    """Needs Feedback Studio's authoring extensions, which a remote server of the API may lack."""
    only: TaskType | None = None
    """The one task type that has the tab (None: every type)."""


class TaskPage:
    def __init__(
        self, studio: PageServices, tenant_id: str, task: OpenedTask, extensions: bool, opened: str = ""
    ) -> None:
        self.studio = studio
        self.tenant_id = tenant_id
        self.task: TaskBase = task.task
        self.version = task.version
        """The stored version (None on a remote without the extensions, which keeps none)."""
        self.tabs = [
            tab
            for tab in TABS
            if (extensions or not tab.extension) and tab.only in (None, task.task.task_type)
        ]
        self.opened = opened if any(tab.name == opened for tab in self.tabs) else self.tabs[0].name
        self.panels: dict[str, ui.tab_panel] = {}
        self.pending: set[str] = set()
        """The lazy tabs not built yet."""

    async def build(self) -> None:
        self._header()
        with ui.tabs().classes("w-full").props("align=left no-caps") as tabs:
            for tab in self.tabs:
                ui.tab(tab.name, label=_(tab.name), icon=tab.icon)
        with ui.tab_panels(tabs, value=self.opened).classes("w-full bg-transparent").props("animated=false"):
            for tab in self.tabs:
                with ui.tab_panel(tab.name).classes("px-0") as self.panels[tab.name]:
                    if tab.lazy and tab.name != self.opened:
                        ui.spinner(size="lg").classes("self-center")
                        self.pending.add(tab.name)
                    elif built := tab.build(self):
                        await built
        tabs.on_value_change(self._tab_opened)

    async def _tab_opened(
        self, event: events.ValueChangeEventArguments[str | ui.tab | ui.tab_panel | None]
    ) -> None:
        tab = next(t for t in self.tabs if t.name == event.value)
        if tab.name not in self.pending and not tab.reread:
            return
        self.pending.discard(tab.name)
        panel = self.panels[tab.name]
        shown = list(panel)  # the spinner, or what the tab showed last time: kept till the new is built
        with panel:
            if built := tab.build(self):
                await built
        for element in shown:
            panel.remove(element)

    def _header(self) -> None:
        task = self.task
        with ui.row().classes("w-full items-center gap-2"):
            ui.icon(type_icon(task.task_type), color="primary", size="md")
            ui.label(task.display_title).classes("text-xl font-semibold")
            ui.badge(task.language.value, color="secondary").props("outline")
            ui.space()
            about = task.id if self.version is None else _("{id} · version {version}")
            ui.label(about.format(id=task.id, version=self.version)).classes("text-xs opacity-70")
            preview = f"/learn/{quote(self.tenant_id)}/{quote(task.id)}"
            ui.button(
                _("Preview as learner"), icon="visibility", on_click=lambda: ui.navigate.to(preview)
            ).props("flat dense no-caps").mark("learner-preview")
        ui.label(GAP.sub("____", task.problemStatement)).classes("whitespace-pre-wrap")

    def _try(self) -> None:
        if isinstance(self.task, SimulationTask):
            empty_state(
                "theater_comedy",
                _("A simulation is answered by a conversation"),
                _("Run a session with the persona on the Simulation page; its feedback shows there."),
            )
            target = f"/simulation?task={self.task.id}"
            ui.button(_("Open the simulation"), icon="play_arrow", on_click=lambda: ui.navigate.to(target))
            return
        TryAnswer(self.studio, self.tenant_id, self.task, AUTHOR_ID, for_learner=False)

    def _edit(self) -> None:
        task_editor(
            self.studio,
            self.tenant_id,
            copy.deepcopy(self.task.to_wire()),
            version=self.version,
            on_saved=self._reload,
        )

    async def _history(self) -> None:
        with reporting(_("Loading the history")):
            records = await (await self.studio.service()).list_interactions(self.tenant_id, self.task.id)
            history_view(self.studio, self.task, records)

    async def _retest(self) -> None:
        await RetestPanel(self.studio, self.tenant_id, self.task).build()

    async def _test_answers(self) -> None:
        await TaskTestAnswersPanel(self.studio, self.tenant_id, self.task).build()

    async def _class_sets(self) -> None:
        await ClassSetsPanel(self.studio, self.tenant_id, self.task).build()

    async def _versions(self) -> None:
        await VersionsPanel(self.studio, self.tenant_id, self.task.id).build()

    async def _reload(self, _: TaskBase) -> None:
        ui.navigate.reload()


TABS = [
    Tab(N_("Try"), "play_circle", TaskPage._try),
    Tab(N_("Edit"), "edit", TaskPage._edit),
    Tab(N_("History"), "insights", TaskPage._history, lazy=True, reread=True),
    Tab(N_("Retest"), "published_with_changes", TaskPage._retest, lazy=True, extension=True),
    Tab(TEST_ANSWERS_TAB, "verified", TaskPage._test_answers, lazy=True, reread=True, extension=True),
    Tab(VERSIONS_TAB, "history", TaskPage._versions, lazy=True, extension=True),
    Tab(
        CLASS_SETS_TAB, "groups", TaskPage._class_sets, lazy=True, extension=True, only=TaskType.FREEFORM_TEXT
    ),
]
"""The tabs of the task page, in order; a workflow of its own adds one here."""
