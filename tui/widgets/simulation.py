"""A simulation session: read the scenario, start a session, role-play with the persona, then ask
for feedback on the conversation (answered by the session's conversationId)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Static

from core.api import ChatTurn, SimulationSession, SimulationTask, StartSimulationRequest
from core.client.vocabulary import REHEARSAL_LEARNER_ID
from tui.i18n import _, number, plural
from tui.service_calls import service_call, studio
from tui.widgets.chat.view import ChatView


def scenario_text(task: SimulationTask) -> Text:
    text = Text.assemble((_("Scenario  "), "bold"), task.scenarioDescription or task.problemStatement)
    if task.persona:
        text.append_text(
            Text.assemble("\n", (_("Persona   "), "bold"), task.persona.name, " — ", task.persona.description)
        )
    limits = [
        plural("{count} minute", "{count} minutes", int(task.timeLimitInMinutes)).format(
            count=number(task.timeLimitInMinutes)
        )
        if task.timeLimitInMinutes
        else "",
        plural("{count} turn", "{count} turns", task.maxTurns).format(count=task.maxTurns)
        if task.maxTurns
        else "",
    ]
    if any(limits):
        text.append_text(Text.assemble("\n", (_("Limits    "), "bold"), ", ".join(x for x in limits if x)))
    return text


class SimulationPanel(Vertical):
    DEFAULT_CLASSES = "simulation-panel"

    class FeedbackWanted(Message):
        """The learner finished the role-play; the screen asks for feedback on the conversation."""

        def __init__(self, conversation_id: str) -> None:
            super().__init__()
            self.conversation_id = conversation_id

    def __init__(self, task: SimulationTask, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.definition = task
        self.session: SimulationSession | None = None

    def compose(self) -> ComposeResult:
        yield Static(scenario_text(self.definition), id="scenario")
        with Horizontal(classes="toolbar"):
            yield Button(_("Start session"), id="sim-start", variant="primary")
            yield Button(_("Finish and get feedback"), id="sim-finish", disabled=True)
        yield ChatView(
            user_id=REHEARSAL_LEARNER_ID,
            empty_hint=_("Press “Start session” to meet the persona, then answer as the learner would."),
        )

    @on(Button.Pressed, "#sim-start")
    def _start(self, event: Button.Pressed) -> None:
        event.stop()
        self.start()

    @work(exclusive=True, group="simulation")
    async def start(self) -> None:
        async with service_call(self, _("Starting the session"), busy=self.query_one(ChatView)):
            app = studio(self)
            service = await app.ready()
            request = StartSimulationRequest(
                simulationTask=self.definition, tenantId=app.tenant_id, userId=REHEARSAL_LEARNER_ID
            )
            self.session = await service.start_simulation(request)
            await self.query_one(ChatView).reset(
                self.session.tutorId, self.session.initialMessages, self.session.conversationId
            )
            self.query_one("#sim-start", Button).label = _("Start again")

    @on(ChatView.ReplyStarted)
    def _replying(self) -> None:
        """While the persona answers, no feedback on half a reply and no new session cutting it."""
        for button in self.query("#sim-finish, #sim-start"):
            button.disabled = True

    @on(ChatView.ReplyFinished)
    def _replied(self) -> None:
        self.query_one("#sim-start", Button).disabled = False
        self.query_one("#sim-finish", Button).disabled = False
        turns = sum(turn.role == "user" for turn in self.transcript)
        if self.definition.maxTurns and turns >= self.definition.maxTurns:
            self.query_one(ChatView).end()  # the session is over: the service would refuse a next turn

    @on(Button.Pressed, "#sim-finish")
    def _finish(self, event: Button.Pressed) -> None:
        event.stop()
        self.finish()

    def finish(self) -> None:
        """Ask for feedback once the learner has said something; before that there is nothing to judge."""
        if self.session and not self.query_one("#sim-finish", Button).disabled:
            self.post_message(self.FeedbackWanted(self.session.conversationId))
        else:
            self.notify(_("Start the session and answer the persona first."), severity="warning")

    @property
    def transcript(self) -> list[ChatTurn]:
        return self.query_one(ChatView).transcript
