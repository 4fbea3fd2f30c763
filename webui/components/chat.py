"""A conversation with a tutor or a persona, its reply streaming piece by piece into bubbles.

Like NiceGUI's chat examples, each reply grows inside a ui.markdown in a ui.chat_message as the
MESSAGE events arrive; a BOUNDARY closes the bubble and the next piece opens a new one. TRACE
brings thumbs up and down that rate the reply's trace; DEBUG goes to whoever listens (the
debug drawer); ERROR is shown where the reply would have been, in the service's words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import aclosing, contextmanager
from typing import Any, Literal

from nicegui import ui

from core.api import ChatMessage, ChatRequest, TraceRating, TutorEventType
from webui.components.busy import sends
from webui.i18n import _
from webui.page_services import PageServices, failure_text, reporting

RequestFor = Callable[[list[ChatMessage]], ChatRequest]
DebugListener = Callable[[str, list[dict[str, Any]]], None]


class ChatView:
    def __init__(
        self,
        studio: PageServices,
        *,
        partner: str,
        on_debug: DebugListener | None = None,
        height: str = "h-[55vh]",
    ) -> None:
        self.studio = studio
        self.partner = partner
        self.on_debug = on_debug
        self.messages: list[ChatMessage] = []
        self.scroll = ui.scroll_area().classes(f"w-full {height} rounded-lg border border-gray-400/40")
        with self.scroll:
            self.column = ui.column().classes("w-full gap-1 p-2").props('data-testid="chat"')
            self.typing = ui.spinner("dots", size="lg").classes("ml-4").mark("typing")
            self.typing.visible = False

    def clear(self) -> None:
        self.messages.clear()
        self.column.clear()

    def show(self, role: Literal["user", "assistant"], text: str) -> None:
        """A finished message (a tutor's opening line, say), kept in the conversation."""
        self.messages.append(ChatMessage(role=role, content=text))
        if role == "user":
            # What the learner typed is shown as typed: a learner's `*` or `#` is not Markdown.
            with self._message(sent=True):
                ui.label(text).classes("whitespace-pre-wrap").mark("learner-text")
        else:
            self._bubble(sent=False).set_content(text)

    async def send(self, text: str, request_for: RequestFor) -> bool:
        """Send the learner's message and stream the reply in; False when no reply came."""
        self.show("user", text)
        self.typing.visible = True
        try:
            return await self._stream(request_for(list(self.messages)))
        finally:
            self.typing.visible = False
            self.scroll.scroll_to(percent=1.0)

    async def _stream(self, request: ChatRequest) -> bool:
        bubble: ui.markdown | None = None
        reply = ""
        replied = False
        try:
            service = await self.studio.service()
            async with aclosing(service.chat_stream(request)) as events:
                async for event in events:
                    if event.event is TutorEventType.MESSAGE:
                        if bubble is None:
                            bubble, reply = self._bubble(sent=False), ""
                        reply += event.text
                        bubble.set_content(reply)
                        self.scroll.scroll_to(percent=1.0)
                    elif event.event is TutorEventType.BOUNDARY and bubble is not None:
                        self.messages.append(ChatMessage(role="assistant", content=reply))
                        bubble, replied = None, True
                    elif event.event is TutorEventType.TRACE:
                        self._thumbs(event.text)
                    elif event.event is TutorEventType.DEBUG and self.on_debug:
                        self.on_debug(event.text, event.items or [])
                    elif event.event is TutorEventType.ERROR:
                        self._error(event.text)
                    elif event.event is TutorEventType.DONE:
                        break
        except Exception as exc:
            self._error(failure_text(exc))
        if bubble is not None:
            self.messages.append(ChatMessage(role="assistant", content=reply))
            replied = True
        return replied

    def _bubble(self, *, sent: bool) -> ui.markdown:
        with self._message(sent=sent):
            return ui.markdown()

    @contextmanager
    def _message(self, *, sent: bool) -> Iterator[ui.chat_message]:
        colors = "bg-color=primary text-color=white" if sent else "bg-color=grey-3 text-color=black"
        with self.column, ui.chat_message(name=_("You") if sent else self.partner, sent=sent) as message:
            message.classes("fs-bubble").props(colors)
            yield message

    def _thumbs(self, trace_id: str) -> None:
        async def rate(score: int) -> None:
            with reporting(_("Rating the reply")):
                await (await self.studio.service()).rate_trace(trace_id, TraceRating(score=score))
                up.disable()
                down.disable()
                ui.notify(_("Thanks: the rating of this reply is saved"), type="positive")

        with self.column, ui.row().classes("gap-0 ml-10"):
            up = sends(ui.button(icon="thumb_up"), lambda: rate(1)).mark("thumb-up")
            up.props('flat round dense size=sm aria-label="Good reply"').tooltip(_("Good reply"))
            down = sends(ui.button(icon="thumb_down"), lambda: rate(0)).mark("thumb-down")
            down.props('flat round dense size=sm aria-label="Bad reply"').tooltip(_("Bad reply"))

    def _error(self, text: str) -> None:
        with self.column, ui.row().classes("items-center gap-2 text-negative ml-4"):
            ui.icon("error")
            ui.label(_("The reply failed: {reason}").format(reason=text))
