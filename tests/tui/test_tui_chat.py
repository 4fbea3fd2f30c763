"""Tutor chat on the embedded service: the reply streams into bubbles until DONE, it can be rated,
and debug events show in the panel; a scripted stream pins how BOUNDARY and ERROR are shown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import select
from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Select

from core.api import ChatRequest, TutorEvent, TutorEventType, TutorUpsert
from core.auth import ALL_PERMISSIONS, Principal
from core.service.local import LocalService
from core.store import models as m
from core.store import principals
from tests.tui.helpers import (
    SIZE,
    library_loaded,
    notifications,
    notified,
    open_task,
    settle,
    text_of,
    wait_until,
)
from tui.app import FeedbackStudioApp
from tui.dialogs.new_tutor import NewTutorScreen
from tui.screens.chat import ChatScreen
from tui.widgets.chat.view import Bubble, ChatView, LearnerBubble


def replies(chat: ChatView) -> list[str]:
    return [b.source for b in chat.query(Bubble) if b.role == "assistant"]


async def send(pilot, chat: ChatView, text: str) -> None:
    """Send ``text`` and wait until its turn is over (answered, or failed and said so)."""
    before = len(chat.query(LearnerBubble))
    await pilot.click(chat.query_one("#chat-input", Input))
    chat.query_one("#chat-input", Input).value = text
    await pilot.press("enter")
    await wait_until(
        pilot,
        lambda: (
            len(chat.query(LearnerBubble)) > before
            and not chat.streaming
            and not chat.query_one("#chat-input").disabled
        ),
    )


async def open_chat(pilot) -> ChatView:
    app = pilot.app
    await pilot.press("f3")
    await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))
    chat = app.screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.tutor_id is not None)
    return chat


async def test_chat_streams_the_reply_until_done_and_rates_it(pilot):
    chat = await open_chat(pilot)
    screen = pilot.app.screen
    assert screen.query_one("#tutor-select", Select).value == chat.tutor_id
    greeting = replies(chat)
    assert greeting  # the tutor's initial messages open the conversation

    await pilot.click("#debug-switch")
    await send(pilot, chat, "Why does the bulb not light up with one wire?")
    assert [b.source for b in chat.query(".bubble") if b.role == "user"] == [
        "Why does the bulb not light up with one wire?"
    ]
    assert len(replies(chat)) > len(greeting) and all(replies(chat))
    assert chat.trace_id and chat.query_one("#trace-actions").display
    assert screen.query_one("#debug-log", RichLog).display and screen.query_one("#debug-log", RichLog).lines

    await pilot.click("#trace-good")
    await wait_until(pilot, lambda: text_of(chat.query_one("#trace-status")))
    assert text_of(chat.query_one("#trace-status")) == "✔ thanks: rated helpful"

    await send(pilot, chat, "I connected both ends of the battery to the bulb.")
    assert [m.role for m in chat.messages].count("user") == 2


async def test_chat_from_a_task_picks_the_tutor_grounded_in_it(pilot):
    await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+t")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChatScreen))
    chat = pilot.app.screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.tutor_id is not None)
    assert chat.tutor_id == "tutor-bulb-circuit-en" and chat.task_id == "ff-bulb-circuit-en"


class ScriptedStream:
    """The embedded service with a chat stream that replays fixed events (everything else is real)."""

    def __init__(self, service, events: list[TutorEvent | Exception]) -> None:
        self._service, self._events = service, events
        self.requests: list[ChatRequest] = []

    def __getattr__(self, name):
        return getattr(self._service, name)

    async def chat_stream(self, request: ChatRequest) -> AsyncIterator[TutorEvent]:
        self.requests.append(request)
        for event in self._events:
            if isinstance(event, Exception):
                raise event
            yield event


@asynccontextmanager
async def scripted_chat(
    studio, events: list[TutorEvent | Exception], *, debug: bool = False
) -> AsyncIterator[tuple[Pilot, ChatView, ScriptedStream]]:
    """The chat screen after sending "Hello" to a service that answers with ``events``."""
    scripted = ScriptedStream(studio, events)
    app = FeedbackStudioApp(service=scripted)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        chat = await open_chat(pilot)
        if debug:
            await pilot.click("#debug-switch")
        await send(pilot, chat, "Hello")
        yield pilot, chat, scripted
        await settle(pilot)


async def test_each_boundary_starts_a_new_bubble_and_debug_events_reach_the_panel(studio):
    events = [
        TutorEvent.message("First "),
        TutorEvent.message("part."),
        TutorEvent.boundary(),
        TutorEvent.message("Second **bubble**."),
        TutorEvent(event=TutorEventType.TRACE, text="trace-1"),
        TutorEvent(event=TutorEventType.DEBUG, text="debug", items=[{"rung": "ask_tried"}]),
        TutorEvent.done(),
    ]
    async with scripted_chat(studio, events, debug=True) as (pilot, chat, scripted):
        assert scripted.requests[0].debugMode
        log = chat.screen.query_one("#debug-log", RichLog)
        await wait_until(pilot, lambda: log.lines)
        assert any("ask_tried" in line.text for line in log.lines)
        assert replies(chat)[-2:] == ["First part.", "Second **bubble**."]
        assert chat.trace_id == "trace-1" and chat.query_one("#trace-actions").display
        assert [m.content for m in chat.messages[-2:]] == ["First part.", "Second **bubble**."]
        assert scripted.requests[0].messages[-1].content == "Hello"


async def test_an_error_event_is_shown_as_a_notification(studio):
    events = [
        TutorEvent.message("Let me"),
        TutorEvent(event=TutorEventType.ERROR, text="the tutor engine timed out"),
    ]
    async with scripted_chat(studio, events) as (pilot, chat, _):
        assert replies(chat)[-1] == "Let me"
        await notified(pilot, "The tutor failed", "the tutor engine timed out")
        assert not chat.query_one("#trace-actions").display  # nothing to rate without a trace
        assert not chat.query_one("#chat-input").disabled


async def test_a_fault_in_the_service_is_notified_and_the_chat_goes_on(studio):
    events = [TutorEvent.message("Half a"), RuntimeError("engine crashed")]
    async with scripted_chat(studio, events) as (pilot, chat, _):
        await notified(pilot, "Chat failed unexpectedly", "RuntimeError: engine crashed")
        assert replies(chat)[-1] == "Half a"
        assert not chat.query_one("#chat-input").disabled


async def test_the_learners_message_is_shown_as_typed_not_as_markdown(pilot):
    chat = await open_chat(pilot)
    typed = "# 2 * 3 = *six*"
    await send(pilot, chat, typed)
    [mine] = [b for b in chat.query(".bubble") if b.role == "user"]
    assert isinstance(mine, LearnerBubble) and mine.source == typed
    assert str(mine.render()) == typed


async def test_a_tutor_is_opened_and_chatted_with_in_the_apps_tenant(studio):
    """A teacher working in tenant B, with access to "default" too, where the demo tutor's id is
    taken: the typed id opens B's tutor of that id or none, never the other tenant's."""
    runtime = studio.runtime
    await runtime.db.run_write(lambda c: principals.ensure_tenant(c, "tenB"))
    grants = dict.fromkeys(["default", "tenB"], ALL_PERMISSIONS)
    teacher = LocalService(runtime, Principal("teacher", "teacher", "tenB", grants))
    app = FeedbackStudioApp(service=teacher)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        await pilot.press("f3")
        await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))
        typed = app.screen.query_one("#tutor-id", Input)
        await wait_until(pilot, lambda: typed.display)  # tenant B has no tutor to list yet
        chat = app.screen.query_one(ChatView)

        typed.value = "tutor-bulb-circuit-en"
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("tenB" in message for _, message in notifications(app)))
        assert chat.tutor_id is None  # "default"'s tutor of that id is not B's

        await teacher.put_tutor(
            "tenB", "tutor-bulb-circuit-en", TutorUpsert(name="B", initial_messages=["B here."])
        )
        await pilot.click(typed)
        await pilot.press("enter")
        await wait_until(pilot, lambda: chat.tutor_id is not None)
        assert replies(chat) == ["B here."]
        await send(pilot, chat, "Hello")
        await settle(pilot)
    [trace] = await runtime.db.run_read(lambda c: c.execute(select(m.Trace)).all())
    assert trace.tenant_id == "tenB" and trace.request["context"]["tenantId"] == "tenB"


class GatedStream(ScriptedStream):
    """Sends its first piece, then holds the reply open until the test lets it finish."""

    def __init__(self, service) -> None:
        super().__init__(service, [])
        self.gate = asyncio.Event()

    async def chat_stream(self, request: ChatRequest) -> AsyncIterator[TutorEvent]:
        self.requests.append(request)
        yield TutorEvent.message("Think of ")
        await self.gate.wait()
        yield TutorEvent.message("the current.")
        yield TutorEvent.done()


async def test_while_a_reply_streams_nothing_that_would_cut_it_takes_input(studio):
    gated = GatedStream(studio)
    app = FeedbackStudioApp(service=gated)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        chat = await open_chat(pilot)
        screen = app.screen
        await pilot.click(chat.query_one("#chat-input", Input))
        chat.query_one("#chat-input", Input).value = "Why is it dark?"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Think of " in replies(chat))
        locked = ["#chat-input", "#chat-send", "#tutor-select", "#restart"]
        assert all(screen.query_one(selector).disabled for selector in locked)
        await pilot.press("ctrl+n")  # a new conversation now would cut the reply: it waits
        assert [m.content for m in chat.messages if m.role == "user"] == ["Why is it dark?"]

        gated.gate.set()
        # the reply ends, then the screen hears of it (ReplyFinished) and gives the controls back
        await wait_until(pilot, lambda: not any(screen.query_one(selector).disabled for selector in locked))
        assert not chat.streaming
        assert replies(chat)[-1] == "Think of the current."
        await settle(pilot)


class FailingOnce(ScriptedStream):
    """A tutor whose first turn fails (an ERROR event) and whose later turns answer."""

    async def chat_stream(self, request: ChatRequest) -> AsyncIterator[TutorEvent]:
        self.requests.append(request)
        if len(self.requests) == 1:
            yield TutorEvent(event=TutorEventType.ERROR, text="the tutor engine timed out")
            return
        yield TutorEvent.message("Good question.")
        yield TutorEvent(event=TutorEventType.TRACE, text="trace-2")
        yield TutorEvent.done()


async def test_a_failed_message_is_marked_and_not_sent_again_with_the_next(studio):
    scripted = FailingOnce(studio, [])
    app = FeedbackStudioApp(service=scripted)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        chat = await open_chat(pilot)
        assert not chat.query_one("#trace-actions").display  # nothing to rate before a reply
        await send(pilot, chat, "Hello")
        failed = chat.query(LearnerBubble).last()
        assert failed.has_class("bubble-failed") and "No reply" in text_of(failed)
        assert not chat.query_one("#trace-actions").display
        await send(pilot, chat, "Why is the sky blue?")
        sent = [m.content for m in scripted.requests[1].messages if m.role == "user"]
        assert sent == ["Why is the sky blue?"]
        assert chat.query_one("#trace-actions").display
        await settle(pilot)


async def test_every_turn_of_a_chat_is_one_conversation(pilot, studio):
    """Five turns were five stored conversations: each turn names the chat's conversation, and
    a new conversation (ctrl+n) is a second one."""

    async def conversations() -> list[tuple[str, int]]:
        query = select(m.Trace).where(m.Trace.tutor_id == chat.tutor_id)
        rows = await studio.runtime.db.run_read(lambda c: c.execute(query).all())
        ids = [t.conversation_id for t in rows]
        return sorted((i, ids.count(i)) for i in set(ids) if i)

    chat = await open_chat(pilot)
    for text in ("What is a closed circuit?", "And a battery?", "And the bulb?"):
        await send(pilot, chat, text)
    first = chat.conversation_id
    assert await conversations() == [(first, 3)]
    await pilot.press("ctrl+n")
    await wait_until(pilot, lambda: chat.conversation_id != first)
    await send(pilot, chat, "Hello again")
    assert sorted(await conversations()) == sorted([(first, 3), (chat.conversation_id, 1)])
    await settle(pilot)


async def test_chat_about_a_task_without_a_tutor_offers_to_create_one(pilot, studio):
    """It opened the first tutor in alphabetical order, another task's; now it offers a tutor
    grounded in this task, saved through the service's tutor upsert."""

    app = pilot.app
    await open_task(pilot, "blanks-water-cycle-en")
    await pilot.press("ctrl+t")
    await wait_until(pilot, lambda: isinstance(app.screen, NewTutorScreen))
    await pilot.press("escape")  # no: no other task's tutor is chosen instead
    await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))
    await notified(pilot, "No tutor chosen")
    assert app.screen.query_one(ChatView).tutor_id is None

    await pilot.press("escape")
    await pilot.press("ctrl+t")
    await wait_until(pilot, lambda: isinstance(app.screen, NewTutorScreen))
    assert app.screen.query_one("#tutor-new-id", Input).value == "tutor-blanks-water-cycle-en"
    await pilot.click("#create")
    await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))
    chat = app.screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.tutor_id == "tutor-blanks-water-cycle-en")
    assert replies(chat) == ["Hello! Let us work on “The water cycle” together. What have you tried so far?"]
    tutor = await studio.get_tutor("tutor-blanks-water-cycle-en", "default")
    assert tutor.taskId == "blanks-water-cycle-en" and tutor.name == "Tutor: The water cycle"
    await send(pilot, chat, "Where does the water go when it evaporates?")
    assert chat.task_id == "blanks-water-cycle-en"
    await settle(pilot)
