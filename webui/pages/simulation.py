"""Simulation sessions ("/simulation"): talk to a task's persona, then get the feedback on it.

A session is started by the service (which sets up the persona's tutor and the conversation);
the conversation is answered by its id, so the feedback judges exactly the stored transcript.
"""

from __future__ import annotations

from nicegui import ui

from core.api import (
    ChatMessage,
    ChatRequest,
    ChatTurn,
    ComputeTaskFeedbackRequest,
    ServiceError,
    SimulationAnswer,
    SimulationSession,
    SimulationTask,
    StartSimulationRequest,
    TaskType,
)
from core.client.interactions import interaction_label
from core.client.vocabulary import REHEARSAL_LEARNER_ID
from webui.components.busy import locked, sends
from webui.components.chat import ChatView
from webui.components.feedback_view import feedback_view
from webui.i18n import _, language, number, plural
from webui.page_services import BUILD_SECONDS, PageServices, reporting
from webui.theme import dialog, empty_state, frame, section_title


def register(studio: PageServices) -> None:
    @ui.page("/simulation", response_timeout=BUILD_SECONDS)
    async def simulation_page(task: str | None = None) -> None:
        with frame(_("Simulation")):
            await SimulationPage(studio).build(task)


class SimulationPage:
    def __init__(self, studio: PageServices) -> None:
        self.studio = studio
        self.tenant = ""
        self.task: SimulationTask | None = None
        self.session: SimulationSession | None = None

    async def build(self, chosen: str | None) -> None:
        try:
            service = await self.studio.service()
            self.tenant = await self.studio.tenant(service)
            tasks = [
                t for t in await service.list_tasks(self.tenant) if t.type == TaskType.SIMULATION.schema_name
            ]
        except ServiceError as exc:
            empty_state("cloud_off", _("The simulation tasks are not available"), exc.message)
            return
        if not tasks:
            empty_state(
                "theater_comedy",
                _("No simulation task yet"),
                _(
                    "Create one in the library (New task → Simulation): a scenario, a persona and what the learner should do."
                ),
            )
            ui.button(
                _("New simulation task"), icon="add", on_click=lambda: ui.navigate.to("/new/SIMULATION")
            ).classes("self-center")
            return
        ids = {t.taskId for t in tasks}
        self.picker = (
            ui.select(
                {t.taskId: t.title or t.taskId for t in tasks},
                label=_("Simulation task"),
                value=chosen if chosen in ids else tasks[0].taskId,
                on_change=self._show_task,
            )
            .props("outlined dense")
            .classes("min-w-72")
        )
        self.brief = ui.column().classes("w-full gap-2")
        self.stage = ui.column().classes("w-full gap-3")
        await self._show_task()

    async def _show_task(self) -> None:
        self.session = None
        self.brief.clear()
        self.stage.clear()
        with reporting(_("Loading the task")):
            stored = await (await self.studio.service()).get_task(self.tenant, self.picker.value)
            task = stored.definition
            assert isinstance(task, SimulationTask)  # the picker lists simulation tasks only
            self.task = task
            with self.brief, ui.card().classes("w-full gap-2").props("flat bordered"):
                ui.label(task.display_title).classes("text-lg font-semibold")
                ui.label(task.problemStatement).classes("whitespace-pre-wrap")
                if task.scenarioDescription:
                    ui.label(task.scenarioDescription).classes("text-sm opacity-80 whitespace-pre-wrap")
                if task.persona:
                    with ui.row().classes("items-center gap-2"):
                        ui.icon("person", color="accent")
                        ui.label(f"{task.persona.name}: {task.persona.description}").classes("text-sm")
                limits = [
                    plural("{count} turn", "{count} turns", task.maxTurns).format(count=task.maxTurns)
                    if task.maxTurns
                    else "",
                    _minutes(task.timeLimitInMinutes),
                ]
                if any(limits):
                    ui.label(_("Limits: ") + ", ".join(x for x in limits if x)).classes("text-xs opacity-70")
                self.start_button = ui.button(
                    _("Start session"), icon="play_arrow", on_click=self._start
                ).props("unelevated")

    async def _start(self) -> None:
        """Start a session; one with the learner's turns in it is not replaced without asking."""
        if self.session is not None and any(m.role == "user" for m in self.chat.messages):
            with dialog() as box:
                ui.label(_("Start a new session?")).classes("text-lg")
                ui.label(
                    _("The conversation on this page ends here; it stays in the task's history.")
                ).classes("text-sm opacity-70")
                with ui.row().classes("w-full justify-end"):
                    ui.button(_("Cancel"), on_click=box.close).props("flat")
                    ui.button(_("Start again"), on_click=lambda: self._restart(box)).props("unelevated")
            return
        await self._open_session()

    async def _restart(self, box: ui.dialog) -> None:
        await self._open_session()
        box.close()  # last: closing deletes the dialog, the context of this handler

    async def _open_session(self) -> None:
        assert self.task is not None
        self.start_button.props("loading")
        try:
            with reporting(_("Starting the session")):
                request = StartSimulationRequest(
                    simulationTask=self.task, tenantId=self.tenant, userId=REHEARSAL_LEARNER_ID
                )
                self.session = await (await self.studio.service()).start_simulation(request)
                self._stage()
        finally:
            self.start_button.props(remove="loading")

    def _stage(self) -> None:
        assert self.task is not None and self.session is not None
        self.stage.clear()
        persona = self.task.persona.name if self.task.persona else _("Persona")
        with self.stage:
            expires = (
                _(" · ends {time}").format(time=f"{self.session.expiresAt:%H:%M}")
                if self.session.expiresAt
                else ""
            )
            ui.label(
                _("Session {id}").format(id=interaction_label(self.session.id, language())) + expires
            ).classes("text-xs opacity-70")
            self.chat = ChatView(self.studio, partner=persona, height="h-[45vh]")
            for line in self.session.initialMessages:
                self.chat.show("assistant", line)
            with ui.row().classes("w-full items-center gap-2 no-wrap"):
                self.input = (
                    ui.input(placeholder=_("Answer {persona}…").format(persona=persona))
                    .props("outlined rounded dense")
                    .classes("grow")
                    .on("keydown.enter", self._send)
                )
                self.input.mark("chat-input").props["aria-label"] = _("Your reply")
                self.send_button = (
                    ui.button(icon="send", on_click=self._send)
                    .props("round unelevated")
                    .tooltip(_("Send"))
                    .mark("send")
                )
                self.send_button.props["aria-label"] = _("Send")
            # one conversation, one feedback: a double click would judge it twice
            self.finish_button = sends(ui.button(_("Finish and get feedback"), icon="flag"), self._finish)
            self.finish_button.props("outline")
            self.result = ui.column().classes("w-full")

    async def _send(self) -> None:
        text = (self.input.value or "").strip()
        if not text or self.session is None or not self.send_button.enabled:
            return
        self.input.value = ""
        session = self.session

        def request_for(messages: list[ChatMessage]) -> ChatRequest:
            return ChatRequest(
                messages=messages,
                tutorId=session.tutorId,
                userId=REHEARSAL_LEARNER_ID,
                conversationId=session.conversationId,
            )

        # While the persona answers, nothing may cut the reply: no second message, no feedback on
        # half a conversation.
        with locked(self.input, self.send_button, self.finish_button):
            await self.chat.send(text, request_for)

    async def _finish(self) -> None:
        assert self.task is not None and self.session is not None
        request = ComputeTaskFeedbackRequest(
            userId=REHEARSAL_LEARNER_ID,
            tenantId=self.tenant,
            taskType=TaskType.SIMULATION,
            answer=SimulationAnswer(conversationId=self.session.conversationId),
        )
        with reporting(_("Feedback")):
            feedback = await (await self.studio.service()).compute_feedback_for_task(self.task.id, request)
            transcript = [ChatTurn(role=m.role, content=m.content) for m in self.chat.messages]
            self.result.clear()
            with self.result:
                section_title(_("Feedback on the conversation"))
                feedback_view(self.studio, self.task, feedback, transcript)


def _minutes(limit: float | None) -> str:
    return (
        plural("{count} minute", "{count} minutes", int(limit)).format(count=number(limit)) if limit else ""
    )
