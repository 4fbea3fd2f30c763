"""The task as a learner sees it: answered there, with the feedback a learner reads, and the task's
tutor beside it.

For authors it is the learner preview (a button on the task page opens it). In learner mode
(`feedback-studio web --learners TASK…`, a teacher's class on their phones) these are the only
pages: ``/learn`` lists the chosen tasks and every other page is refused (``LearnersOnly``), so
nobody can author, change the settings or connect the studio to another server.
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

from nicegui import app, ui
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from core.api import (
    ChatContext,
    ChatMessage,
    ChatRequest,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    ServiceError,
    ServiceUnavailable,
    SimulationTask,
    TaskBase,
    TutorConfiguration,
)
from webui.components.busy import locked
from webui.components.chat import ChatView
from webui.components.drafts import keep_drafts
from webui.components.task_types import type_icon, type_label
from webui.components.try_answer import TryAnswer
from webui.i18n import _
from webui.page_services import BUILD_SECONDS, PageServices
from webui.theme import empty_state, frame, section_title

LEARNER_PREFIXES = ("/learn", "/_nicegui")
"""What learner mode serves: the learners' pages and the pages' own assets."""


def learner_id() -> str:
    """An anonymous id per browser, so that a learner's answers and chats belong together."""
    return str(app.storage.user.setdefault("learner_id", f"learner-{uuid.uuid4().hex[:8]}"))


def register(studio: PageServices) -> None:
    chosen = studio.settings.learner_tasks

    @ui.page("/learn", response_timeout=BUILD_SECONDS)
    async def chosen_tasks() -> None:
        with frame(_("Tasks"), navigation=not chosen):
            if not chosen:
                empty_state(
                    "school",
                    _("No tasks are chosen for learners"),
                    _(
                        "Start the studio with `feedback-studio web --learners TASK…`, or preview a task from its page."
                    ),
                )
                return
            tasks: list[TaskBase] = []
            try:
                service = await studio.service()
                tenant = await studio.tenant(service)
                for task_id in chosen:
                    try:
                        tasks.append((await service.get_task(tenant, task_id)).definition)
                    except ServiceUnavailable:
                        raise  # the service does not answer: no other task will come either
                    except ServiceError as exc:  # a task deleted since, say: the others are shown
                        ui.notify(
                            _("{action} failed: {reason}").format(
                                action=_("Loading the task"), reason=exc.message
                            ),
                            type="negative",
                        )
            except ServiceError as exc:
                empty_state("cloud_off", _("The tasks are not available"), exc.message)
                return
            for task in tasks:
                card = ui.card().classes("w-full").props("flat bordered")
                with card, ui.row().classes("items-center gap-2"):
                    ui.icon(type_icon(task.type), color="primary")
                    link = f"/learn/{quote(tenant)}/{quote(task.id)}"
                    ui.link(task.display_title, link).classes("text-base font-medium")

    @ui.page("/learn/{tenant}/{task_id}", response_timeout=BUILD_SECONDS)
    async def learner_page(tenant: str, task_id: str) -> None:
        with frame(_("Task"), navigation=not chosen):
            if chosen and task_id not in chosen:
                empty_state(
                    "block", _("This task is not open to learners"), _("Ask your teacher for the link.")
                )
                return
            try:
                service = await studio.service()
                task = (await service.get_task(tenant, task_id)).definition
                tutors = [t for t in await service.list_tutors(tenant) if t.taskId == task.id]
            except ServiceError as exc:
                empty_state("cloud_off", _("The task is not available"), exc.message)
                return
            await LearnerPage(studio, tenant, task, tutors[0] if tutors else None).build()


class LearnerPage:
    def __init__(
        self, studio: PageServices, tenant: str, task: TaskBase, tutor: TutorConfiguration | None
    ) -> None:
        self.studio, self.tenant, self.task, self.tutor = studio, tenant, task, tutor
        self.conversation_id = str(uuid.uuid4())

    async def build(self) -> None:
        task = self.task
        keep_drafts()  # a phone that was away too long gets the page anew, with what it typed
        with ui.row().classes("items-center gap-2"):
            ui.icon(type_icon(task.type), color="primary", size="md")
            ui.label(task.display_title).classes("text-xl font-semibold")
            ui.label(type_label(task.type)).classes("text-xs uppercase opacity-70")
        if not isinstance(task, InTextFillInBlanksTask | InTextChoicesTask):  # those show it with the gaps
            ui.label(task.problemStatement).classes("whitespace-pre-wrap")
        with ui.row().classes("w-full gap-4 items-start max-md:flex-col"):
            with ui.column().classes("grow basis-0 min-w-0 gap-3 w-full"):
                self._answer()
            if self.tutor is not None:
                with ui.column().classes("grow basis-0 min-w-0 gap-2 w-full"):
                    await self._tutor(self.tutor)

    def _answer(self) -> None:
        if isinstance(self.task, SimulationTask):
            empty_state("theater_comedy", _("A simulation is answered by a conversation"), "")
            return
        TryAnswer(self.studio, self.tenant, self.task, learner_id(), for_learner=True)

    async def _tutor(self, tutor: TutorConfiguration) -> None:
        section_title(tutor.name)
        self.chat = ChatView(self.studio, partner=_("Tutor"), height="h-[45vh]")
        for line in tutor.initial_messages:
            self.chat.show("assistant", line)
        with ui.row().classes("w-full items-center gap-2 no-wrap"):
            self.input = (
                ui.input(placeholder=_("Ask the tutor…")).props("outlined rounded dense").classes("grow")
            ).on("keydown.enter", self._send)
            self.input.mark("chat-input").props["aria-label"] = _("Message to the tutor")
            self.send_button = ui.button(icon="send", on_click=self._send).props("round unelevated")
            self.send_button.tooltip(_("Send")).props["aria-label"] = _("Send")

    async def _send(self) -> None:
        text = (self.input.value or "").strip()
        if not text or self.tutor is None or not self.send_button.enabled:
            return  # nothing to send, or a reply still streams
        self.input.value = ""
        tutor_id = self.tutor.id

        def request_for(messages: list[ChatMessage]) -> ChatRequest:
            return ChatRequest(
                messages=messages,
                tutorId=tutor_id,
                userId=learner_id(),
                conversationId=self.conversation_id,
                context=ChatContext(tenantId=self.tenant),  # the page's tenant, whose tutor it shows
            )

        with locked(self.input, self.send_button):  # one message at a time, as on the tutor page
            await self.chat.send(text, request_for)


class LearnersOnly:
    """ASGI middleware of NiceGUI's app in learner mode: ``/`` leads to the chosen tasks, and any
    page but the learners' is refused (the API keeps its own tokens; it is not behind this)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            if path == "/":
                await RedirectResponse("/learn", status_code=307)(scope, receive, send)
                return
            if not path.startswith(LEARNER_PREFIXES):
                page = "<!doctype html><title>Not here</title><p>This studio only shows its tasks to learners: <a href=/learn>the tasks</a>.</p>"
                await HTMLResponse(page, status_code=404)(scope, receive, send)
                return
        await self.app(scope, receive, send)
