"""Contract: tutor configurations, chat, the event stream, trace ratings, simulation sessions."""

from __future__ import annotations

from typing import Any

import pytest

from core.api import (
    ChatMessage,
    ChatRequest,
    ChatResponse,
    Correctness,
    InvalidParameter,
    MissingPermissions,
    NotFound,
    SimulationAnswer,
    StartSimulationRequest,
    TraceRating,
    TutorEvent,
    TutorEventType,
    parse_task,
)
from core.assets import demo_tasks
from core.service.base import Service
from tests.contract.builders import USER, chat, compute, mc_task, simulation_task, tutor

pytestmark = pytest.mark.contract


async def with_tutor(service: Service, tutor_id: str = "tutor-1") -> str:
    await service.upsert_task("default", mc_task())
    await service.put_tutor("default", tutor_id, tutor())
    return tutor_id


async def events_of(service: Service, *args: str, **kwargs: Any) -> list[TutorEvent]:
    return [event async for event in service.chat_stream(chat(*args, **kwargs))]


async def test_tutor_configurations_are_put_read_and_listed(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    put = await service.put_tutor("default", "tutor-1", tutor())
    assert (put.id, put.name, put.initial_messages, put.taskId) == (
        "tutor-1",
        "Geography tutor",
        ["Hi!"],
        "mc-1",
    )
    assert await service.get_tutor("tutor-1") == put
    replaced = await service.put_tutor("default", "tutor-1", tutor(name="Renamed"))
    assert replaced.name == "Renamed"
    assert [t.id for t in await service.list_tutors("default") if t.id == "tutor-1"] == ["tutor-1"]


async def test_tutor_errors(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.get_tutor("no-such-tutor")
    with pytest.raises(InvalidParameter, match="does not exist"):
        await service.put_tutor("default", "tutor-1", tutor(task_id="no-such-task"))
    with pytest.raises(MissingPermissions):
        await service.put_tutor("elsewhere", "tutor-1", tutor(task_id=None))


async def test_chat_replies_and_its_trace_can_be_rated(service: Service) -> None:
    reply = await service.chat(chat(await with_tutor(service)))
    assert reply.message and reply.messages and reply.traceId
    assert reply.message == "\n\n".join(reply.messages)
    assert reply.debugLogs == []
    rated = await service.rate_trace(reply.traceId, TraceRating(score=1, comment="helpful"))
    assert rated.success and rated.message
    assert (await service.rate_trace(reply.traceId, TraceRating(score=0))).success


async def test_rating_an_unknown_trace_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.rate_trace("no-such-trace", TraceRating(score=1))


async def test_the_stream_has_the_documented_order(service: Service) -> None:
    events = await events_of(service, await with_tutor(service), debugMode=True)
    kinds = [e.event for e in events]
    assert kinds[-3:] == [TutorEventType.TRACE, TutorEventType.DEBUG, TutorEventType.DONE]
    assert set(kinds[:-3]) <= {TutorEventType.MESSAGE, TutorEventType.BOUNDARY}
    assert kinds[0] is TutorEventType.MESSAGE
    assert events[-1] == TutorEvent.done()
    assert isinstance(events[-2].items, list)


async def test_the_stream_says_what_chat_says(service: Service) -> None:
    tutor_id = await with_tutor(service)
    events = await events_of(service, tutor_id, conversationId="c-stream")
    reply = await service.chat(chat(tutor_id, conversationId="c-chat"))
    texts = [""]
    for event in events:
        if event.event is TutorEventType.BOUNDARY:
            texts.append("")
        elif event.event is TutorEventType.MESSAGE:
            texts[-1] += event.text
    assert texts == reply.messages


async def test_stream_errors_before_the_first_event_are_raised(service: Service) -> None:
    with pytest.raises(NotFound, match="no-such-tutor"):
        await events_of(service, "no-such-tutor")
    with pytest.raises(NotFound):
        await service.chat(chat("no-such-tutor"))


async def test_healthcheck_chat_makes_a_round_trip(service: Service) -> None:
    reply = await service.healthcheck_chat()
    assert isinstance(reply, ChatResponse)
    assert reply.message
    assert reply.traceId == ""  # a probe records no trace


async def test_simulation_session_is_started_held_and_given_feedback(service: Service) -> None:
    session = await service.start_simulation(
        StartSimulationRequest(simulationTask=simulation_task(), tenantId="default", userId=USER)
    )
    assert (session.taskId, session.userId, session.initialMessages) == (
        "sim-1",
        USER,
        ["My parcel still has not arrived!"],
    )
    assert session.id == session.conversationId and session.expiresAt is not None
    assert (await service.get_tutor(session.tutorId)).taskId == "sim-1"
    events = await events_of(
        service, session.tutorId, "I am sorry, let me check it.", conversationId=session.conversationId
    )
    assert events[-1] == TutorEvent.done()
    feedback = await service.compute_feedback(
        compute(simulation_task(), SimulationAnswer(conversationId=session.conversationId).to_wire())
    )
    assert feedback.result.type == "SimulationFeedback"
    assert feedback.result.verdict in set(Correctness)


async def test_a_simulation_tutor_needs_its_session(service: Service) -> None:
    session = await service.start_simulation(
        StartSimulationRequest(simulationTask=simulation_task(), tenantId="default")
    )
    with pytest.raises(NotFound, match="start one"):
        await service.chat(chat(session.tutorId, "Hello"))


async def test_a_freeform_tutor_reads_the_learner_through_the_leak_guard(service: Service) -> None:
    """Quoting the learner's words that say the opposite, and naming the concepts the learner has
    said over several messages, hand nothing away: both reach the learner as planned."""
    task = parse_task(next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en"))
    await service.upsert_task("default", task)
    await service.put_tutor("default", "circuit-tutor", tutor(task_id=task.id, name="Circuit tutor"))
    history: list[ChatMessage] = []
    replies = []
    for text in [
        "The circuit must not be closed.",
        "The current goes from plus through the bulb back to minus, in a closed circuit.",
        "And then the current flows through the filament, which gets hot and glows.",
    ]:
        history.append(ChatMessage(role="user", content=text))
        reply = await service.chat(
            ChatRequest(tutorId="circuit-tutor", messages=history, conversationId="c-reads-the-learner")
        )
        replies.append(reply.message)
        history += [ChatMessage(role="assistant", content=m) for m in reply.messages]
    assert "“circuit must not be closed”" in replies[0]
    assert "Closed circuit, Current heats the filament" in replies[2]
