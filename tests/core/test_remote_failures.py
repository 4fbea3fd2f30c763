"""RemoteService against a stub server on 127.0.0.1 that misbehaves on purpose.

The stub (Starlette under uvicorn in a thread) answers errors of this API, stalls, drops a stream
half-way, speaks HTML, or answers 503 while counting requests, so that each failure is shown to
surface as the typed exception, the ERROR event or the plain message it should. The time-outs are
half a second; pytest-timeout guards against a hang instead of timing anything.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import stamina
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from core.api import (
    ChatMessage,
    ChatRequest,
    EndUserRating,
    InternalError,
    InvalidToken,
    MissingPermissions,
    NotFound,
    RatingType,
    ServiceError,
    TaskType,
    TooManyRequests,
    TutorEvent,
    TutorEventType,
    WrongTaskType,
)
from core.api.feedback import AspectsComputeRequest
from core.service.remote import ExtensionUnavailable, NotThisApi, RemoteService, RemoteUnreachable, _backoff
from tests.conftest import LiveServer, ServerThread, free_port
from tests.contract.builders import compute, compute_stored, mc_task

TIMEOUT = 0.5


class StubState:
    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.closing = threading.Event()

    async def stall(self) -> None:
        """Hold the request until the stub closes (a fixed sleep would hold up the server's shutdown)."""
        await asyncio.to_thread(self.closing.wait)


STATE = StubState()


def error(status: int, message: str, error_type: str) -> JSONResponse:
    return JSONResponse({"message": message, "type": error_type}, status_code=status)


def sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {data if isinstance(data, str) else json.dumps(data)}\n\n"


async def count(request: Request) -> None:
    STATE.hits[f"{request.method} {request.url.path}"] += 1


async def busy(request: Request) -> Response:
    """503 every time, or once only for paths ending in -once."""
    await count(request)
    key = f"{request.method} {request.url.path}"
    if request.url.path.endswith("-once") and STATE.hits[key] > 1:
        return JSONResponse({"id": "t-once", "name": "Recovered"})
    return error(503, "the service is overloaded", "INTERNAL")


async def get_tutor(request: Request) -> Response:
    if request.path_params["tutor_id"] == "stall":
        await STATE.stall()
    if request.path_params["tutor_id"] == "throttled":
        await count(request)
        response = error(429, "slow down: 100 requests per minute", "INVALID_PARAMETER")
        response.headers["Retry-After"] = "60"
        return response
    return await busy(request)


async def typed_error(request: Request) -> Response:
    status, error_type = {
        "/tenants/default/tasks": (400, "WRONG_TASK_TYPE_FOR_UPSERT"),
        "/interactions/i-1/end-user-rating": (403, "MISSING_PERMISSIONS"),
        "/tasks/mc-1/feedback/compute": (500, "INTERNAL"),
    }[request.url.path]
    return error(status, f"stub says {error_type.lower()} (error id abc123)", error_type)


FEEDBACK = {
    "userId": "learner-1",
    "taskId": "mc-1",
    "taskType": "MultipleChoiceFeedback",
    "metaData": {"taskAction": "CREATED", "tenantId": "default", "taskLink": "https://x/t/mc-1", "trace": 7},
    "result": {
        "type": "MULTIPLE_CHOICE",
        "points": {"achievedPoints": 1, "achievablePoints": 1},
        "answer": {"selectedIndex": 0},
        "sampleSolution": {"selectedIndex": 0},
        "feedback": [
            {
                "message": "Right.",
                "correctness": "CORRECT",
                "topic": {"name": "Capitals"},
                "context": [{"index": 0, "selected": True}],
                "confidence": 0.9,
            }
        ],
        "novelty": True,
    },
    "serverVersion": "9.9",
}


async def public_feedback(request: Request) -> Response:
    return JSONResponse(FEEDBACK, headers={"X-Interaction-Id": "ia-1"})


async def public_aspects(request: Request) -> Response:
    return JSONResponse({"name": "Federal city", "description": "Knows Bern", "type": "CONCEPT", "x": 1})


async def public_health(request: Request) -> Response:
    return JSONResponse({"status": "OK", "uptime": 12})


async def no_extensions(request: Request) -> Response:
    return error(404, f"no such endpoint: {request.url.path}", "INVALID_PARAMETER")


async def chat_stream(request: Request) -> Response:
    mode = (await request.json())["tutorId"]
    if mode == "unknown":
        return error(404, "tutor 'unknown' does not exist", "INVALID_PARAMETER")
    if mode == "json":
        return JSONResponse({"message": "not a stream"})
    if mode == "silent":
        await STATE.stall()

    async def events() -> AsyncIterator[str]:
        yield sse("MESSAGE", {"text": "Hello"})
        if mode == "garbled":
            yield sse("PING", {"text": "unknown events are skipped"})
            yield ": a comment\n\n"
            yield sse("MESSAGE", "{not json")
        elif mode == "stall":
            await STATE.stall()
        elif mode == "vanish":
            raise ConnectionAbortedError("the stub goes away mid-stream")
        elif mode == "complete":
            yield sse("BOUNDARY", {"text": "<MESSAGE_BOUNDARY>", "extra": True})
            yield sse("DEBUG", {"text": "debug", "list": [{"step": 1}]})
            yield sse("DONE", {"text": "[DONE]"})
            yield sse("MESSAGE", {"text": "after DONE: never read"})

    return StreamingResponse(events(), media_type="text/event-stream")


async def html(request: Request) -> Response:
    status = 404 if request.url.path.startswith("/html404") else 200
    return HTMLResponse("<html><body>A web page, not the API</body></html>", status_code=status)


STUB = Starlette(
    routes=[
        Route("/tutor/healthcheck", public_health),
        Route("/studio/info", no_extensions),
        Route("/feedback/compute", public_feedback, methods=["POST"]),
        Route("/tasks/aspects/compute", public_aspects, methods=["POST"]),
        Route("/tutor/chat/stream", chat_stream, methods=["POST"]),
        Route("/tutor/chat", busy, methods=["POST"]),
        Route("/tutor/{tutor_id}", get_tutor),
        Route("/interactions/busy/end-user-rating", busy, methods=["PUT"]),
        Route("/tenants/default/tasks", typed_error, methods=["POST"]),
        Route("/interactions/i-1/end-user-rating", typed_error, methods=["PUT"]),
        Route("/tasks/mc-1/feedback/compute", typed_error, methods=["POST"]),
        Route("/html/{path:path}", html),
        Route("/html404/{path:path}", html),
    ]
)


@pytest.fixture(scope="module")
def stub_url() -> Iterator[str]:
    port = free_port()
    with ServerThread(STUB, port):
        yield f"http://127.0.0.1:{port}"
        STATE.closing.set()


@pytest.fixture
async def remote(stub_url: str) -> AsyncIterator[RemoteService]:
    STATE.hits.clear()
    service = RemoteService(stub_url, "stub-token", timeout=TIMEOUT, retries=2)
    yield service
    await service.aclose()


@pytest.fixture
def no_backoff() -> Iterator[None]:
    """stamina's test mode: no waits between attempts; cap keeps RemoteService's own attempt count."""
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


def chat(tutor_id: str) -> ChatRequest:
    return ChatRequest(tutorId=tutor_id, messages=[ChatMessage(role="user", content="Hi")])


async def events_of(service: RemoteService, tutor_id: str) -> list[TutorEvent]:
    return [event async for event in service.chat_stream(chat(tutor_id))]


# --- server errors surface typed, with the server's message and error type ------------------------


async def test_server_errors_become_typed_exceptions_with_the_servers_message(remote: RemoteService) -> None:
    with pytest.raises(WrongTaskType, match="stub says wrong_task_type_for_upsert") as wrong_type:
        await remote.upsert_task("default", mc_task())
    assert wrong_type.value.remote_type == "WRONG_TASK_TYPE_FOR_UPSERT"
    with pytest.raises(MissingPermissions, match="stub says missing_permissions"):
        await remote.rate_interaction("i-1", EndUserRating(type=RatingType.GOOD))
    with pytest.raises(InternalError, match=r"error id abc123"):
        await remote.compute_feedback_for_task("mc-1", compute_stored(mc_task(), {"selectedIndex": 0}))


async def test_an_error_before_the_stream_is_raised(remote: RemoteService) -> None:
    with pytest.raises(NotFound, match="tutor 'unknown' does not exist"):
        await events_of(remote, "unknown")
    with pytest.raises(NotThisApi, match="without an event stream"):
        await events_of(remote, "json")


# --- tolerant parsing of a public server of this API ----------------------------------------------


async def test_answers_are_read_tolerantly(remote: RemoteService) -> None:
    feedback = await remote.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    assert feedback.taskType is TaskType.MULTIPLE_CHOICE
    assert feedback.result.type == "MultipleChoiceFeedback"
    assert feedback.metaData.interactionId == "ia-1"
    assert [
        a.name
        for a in await remote.compute_aspects(
            AspectsComputeRequest(tenantId="default", taskDefinition=mc_task())
        )
    ] == ["Federal city"]


async def test_a_server_without_the_extensions_is_detected(remote: RemoteService) -> None:
    info = await remote.check_connection()
    assert (info.mode, info.extensions, info.defaultTenantId) == ("remote", False, "default")
    with pytest.raises(ExtensionUnavailable, match="does not offer Feedback Studio's authoring extensions"):
        await remote.list_tasks("default")
    assert STATE.hits["GET /tenants/default/tasks"] == 0


# --- streams that fail once begun end with an ERROR event, in time ---------------------------------


async def test_a_complete_stream_is_parsed_into_tutor_events(remote: RemoteService) -> None:
    events = await events_of(remote, "complete")
    assert [e.event for e in events] == [
        TutorEventType.MESSAGE,
        TutorEventType.BOUNDARY,
        TutorEventType.DEBUG,
        TutorEventType.DONE,
    ]
    assert events[2].items == [{"step": 1}]


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("stall", "nothing arrived for 0.5 s"),
        ("vanish", "lost mid-stream"),
        ("no-done", "without DONE"),
        ("garbled", "malformed MESSAGE event"),
    ],
)
async def test_a_stream_that_fails_midway_ends_with_one_error_event(
    remote: RemoteService, mode: str, message: str
) -> None:
    *before, last = await events_of(remote, mode)
    assert before == [TutorEvent.message("Hello")]
    assert last.event is TutorEventType.ERROR
    assert message in last.text


@pytest.mark.timeout(10)
async def test_a_server_that_never_answers_the_stream_is_unreachable(remote: RemoteService) -> None:
    with pytest.raises(RemoteUnreachable, match=r"no answer within 0\.5 s"):
        await events_of(remote, "silent")


@pytest.mark.timeout(10)
async def test_a_stalled_get_gives_up_within_the_time_out(remote: RemoteService) -> None:
    with pytest.raises(RemoteUnreachable, match=r"no answer within 0\.5 s"):
        await remote.get_tutor("stall")


# --- retries: GET and PUT, never POST ---------------------------------------------------------------


@pytest.mark.usefixtures("no_backoff")
async def test_get_and_put_are_retried(remote: RemoteService) -> None:
    with pytest.raises(ServiceError, match="the service is overloaded"):
        await remote.get_tutor("busy")
    with pytest.raises(ServiceError, match="the service is overloaded"):
        await remote.rate_interaction("busy", EndUserRating(type=RatingType.GOOD))
    assert STATE.hits == {"GET /tutor/busy": 3, "PUT /interactions/busy/end-user-rating": 3}


@pytest.mark.usefixtures("no_backoff")
async def test_a_retried_get_succeeds_when_the_server_recovers(remote: RemoteService) -> None:
    assert (await remote.get_tutor("busy-once")).name == "Recovered"
    assert STATE.hits == {"GET /tutor/busy-once": 2}


@pytest.mark.usefixtures("no_backoff")
async def test_a_long_retry_after_is_not_waited_out(remote: RemoteService) -> None:
    with pytest.raises(TooManyRequests, match="slow down"):
        await remote.get_tutor("throttled")
    assert STATE.hits == {"GET /tutor/throttled": 1}


@pytest.mark.usefixtures("no_backoff")
async def test_post_is_never_retried(remote: RemoteService) -> None:
    with pytest.raises(ServiceError, match="the service is overloaded"):
        await remote.chat(chat("any"))
    assert STATE.hits == {"POST /tutor/chat": 1}


# --- the connection check says plainly what is wrong ------------------------------------------------


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("where", "why"),
    [(f"http://127.0.0.1:{free_port()}", "Connection refused"), ("http://no-such-host.invalid", "")],
    ids=["refused", "unknown-host"],
)
async def test_connection_check_unreachable(where: str, why: str) -> None:
    service = RemoteService(where, "token", timeout=TIMEOUT, retries=0)
    with pytest.raises(RemoteUnreachable, match=f"cannot reach the server at {re.escape(where)} .*: {why}"):
        await service.check_connection()
    await service.aclose()


async def test_connection_check_bad_token(live_server: LiveServer) -> None:
    service = RemoteService(live_server.base_url, "fs_not-a-token", timeout=5)
    with pytest.raises(InvalidToken, match="refused the bearer token: the bearer token is unknown"):
        await service.check_connection()
    await service.aclose()


async def test_connection_check_good_token(live_server: LiveServer) -> None:
    service = RemoteService(live_server.base_url, await live_server.token(), timeout=5)
    info = await service.check_connection()
    assert (info.mode, info.extensions) == ("remote", True)
    await service.aclose()


@pytest.mark.parametrize("prefix", ["html", "html404"])
async def test_connection_check_not_this_api(stub_url: str, prefix: str) -> None:
    service = RemoteService(f"{stub_url}/{prefix}", "token", timeout=TIMEOUT)
    with pytest.raises(NotThisApi, match="does not look like a server of the Learner Feedback") as raised:
        await service.check_connection()
    assert "A web page, not the API" in raised.value.message
    await service.aclose()


async def test_a_server_that_is_down_is_reported_at_once_with_what_to_check() -> None:
    """Connection refused is not retried (three retries would only make the author wait)."""
    service = RemoteService(f"http://127.0.0.1:{free_port()}", "token", timeout=TIMEOUT, retries=3)
    with pytest.raises(RemoteUnreachable, match="check that the server runs and that the address"):
        await service.list_tasks("default")
    await service.aclose()
    assert not _backoff(httpx.ConnectError("refused")) and not _backoff(httpx.ConnectTimeout("slow"))
    assert _backoff(httpx.ReadError("the connection broke"))  # a broken exchange is still retried
