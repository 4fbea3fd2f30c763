"""Tutor chat ("/tutor"): pick a tutor (or set one up), optionally ground it in a task, and chat.

The debug drawer on the right collects the DEBUG events of replies asked for in debug mode, so a
teacher can see why the tutor answered as it did without cluttering the conversation.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from nicegui import ui

from core.api import ChatContext, ChatMessage, ChatRequest, Language, ServiceError, TaskSummary, TutorUpsert
from core.client.vocabulary import TEACHER_ID
from webui.components.busy import locked, sends
from webui.components.chat import ChatView
from webui.i18n import N_, _
from webui.page_services import BUILD_SECONDS, PageServices, reporting
from webui.theme import dialog, empty_state, frame

ENGINES = {
    None: N_("The server's default"),
    "grounded": N_("Offline tutor grounded in the task"),
    "llm": N_("Language model (OpenAI-compatible server)"),
}


def register(studio: PageServices) -> None:
    @ui.page("/tutor", response_timeout=BUILD_SECONDS)
    async def tutor_page(tutor: str | None = None) -> None:
        page = TutorPage(studio)
        page.debug_drawer()  # a layout element of the page itself, so outside the frame's column
        with frame(_("Tutor chat")):
            await page.build(tutor)


class TutorPage:
    def __init__(self, studio: PageServices) -> None:
        self.studio = studio
        self.tenant = ""
        self.conversation_id = str(uuid.uuid4())

    async def build(self, chosen: str | None) -> None:
        try:
            service = await self.studio.service()
            self.tenant = await self.studio.tenant(service)
            tutors = await service.list_tutors(self.tenant)
            tasks = await service.list_tasks(self.tenant)
        except ServiceError as exc:
            empty_state("cloud_off", _("The tutors are not available"), exc.message)
            return
        self.grounded_in = {t.id: t.taskId for t in tutors}
        """The task each tutor is grounded in (None: none), shown as the grounding when it is chosen."""
        tasks_shown = {t.taskId for t in tasks}
        with ui.row().classes("w-full items-center gap-2"):
            self.tutor = (
                ui.select(
                    {t.id: t.name for t in tutors},
                    label=_("Tutor"),
                    value=chosen if chosen in {t.id for t in tutors} else (tutors[0].id if tutors else None),
                    on_change=self._choose_tutor,
                )
                .props("outlined dense")
                .classes("min-w-56 max-sm:w-full")
            )
            own_task = self.grounded_in.get(self.tutor.value)
            self.grounding = (
                ui.select(
                    {None: _("No task"), **{t.taskId: t.title or t.taskId for t in tasks}},
                    label=_("Grounded in task"),
                    value=own_task if own_task in tasks_shown else None,
                )
                .props("outlined dense")
                .classes("min-w-56 max-sm:w-full")
                .mark("grounding")
            )
            self.debug = ui.switch(_("Debug mode"))
            ui.space()
            ui.button(_("New tutor"), icon="add", on_click=lambda: self._tutor_dialog(tasks)).props("outline")
            self.restart_button = ui.button(_("Restart"), icon="restart_alt", on_click=self._restart)
            self.restart_button.props("flat").tooltip(_("A new conversation")).mark("restart")
            ui.button(_("Debug"), icon="bug_report", on_click=self.drawer.toggle).props("flat color=accent")
        if not tutors:
            empty_state(
                "forum",
                _("No tutor is set up yet"),
                _("Create one with New tutor: give it a name and, if you like, a task to ground it in."),
            )
            return
        self.chat = ChatView(self.studio, partner=_("Tutor"), on_debug=self._show_debug)
        with ui.row().classes("w-full items-center gap-2 no-wrap"):
            self.input = (
                ui.input(placeholder=_("Ask the tutor…"))
                .props("outlined rounded dense")
                .classes("grow")
                .on("keydown.enter", self._send)
            )
            self.input.mark("chat-input").props["aria-label"] = _("Message to the tutor")
            self.send_button = ui.button(icon="send", on_click=self._send).props("round unelevated")
            self.send_button.tooltip(_("Send")).mark("send").props["aria-label"] = _("Send")
        await self._restart()

    async def _choose_tutor(self) -> None:
        """Another tutor: grounded in its own task (or none), in a fresh conversation."""
        own_task = self.grounded_in.get(self.tutor.value)
        self.grounding.set_value(own_task if own_task in self.grounding.options else None)
        await self._restart()

    async def _restart(self) -> None:
        """A fresh conversation that starts with the tutor's opening messages."""
        self.conversation_id = str(uuid.uuid4())
        self.chat.clear()
        if not self.tutor.value:
            return
        with reporting(_("Loading the tutor")):
            config = await (await self.studio.service()).get_tutor(self.tutor.value, self.tenant)
            for line in config.initial_messages:
                self.chat.show("assistant", line)

    async def _send(self) -> None:
        text = (self.input.value or "").strip()
        if not text or not self.tutor.value or not self.send_button.enabled:
            return  # nothing to send, or a reply still streams
        self.input.value = ""

        def request_for(messages: list[ChatMessage]) -> ChatRequest:
            return ChatRequest(
                messages=messages,
                tutorId=self.tutor.value,
                userId=TEACHER_ID,
                conversationId=self.conversation_id,
                debugMode=self.debug.value,
                # The tutor listed is this tenant's: another tenant may use the same id.
                context=ChatContext(taskId=self.grounding.value or None, tenantId=self.tenant),
            )

        # While the tutor answers, nothing may cut the reply: no second message, no restart.
        with locked(self.input, self.send_button, self.restart_button, self.tutor, self.grounding):
            await self.chat.send(text, request_for)

    def debug_drawer(self) -> None:
        with ui.right_drawer(value=False, bordered=True).props("width=380") as self.drawer:
            ui.label(_("Debug")).classes("text-base font-semibold")
            self.debug_log = ui.column().classes("w-full gap-2")
            with self.debug_log:
                ui.label(
                    _("Switch on debug mode and send a message: what the tutor did shows here.")
                ).classes("text-sm opacity-70")

    def _show_debug(self, text: str, items: list[dict[str, Any]]) -> None:
        with (
            self.debug_log,
            ui.expansion(text or "debug", icon="bug_report", value=True)
            .classes("w-full")
            .mark("debug-entry"),
        ):
            ui.code(json.dumps(items, indent=2, ensure_ascii=False), language="json").classes(
                "w-full text-xs"
            )
        self.drawer.show()

    def _tutor_dialog(self, tasks: list[TaskSummary]) -> None:
        async def create() -> None:
            tutor_id = (tutor_id_input.value or "").strip()
            if not tutor_id:
                ui.notify(_("Give the tutor an id"), type="warning")
                return
            body = TutorUpsert(
                name=(name.value or "").strip() or tutor_id,
                description=description.value or "",
                initial_messages=[line for line in (opening.value or "").splitlines() if line.strip()],
                taskId=task.value,
                language=language.value,
                engine=engine.value,
                instructions=instructions.value or None,
            )
            with reporting(_("Creating the tutor")):
                await (await self.studio.service()).put_tutor(self.tenant, tutor_id, body)
                ui.navigate.to(f"/tutor?tutor={tutor_id}")
                box.close()

        with dialog("w-full max-w-lg") as box:
            ui.label(_("New tutor")).classes("text-lg")
            with ui.row().classes("w-full gap-2 no-wrap"):
                tutor_id_input = ui.input(_("Id")).props("outlined dense").classes("w-1/3")
                name = ui.input(_("Name")).props("outlined dense").classes("grow")
            description = ui.input(_("Description")).props("outlined dense").classes("w-full")
            task = (
                ui.select(
                    {None: _("No task"), **{t.taskId: t.title or t.taskId for t in tasks}},
                    label=_("Task"),
                    value=None,
                )
                .props("outlined dense")
                .classes("w-full")
            )
            with ui.row().classes("w-full gap-2 no-wrap"):
                language = ui.select([lang.value for lang in Language], label=_("Language"), value="EN_US")
                language.props("outlined dense").classes("w-1/3")
                engine = (
                    ui.select({k: _(v) for k, v in ENGINES.items()}, label=_("Engine"), value=None)
                    .props("outlined dense")
                    .classes("grow")
                )
            opening = ui.textarea(_("Opening messages (one a line)")).props("outlined dense autogrow")
            opening.classes("w-full")
            instructions = ui.textarea(_("Instructions")).props("outlined dense autogrow").classes("w-full")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Create")), create).props("unelevated").mark("create-tutor")
