"""The chat component against a scripted stream: pieces grow one bubble, BOUNDARY opens the next,
TRACE brings the thumbs, DEBUG reaches its listener, ERROR is shown where the reply would be.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from nicegui import ui
from nicegui.testing.user_simulation import user_simulation

from core.api import ChatMessage, ChatRequest, InvalidParameter, TutorEvent, TutorEventType
from core.config import Settings
from tests.webui.helpers import SLOW
from webui.components.chat import ChatView
from webui.page_services import PageServices


class ScriptedService:
    """Just enough of a Service for the chat: replays the events it was given."""

    def __init__(self, events: list[TutorEvent], fail_with: Exception | None = None) -> None:
        self.events = events
        self.fail_with = fail_with
        self.requests: list[ChatRequest] = []

    async def chat_stream(self, request: ChatRequest) -> AsyncIterator[TutorEvent]:
        self.requests.append(request)
        if self.fail_with:
            raise self.fail_with
        for event in self.events:
            yield event


def event(kind: TutorEventType, text: str = "", items: list | None = None) -> TutorEvent:
    return TutorEvent(event=kind, text=text, list=items)


def chat_page(service: ScriptedService) -> tuple[Callable[[], None], list[tuple[str, list]]]:
    """A page with a chat on the scripted service and a button that sends "Hi"; the debug events seen."""
    debug: list[tuple[str, list]] = []

    async def open_service(_):
        return service

    def root() -> None:
        chat = ChatView(
            PageServices(Settings(), open_service),
            partner="Tutor",
            on_debug=lambda t, i: debug.append((t, i)),
        )

        async def send() -> None:
            await chat.send("Hi", lambda messages: ChatRequest(messages=messages, tutorId="t"))

        ui.button("go", on_click=send)

    return root, debug


async def test_pieces_grow_a_bubble_and_a_boundary_opens_the_next() -> None:
    service = ScriptedService(
        [
            event(TutorEventType.MESSAGE, "Hel"),
            event(TutorEventType.MESSAGE, "lo!"),
            event(TutorEventType.BOUNDARY, "<MESSAGE_BOUNDARY>"),
            event(TutorEventType.MESSAGE, "How can I help?"),
            event(TutorEventType.TRACE, "trace-1"),
            event(TutorEventType.DEBUG, "steps", [{"step": "retrieve"}]),
            event(TutorEventType.DONE, "[DONE]"),
        ]
    )
    root, debug = chat_page(service)
    async with user_simulation(root) as user:
        await user.open("/")
        user.find("go").click()
        await user.should_see(marker="thumb-up", retries=SLOW)
        contents = [m.content for m in user.find(ui.markdown).elements]
        assert sorted(contents) == sorted(["Hello!", "How can I help?"])  # the tutor's bubbles
        assert [label.text for label in user.find(marker="learner-text").elements] == ["Hi"]
        assert len(user.find(ui.chat_message).elements) == 3
    assert debug == [("steps", [{"step": "retrieve"}])]
    assert service.requests[0].messages == [ChatMessage(role="user", content="Hi")]


async def test_an_error_event_is_shown_in_place_of_the_reply() -> None:
    root, _ = chat_page(ScriptedService([event(TutorEventType.ERROR, "the model is unreachable")]))
    async with user_simulation(root) as user:
        await user.open("/")
        user.find("go").click()
        await user.should_see("The reply failed: the model is unreachable", retries=SLOW)


async def test_a_refused_request_is_shown_in_the_services_words() -> None:
    root, _ = chat_page(ScriptedService([], fail_with=InvalidParameter("tutor 't' does not exist")))
    async with user_simulation(root) as user:
        await user.open("/")
        user.find("go").click()
        await user.should_see("The reply failed: tutor 't' does not exist", retries=SLOW)
