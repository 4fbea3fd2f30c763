"""Tutor chat: pick a tutor, chat while the reply streams in, rate replies, watch the debug events."""

from __future__ import annotations

import json
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Header, Input, Label, RichLog, Select

from core.api import TutorConfiguration, TutorUpsert
from core.client.vocabulary import TEACHER_ID
from tui.dialogs.new_tutor import NewTutorScreen
from tui.i18n import _
from tui.service_calls import service_call, studio
from tui.widgets.chat.view import ChatView
from tui.widgets.footer import KeysFooter


class ChatScreen(Screen[None]):
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", _("Back")),
        Binding("f4", "toggle_debug", _("Debug panel")),
        Binding("ctrl+n", "restart", _("New conversation")),
    ]
    WAITS_FOR_FOCUS = True
    """Keys typed while the tutors load wait for the message field (FeedbackStudioApp.hold_keys)."""

    class TutorsLoaded(Message):
        def __init__(self, tutors: list[TutorConfiguration]) -> None:
            super().__init__()
            self.tutors = tutors

    class TutorCreated(Message):
        def __init__(self, tutor: TutorConfiguration) -> None:
            super().__init__()
            self.tutor = tutor

    def __init__(self, task_id: str | None = None, task_title: str | None = None) -> None:
        super().__init__()
        self.task_id = task_id
        self.task_title = task_title or task_id
        self.tutors: dict[str, TutorConfiguration] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(classes="toolbar", id="chat-toolbar"):
            yield Label(_("Tutor"), classes="toolbar-label")
            yield Select[str]([], prompt=_("loading tutors…"), id="tutor-select", compact=True)
            yield Input(placeholder=_("tutor id, enter to open"), id="tutor-id", compact=True)
            yield Label(f"about task {self.task_id}" if self.task_id else "", classes="hint")
            yield Checkbox(_("Debug events"), id="debug-switch", compact=True)
            yield Button(_("New conversation"), id="restart", compact=True)
        with Horizontal(id="chat-columns"):
            hint = _("Choose a tutor above, then write to it: its reply streams in here.")
            yield ChatView(empty_hint=hint, user_id=TEACHER_ID, task_id=self.task_id, id="tutor-chat")
            yield RichLog(id="debug-log", wrap=True, markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#debug-log").display = False
        self.load_tutors()

    @work(exclusive=True, group="tutors")
    async def load_tutors(self) -> None:
        async with service_call(self, _("Loading the tutors"), busy=self.query_one("#chat-toolbar")):
            app = studio(self)
            service = await app.ready()
            tutors = await service.list_tutors(app.tenant_id) if app.extensions else []
            self.post_message(self.TutorsLoaded(tutors))
            return
        studio(self).release_keys()

    def on_chat_screen_tutors_loaded(self, message: TutorsLoaded) -> None:
        self.tutors = {t.id: t for t in message.tutors}
        select = self.query_one("#tutor-select", Select)
        listed = bool(message.tutors)
        select.display = listed
        self.query_one("#tutor-id").display = not listed
        ordered = sorted(message.tutors, key=lambda t: t.name.casefold())
        if listed:
            select.set_options((t.name, t.id) for t in ordered)
        grounded = next((t.id for t in ordered if self.task_id and t.taskId == self.task_id), None)
        if self.task_id and grounded is None and studio(self).extensions:
            # another task's tutor would talk about that task: offer one grounded in this one

            self.app.push_screen(
                NewTutorScreen(self.task_id, self.task_title or self.task_id, self.tutors), self._tutor_wanted
            )
            return
        if not listed:
            self.set_focus(self.query_one("#tutor-id"))
            studio(self).release_keys()
            return
        select.value = grounded or ordered[0].id

    def _tutor_wanted(self, wanted: tuple[str, TutorUpsert] | None) -> None:
        if wanted is not None:
            self.create_tutor(*wanted)
            return
        self.notify(
            _("No tutor is grounded in this task: choose one above, or press ctrl+t on the task again."),
            title=_("No tutor chosen"),
        )
        self.set_focus(self.query_one("#tutor-select" if self.tutors else "#tutor-id"))

    @work(exclusive=True, group="tutors")
    async def create_tutor(self, tutor_id: str, upsert: TutorUpsert) -> None:
        async with service_call(self, _("Creating the tutor"), busy=self.query_one("#chat-toolbar")):
            app = studio(self)
            tutor = await (await app.ready()).put_tutor(app.tenant_id, tutor_id, upsert)
            self.post_message(self.TutorCreated(tutor))

    def on_chat_screen_tutor_created(self, message: TutorCreated) -> None:
        self.tutors[message.tutor.id] = message.tutor
        ordered = sorted(self.tutors.values(), key=lambda t: t.name.casefold())
        select = self.query_one("#tutor-select", Select)
        select.set_options((t.name, t.id) for t in ordered)
        select.display, self.query_one("#tutor-id").display = True, False
        select.value = message.tutor.id  # Select.Changed starts the conversation with it
        self.notify(
            _("Tutor {id} created for this task.").format(id=message.tutor.id), title=_("Tutor created")
        )

    @on(Select.Changed, "#tutor-select")
    async def _tutor_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):  # a tutor's id; Select.NULL when cleared
            await self._start(self.tutors[event.value])

    @on(Input.Submitted, "#tutor-id")
    @work(exclusive=True, group="tutors")
    async def open_tutor(self, event: Input.Submitted) -> None:
        async with service_call(self, _("Opening the tutor")):
            service = await studio(self).ready()
            await self._start(await service.get_tutor(event.value.strip(), studio(self).tenant_id or None))

    async def _start(self, tutor: TutorConfiguration) -> None:
        self.tutors[tutor.id] = tutor
        # Each tenant names its own tutors: the chat names the tenant this tutor was read from.
        tenant = tutor.tenantId or studio(self).tenant_id or None
        await self.query_one(ChatView).reset(tutor.id, tutor.initial_messages, tenant_id=tenant)
        studio(self).release_keys()  # what was typed meanwhile is the first message

    async def action_restart(self) -> None:
        chat = self.query_one(ChatView)
        if chat.tutor_id and not chat.streaming:  # a new conversation would cut the reply
            await self._start(self.tutors[chat.tutor_id])

    @on(Button.Pressed, "#restart")
    async def _restart(self) -> None:
        await self.action_restart()

    @on(ChatView.ReplyStarted)
    @on(ChatView.ReplyFinished)
    def _lock_while_streaming(self) -> None:
        """Another tutor or a new conversation would cut the reply that streams."""
        streaming = self.query_one(ChatView).streaming
        for control in self.query("#tutor-select, #tutor-id, #restart"):
            control.disabled = streaming

    @on(Checkbox.Changed, "#debug-switch")
    def _debug(self, event: Checkbox.Changed) -> None:
        self.query_one(ChatView).debug = event.value
        self.query_one("#debug-log").display = event.value

    def action_toggle_debug(self) -> None:
        switch = self.query_one("#debug-switch", Checkbox)
        switch.value = not switch.value

    @on(ChatView.DebugReceived)
    def _debug_event(self, message: ChatView.DebugReceived) -> None:
        log = self.query_one("#debug-log", RichLog)
        log.write(f"── {message.event.text}")
        for item in message.event.items or []:
            log.write(json.dumps(item, indent=2, ensure_ascii=False))
