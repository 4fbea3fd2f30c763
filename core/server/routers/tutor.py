"""The tutor (API.md 4 and 6): chat, the SSE stream, configurations, trace ratings, health checks.

The stream is FastAPI's own Server-Sent Events (fastapi.sse). Its first event is taken in a
dependency, before the response starts, so that an unknown tutor, a missing permission or a
finished session is answered as a plain JSON error and not as a stream; a failure after that is
an ERROR event, and the stream ends. That first event comes as soon as the turn is prepared, not
with the engine's first text (``opening_at_once``: an empty MESSAGE, sent as an SSE comment), so
the headers and a first line go out at once, however long a language model takes; FastAPI then
sends a keep-alive comment every 15 s of silence.

The same dependency closes the stream when the request ends, however it ends. When the client
goes away, FastAPI cancels the task that pulls the events; if that task was waiting to hand an
event on, the events' generator is left suspended, and nothing but the garbage collector would
ever close it: the engine's request to a language model would run on, unread, for as long as the
model writes (seen as an intermittent test failure, 2026-11).
"""

from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator
from contextlib import aclosing
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.sse import EventSourceResponse, ServerSentEvent

from core.api import (
    ChatRequest,
    ChatResponse,
    HealthStatus,
    PathId,
    TraceRating,
    TraceRatingResponse,
    TutorConfiguration,
    TutorEvent,
    TutorEventType,
    TutorUpsert,
)
from core.server.deps import ServiceDep
from core.server.errors import internal_error
from core.service.tutors import STREAM_OPENED, opening_at_once

router = APIRouter(tags=["tutor"])


def sse(event: TutorEvent) -> ServerSentEvent:
    if event is STREAM_OPENED:
        return ServerSentEvent(comment="stream open")
    return ServerSentEvent(event=event.event.value, data=event.data())


class OpenedStream:
    """A chat stream whose first event is already there (so its early errors were raised)."""

    def __init__(self, first: TutorEvent, rest: AsyncGenerator[TutorEvent, None]) -> None:
        self.first = first
        self.rest = rest


async def open_stream(body: ChatRequest, service: ServiceDep) -> AsyncIterator[OpenedStream]:
    """The opened stream, closed on the request's exit (after the response, even a cut one)."""
    async with aclosing(service.chat_stream(body)) as events:
        with opening_at_once():
            first = await anext(events)
        yield OpenedStream(first, events)


@router.post("/tutor/chat", response_model=ChatResponse)
async def chat(body: ChatRequest, service: ServiceDep) -> ChatResponse:
    """The whole reply at once: {message, messages, debugLogs, traceId}."""
    return await service.chat(body)


@router.post("/tutor/chat/stream", response_class=EventSourceResponse)
async def chat_stream(
    stream: Annotated[OpenedStream, Depends(open_stream)],
) -> AsyncIterable[ServerSentEvent]:
    """MESSAGE* (BOUNDARY MESSAGE*)* TRACE, DEBUG when debugMode, DONE; or ERROR and the end."""
    try:
        yield sse(stream.first)
        async for event in stream.rest:
            yield sse(event)
    except Exception as exc:
        error = internal_error(exc, "POST /tutor/chat/stream")
        yield sse(TutorEvent(event=TutorEventType.ERROR, text=error.message))


@router.get("/tutor/healthcheck", response_model=HealthStatus)
async def healthcheck(service: ServiceDep) -> HealthStatus:
    return await service.healthcheck()


@router.get("/tutor/healthcheck/chat", response_model=ChatResponse)
async def healthcheck_chat(service: ServiceDep) -> ChatResponse:
    """A real round trip through the configured engine; 500 when it fails."""
    return await service.healthcheck_chat()


@router.get("/tutor/{tutor_id}", response_model=TutorConfiguration, response_model_exclude_none=True)
async def get_tutor(
    tutor_id: PathId,
    service: ServiceDep,
    tenantId: Annotated[
        str | None,
        Query(
            max_length=200,
            description="Extension: the tenant whose tutor this is (each tenant names its own tutors); "
            "default: the caller's default tenant, else the one tenant the caller may access that has it.",
        ),
    ] = None,
) -> TutorConfiguration:
    """403 for a tutor of a tenant the caller has no access to, 404 for an unknown one."""
    return await service.get_tutor(tutor_id, tenantId)


@router.post("/trace/{traceId}/rate", response_model=TraceRatingResponse)
async def rate_trace(traceId: str, body: TraceRating, service: ServiceDep) -> TraceRatingResponse:
    """Score 0 (thumbs down) or 1 (thumbs up), and an optional comment; a later rating replaces it."""
    return await service.rate_trace(traceId, body)


@router.get(
    "/tenants/{tenantId}/tutors",
    response_model=list[TutorConfiguration],
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def list_tutors(tenantId: str, service: ServiceDep) -> list[TutorConfiguration]:
    return await service.list_tutors(tenantId)


@router.put(
    "/tenants/{tenantId}/tutors/{tutorId}",
    response_model=TutorConfiguration,
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def put_tutor(
    tenantId: str, tutorId: PathId, body: TutorUpsert, service: ServiceDep
) -> TutorConfiguration:
    """Create or replace a tutor; one bound to a task (taskId) is grounded in it."""
    return await service.put_tutor(tenantId, tutorId, body)
