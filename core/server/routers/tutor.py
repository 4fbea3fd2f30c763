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

Events that are ready together go out together (:func:`written_together`): a task pulls the
turn's events into a queue, and each write takes all the queue holds, one run of MESSAGE events
joined into one MESSAGE. FastAPI's own generator route sends an event a write, and each write
passes two memory streams, a keep-alive timer and a checkpoint, five turns of the event loop,
each behind every other request's work: under a mixed load a chat's seven events took 0.65 s at
the median and 1.9 s at p99 (docs/performance.md). Batched, a planned reply is three writes (the
opening comment, the reply with its boundaries, then TRACE and DONE once it is stored); a
language model's sentences still go out as the leak guard releases them. The format is FastAPI's
(``format_sse_event``), and so is the keep-alive: a comment after 15 s of silence.
"""

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Iterable
from contextlib import aclosing
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse
from fastapi.sse import KEEPALIVE_COMMENT, format_sse_event

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


class TutorEventStream(StreamingResponse):
    """The chat's Server-Sent Events, written by :func:`written_together` (not FastAPI's generator
    route, which writes an event at a time)."""

    media_type = "text/event-stream"


KEEP_ALIVE_SECONDS = 15.0
"""Silence after which a comment goes out (FastAPI's interval for its own streams)."""


def sse(event: TutorEvent) -> bytes:
    if event is STREAM_OPENED:
        return format_sse_event(comment="stream open")
    data = json.dumps(event.data(), ensure_ascii=False, separators=(",", ":"))
    return format_sse_event(event=event.event.value, data_str=data)


def joined(events: Iterable[TutorEvent]) -> list[TutorEvent]:
    """The events with each run of MESSAGE events made one MESSAGE (their texts are one reply's
    pieces in order: a client adds them up either way)."""
    out: list[TutorEvent] = []
    for event in events:
        last = out[-1] if out else None
        if (
            last is not None
            and last is not STREAM_OPENED
            and event is not STREAM_OPENED
            and last.event is event.event is TutorEventType.MESSAGE
        ):
            out[-1] = TutorEvent.message(last.text + event.text)
        else:
            out.append(event)
    return out


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


async def written_together(stream: OpenedStream) -> AsyncIterator[bytes]:
    """The stream's events as the response's writes: each write all events ready by then."""
    queue: asyncio.Queue[TutorEvent | None] = asyncio.Queue()

    async def pull() -> None:
        try:
            async for event in stream.rest:
                queue.put_nowait(event)
        except Exception as exc:
            error = internal_error(exc, "POST /tutor/chat/stream")
            queue.put_nowait(TutorEvent(event=TutorEventType.ERROR, text=error.message))
        finally:
            queue.put_nowait(None)

    puller = asyncio.create_task(pull())
    try:
        yield sse(stream.first)
        while True:
            try:
                async with asyncio.timeout(KEEP_ALIVE_SECONDS):
                    ready = [await queue.get()]
            except TimeoutError:
                yield KEEPALIVE_COMMENT
                continue
            while not queue.empty():
                ready.append(queue.get_nowait())
            events = [event for event in ready if event is not None]
            if events:
                yield b"".join(sse(event) for event in joined(events))
            if len(events) < len(ready):
                return
    finally:  # the turn is stopped before the route's dependency closes it
        puller.cancel()
        await asyncio.wait({puller})


@router.post("/tutor/chat/stream", response_class=TutorEventStream)
async def chat_stream(stream: Annotated[OpenedStream, Depends(open_stream)]) -> TutorEventStream:
    """MESSAGE* (BOUNDARY MESSAGE*)* TRACE, DEBUG when debugMode, DONE; or ERROR and the end."""
    return TutorEventStream(
        written_together(stream),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


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
