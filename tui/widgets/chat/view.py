"""A conversation with a tutor (or a simulation persona) whose replies stream in.

Each reply streams into a Markdown bubble through ``Markdown.get_stream``; a BOUNDARY event
starts the next bubble; TRACE gives the id that the thumbs rate; DEBUG events are posted to
the parent, which decides whether to show them; ERROR becomes a notification with its text.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from contextlib import aclosing
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from core.api import ChatContext, ChatMessage, ChatRequest, ChatTurn, TraceRating, TutorEvent, TutorEventType
from tui.i18n import _
from tui.service_calls import service_call, studio
from tui.widgets.empty import EmptyState


class Bubble(Markdown):
    """A message of the tutor or the persona, rendered as the Markdown it writes."""

    def __init__(self, role: str, text: str = "") -> None:
        super().__init__(text, classes=f"bubble bubble-{role}")
        self.role = role


class LearnerBubble(Static):
    """What the learner typed, shown as typed: a learner's `*` or `#` is not Markdown."""

    role = "user"

    def __init__(self, text: str) -> None:
        super().__init__(text, markup=False, classes="bubble bubble-user")
        self.source = text


class ChatView(Vertical):
    DEFAULT_CLASSES = "chat-view"

    class ReplyStarted(Message):
        """A reply streams from now until ReplyFinished: whatever would cut it waits."""

    class ReplyFinished(Message):
        """A reply ended (DONE, ERROR or a failed call); ``texts`` holds its bubbles' texts."""

        def __init__(self, texts: list[str], trace_id: str | None) -> None:
            super().__init__()
            self.texts, self.trace_id = texts, trace_id

    class DebugReceived(Message):
        def __init__(self, event: TutorEvent) -> None:
            super().__init__()
            self.event = event

    def __init__(self, *, empty_hint: str, user_id: str, task_id: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.empty_hint = empty_hint
        self.user_id = user_id
        """Who is writing (core.client.vocabulary): the teacher in a chat, the learner in a rehearsal."""
        self.task_id = task_id
        self.tutor_id: str | None = None
        self.tenant_id: str | None = None
        """The tenant of the tutor, named in every chat (each tenant names its own tutors)."""
        self.conversation_id: str | None = None
        self.debug = False
        self.messages: list[ChatMessage] = []
        self.trace_id: str | None = None
        self.streaming = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="bubbles"):
            yield EmptyState(self.empty_hint, id="chat-empty")
        with Horizontal(id="chat-input-row"):
            yield Input(placeholder=_("Write a message and press enter"), id="chat-input", disabled=True)
            yield Button(_("Send"), id="chat-send", variant="primary", disabled=True)
        with Horizontal(id="trace-actions") as actions:
            actions.display = False  # until a reply with a trace is there to rate
            yield Label(_("Rate this reply:"), classes="hint")
            yield Button("▲ " + _("Helpful"), id="trace-good", compact=True)
            yield Button("▼ " + _("Not helpful"), id="trace-bad", compact=True)
            yield Label("", id="trace-status")

    @property
    def transcript(self) -> list[ChatTurn]:
        """The learner-visible turns, in the order the service counts them (message indexes)."""
        return [ChatTurn(role=m.role, content=m.content) for m in self.messages if m.role != "system"]

    async def reset(
        self,
        tutor_id: str,
        greetings: Sequence[str] = (),
        conversation_id: str | None = None,
        tenant_id: str | None = None,
    ) -> None:
        """Start a new conversation with ``tutor_id`` (of ``tenant_id``); its greetings open it as
        tutor bubbles. Without ``conversation_id`` (a simulation session's) the conversation is
        named here, as the web app names it, and every turn of it sends that id: the service
        keeps one conversation per chat rather than one per turn."""
        conversation_id = conversation_id or str(uuid.uuid4())
        self.tutor_id, self.conversation_id, self.tenant_id = tutor_id, conversation_id, tenant_id
        self.messages = [ChatMessage(role="assistant", content=text) for text in greetings]
        self.trace_id = None
        bubbles = self.query_one("#bubbles")
        await bubbles.query(".bubble").remove()
        await bubbles.mount_all(Bubble("assistant", text) for text in greetings)
        self.query_one("#chat-empty").display = not greetings
        self.query_one("#trace-actions").display = False
        self._set_ready(True)
        self.query_one("#chat-input", Input).focus()

    def end(self) -> None:
        """The conversation takes no more messages (a simulation whose last turn was taken)."""
        self._set_ready(False)

    def _set_ready(self, ready: bool) -> None:
        self.query_one("#chat-input", Input).disabled = not ready
        self.query_one("#chat-send", Button).disabled = not ready

    @on(Input.Submitted, "#chat-input")
    @on(Button.Pressed, "#chat-send")
    async def _send(self, event: Message) -> None:
        event.stop()
        field = self.query_one("#chat-input", Input)
        text = field.value.strip()
        if not text or self.tutor_id is None:
            return
        field.value = ""
        self.messages.append(ChatMessage(role="user", content=text))
        self.streaming = True
        self._set_ready(False)
        self.query_one("#trace-actions").display = False
        self.query_one("#chat-empty").display = False
        await self.query_one("#bubbles").mount(LearnerBubble(text))
        self.post_message(self.ReplyStarted())
        self.stream_reply(
            ChatRequest(
                messages=list(self.messages),
                tutorId=self.tutor_id,
                userId=self.user_id,
                conversationId=self.conversation_id,
                debugMode=self.debug,
                context=ChatContext(taskId=self.task_id, tenantId=self.tenant_id)
                if self.task_id or self.tenant_id
                else None,
            )
        )

    async def _new_bubble(self) -> Bubble:
        bubble = Bubble("assistant")
        bubbles = self.query_one("#bubbles")
        await bubbles.mount(bubble)
        bubbles.scroll_end(animate=False)
        bubble.loading = True  # until its first words arrive
        return bubble

    @work(exclusive=True, group="chat")
    async def stream_reply(self, request: ChatRequest) -> None:
        bubbles = self.query_one("#bubbles", VerticalScroll)
        bubble = await self._new_bubble()
        stream: MarkdownStream | None = None
        """Opened on a bubble's first words: a stream stopped before any never finished."""
        texts, trace_id = [""], None
        answered = False
        try:
            async with service_call(self, _("Chat")):
                service = await studio(self).ready()
                async with aclosing(service.chat_stream(request)) as events:
                    async for event in events:
                        if event.event is TutorEventType.MESSAGE:
                            bubble.loading = False
                            texts[-1] += event.text
                            stream = stream or Markdown.get_stream(bubble)
                            await stream.write(event.text)
                            bubbles.call_after_refresh(bubbles.scroll_end, animate=False)
                        elif event.event is TutorEventType.BOUNDARY:
                            if stream is not None:
                                await stream.stop()
                            bubble, stream = await self._new_bubble(), None
                            texts.append("")
                        elif event.event is TutorEventType.TRACE:
                            trace_id = event.text
                        elif event.event is TutorEventType.DEBUG:
                            self.post_message(self.DebugReceived(event))
                        elif event.event is TutorEventType.ERROR:
                            self.notify(
                                event.text, title=_("The tutor failed"), severity="error", markup=False
                            )
                            break
                        elif event.event is TutorEventType.DONE:
                            answered = True
                            break
                    else:
                        answered = True  # a stream that ends without DONE ended all the same
        finally:
            bubble.loading = False
            if stream is not None:
                await stream.stop()
            for empty in [b for b in bubbles.query(Bubble) if b.role == "assistant" and not b.source]:
                await empty.remove()
            if not answered:
                self._not_answered()
            self._finish([t for t in texts if t] if answered else [], trace_id)

    def _not_answered(self) -> None:
        """The turn failed: its message leaves the conversation (the next turn would send it again
        beside the new one) and its bubble says so; the author writes it again if they want."""
        sent = [i for i, message in enumerate(self.messages) if message.role == "user"]
        if sent:
            del self.messages[sent[-1]]
        for mine in list(self.query(LearnerBubble))[-1:]:
            mine.add_class("bubble-failed")
            mine.update(f"{mine.source}\n✘ " + _("No reply: this message is not part of the conversation."))

    def _finish(self, texts: list[str], trace_id: str | None) -> None:
        self.messages += [ChatMessage(role="assistant", content=t) for t in texts]
        self.trace_id = trace_id
        self.streaming = False
        self.query_one("#trace-status", Label).update("")
        self.query_one("#trace-actions").display = trace_id is not None
        self._set_ready(True)
        self.query_one("#chat-input", Input).focus()
        self.post_message(self.ReplyFinished(texts, trace_id))

    @on(Button.Pressed, "#trace-good,#trace-bad")
    def _rate(self, event: Button.Pressed) -> None:
        event.stop()
        if self.trace_id:
            self.rate(self.trace_id, 1 if event.button.id == "trace-good" else 0)

    @work(exclusive=True, group="trace-rating")
    async def rate(self, trace_id: str, score: int) -> None:
        async with service_call(self, _("Rating the reply"), busy=self.query_one("#trace-actions")):
            await (await studio(self).ready()).rate_trace(trace_id, TraceRating(score=score))
            self.query_one("#trace-status", Label).update(
                "✔ thanks: rated helpful" if score else "✔ rated not helpful"
            )
