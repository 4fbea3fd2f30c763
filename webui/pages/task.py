"""The task page at the taskLink the API hands out ("/tasks/{tenantId}/{taskId}"), and "/new/{type}".

Try, Edit and History are tabs of one page, so an author edits, tries again and sees the effect
without losing their place. The history is read when its tab is first opened, not before.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from nicegui import ui

from core.api import (
    ComputeTaskFeedbackRequest,
    ServiceError,
    SimulationTask,
    StoredTask,
    TaskBase,
    try_parse_task_type,
)
from webui.components.answer_forms import answer_form
from webui.components.feedback_view import feedback_view
from webui.components.history import history_view
from webui.components.task_editor import new_draft, task_editor
from webui.components.task_types import type_icon, type_label
from webui.context import Studio, reporting
from webui.theme import empty_state, frame

AUTHOR_ID = "studio-author"
"""The userId of answers tried in the studio, so their history tells them from learners' answers."""


def register(studio: Studio) -> None:
    @ui.page("/tasks/{tenant_id}/{task_id}", response_timeout=30)
    async def task_page(tenant_id: str, task_id: str) -> None:
        with frame("Task"):
            try:
                stored = await (await studio.service()).get_task(tenant_id, task_id)
            except ServiceError as exc:
                empty_state("search_off", f"Task {task_id} is not available", exc.message)
                ui.button("Back to the library", icon="arrow_back", on_click=lambda: ui.navigate.to("/"))
                return
            TaskPage(studio, stored).build()

    @ui.page("/new/{type_name}")
    async def new_task_page(type_name: str) -> None:
        task_type = try_parse_task_type(type_name)
        with frame("New task"):
            if task_type is None:
                empty_state(
                    "help", f"There is no task type {type_name}", "Pick a type under New task in the library."
                )
                return
            service = await studio.service()
            tenant = await studio.tenant(service)
            with ui.row().classes("items-center gap-2"):
                ui.icon(type_icon(task_type), color="primary", size="md")
                ui.label(f"New {type_label(task_type).lower()} task").classes("text-xl font-semibold")

            async def open_saved(task: TaskBase) -> None:
                ui.navigate.to(f"/tasks/{tenant}/{task.id}")

            task_editor(studio, tenant, new_draft(task_type), is_new=True, on_saved=open_saved)


class TaskPage:
    def __init__(self, studio: Studio, stored: StoredTask) -> None:
        self.studio = studio
        self.stored = stored
        self.task: TaskBase = stored.definition
        self.history_loaded = False

    def build(self) -> None:
        self._header()
        with ui.tabs().classes("w-full").props("align=left no-caps") as tabs:
            try_tab = ui.tab("Try", icon="play_circle")
            edit_tab = ui.tab("Edit", icon="edit")
            history_tab = ui.tab("History", icon="insights")
        with ui.tab_panels(tabs, value=try_tab).classes("w-full bg-transparent").props("animated=false"):
            with ui.tab_panel(try_tab).classes("px-0"):
                self._try()
            with ui.tab_panel(edit_tab).classes("px-0"):
                task_editor(
                    self.studio,
                    self.stored.tenantId,
                    copy.deepcopy(self.task.to_wire()),
                    is_new=False,
                    on_saved=self._reload,
                )
            with ui.tab_panel(history_tab).classes("px-0") as history_panel:
                ui.spinner(size="lg").classes("self-center")
        self.history_panel = history_panel
        tabs.on_value_change(self._tab_opened)

    def _header(self) -> None:
        task = self.task
        with ui.row().classes("w-full items-center gap-2"):
            ui.icon(type_icon(task.task_type), color="primary", size="md")
            ui.label(task.display_title).classes("text-xl font-semibold")
            ui.badge(task.language.value, color="secondary").props("outline")
            ui.space()
            ui.label(f"{task.id} · version {self.stored.version}").classes("text-xs text-grey-7")
        ui.label(task.problemStatement).classes("whitespace-pre-wrap")

    def _try(self) -> None:
        if isinstance(self.task, SimulationTask):
            empty_state(
                "theater_comedy",
                "A simulation is answered by a conversation",
                "Run a session with the persona on the Simulation page; its feedback shows there.",
            )
            target = f"/simulation?task={self.task.id}"
            ui.button("Open the simulation", icon="play_arrow", on_click=lambda: ui.navigate.to(target))
            return
        with ui.card().classes("w-full gap-3").props("flat bordered"):
            read_answer = answer_form(self.task)
            button = ui.button(
                "Get feedback", icon="rate_review", on_click=lambda: self._compute(read_answer, button)
            )
            button.props("unelevated").classes("self-end")
        self.results = ui.column().classes("w-full gap-3")

    async def _compute(self, read_answer: Callable[[], dict], button: ui.button) -> None:
        try:
            request = ComputeTaskFeedbackRequest(
                userId=AUTHOR_ID,
                tenantId=self.stored.tenantId,
                taskType=self.task.task_type,
                answer=read_answer(),
            )
        except ValueError as exc:
            ui.notify(f"The answer is incomplete: {exc}", type="warning", multi_line=True)
            return
        button.props("loading")
        try:
            with reporting("Feedback"):
                feedback = await (await self.studio.service()).compute_feedback_for_task(
                    self.task.id, request
                )
                self.results.clear()
                with self.results:
                    feedback_view(self.studio, self.task, feedback)
        finally:
            button.props(remove="loading")

    async def _tab_opened(self, event) -> None:
        """The history is read the first time its tab opens (and a reload reads it again)."""
        if event.value != "History" or self.history_loaded:
            return
        self.history_loaded = True
        with reporting("Loading the history"):
            records = await (await self.studio.service()).list_interactions(
                self.stored.tenantId, self.task.id
            )
            self.history_panel.clear()
            with self.history_panel:
                history_view(self.studio, self.task, records)

    async def _reload(self, _: TaskBase) -> None:
        ui.navigate.reload()
