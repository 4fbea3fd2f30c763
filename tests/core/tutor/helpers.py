"""Shared by the tutor and simulation tests: demo documents, an SSE chat client, a fake LLM server."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

import httpx
from httpx_sse import aconnect_sse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from core.api import AspectType, ChatTurn, Correctness, FreeformTextTask, TutorConfiguration, parse_task
from core.assets import demo_tasks, demo_tutors, load_catalogue
from core.engine.freeform import judgement_of
from core.tutor.base import Turn
from core.tutor.grounded import GroundedTutor
from core.tutor.leak_guard import JUDGE_CONTEXT
from tests.conftest import ServerThread, free_port

EVENT_ORDER = re.compile(r"^(MESSAGE )+(BOUNDARY (MESSAGE )+)*TRACE (DEBUG )?DONE $")


def turn(task: Any, message: str, state: dict[str, Any], history: Sequence[ChatTurn]) -> Turn:
    """A learner's message to a tutor engine, as the service hands it over."""
    return Turn(
        tutor=TutorConfiguration(id="t", name="t"),
        task=task,
        history=tuple(history),
        message=message,
        language=task.language,
        catalogue=load_catalogue(),
        state=state,
    )


def converse(
    engine: Any, task: Any, messages: list[str], history: Sequence[ChatTurn] = ()
) -> list[tuple[list[str], dict[str, Any]]]:
    """Each message's replies and debug entry, in one conversation with ``engine`` (the history
    as the store keeps it, starting from ``history``)."""
    state: dict[str, Any] = {}
    said = list(history)
    out = []
    for message in messages:
        replies, state, debug = engine.plan(turn(task, message, state, said))
        out.append((replies, debug))
        said += [
            ChatTurn(role="user", content=message),
            *(ChatTurn(role="assistant", content=r) for r in replies),
        ]
    return out


def talk(document: dict[str, Any], messages: list[str]) -> list[tuple[list[str], dict[str, Any]]]:
    """Each message's reply and debug entry, in one conversation with the grounded tutor."""
    return converse(GroundedTutor(), parse_task(document), messages)


def longest_shared_run(reply: str, solution: str) -> int:
    """The longest run of consecutive words the reply shares with the solution (case aside)."""
    a, b = re.findall(r"\w+", reply.casefold()), re.findall(r"\w+", solution.casefold())
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size


def assert_no_leak_by_meaning(task: FreeformTextTask, learner: list[str], tutor: list[str]) -> None:
    """The tutor's side, judged as an answer by the task's own judgement (about its aspects, and
    about its sample solution's facts, which reads other languages too), shows nothing the
    learner's side does not, and is not CORRECT as the task is authored while the learner's is
    not; and it quotes no run of five words of a solution."""
    ways = [task, task.model_copy(update={"aspects": []})] if task.aspects else [task]
    for index, way in enumerate(ways):
        learner_said = judgement_of(way, " ".join(learner), JUDGE_CONTEXT)
        told = judgement_of(way, " ".join(tutor), JUDGE_CONTEXT)
        assert told.concepts <= learner_said.concepts, (told.concepts - learner_said.concepts, tutor[-2:])
        concepts = {a.name for a in way.aspects if a.type is AspectType.CONCEPT}
        done = concepts <= learner_said.concepts if concepts else learner_said.verdict is Correctness.CORRECT
        if index == 0 and not done:  # the facts of a task with aspects count by what they show only
            assert told.verdict is not Correctness.CORRECT, tutor[-2:]
    for solution in task.sampleSolutions:
        assert longest_shared_run(" ".join(tutor), solution.content) < 5


def demo_task(task_id: str) -> dict[str, Any]:
    return next(t for t in demo_tasks() if t["id"] == task_id)


def demo_tutor(tutor_id: str) -> dict[str, Any]:
    document = next(t for t in demo_tutors() if t["id"] == tutor_id)
    return {k: v for k, v in document.items() if k != "id"}


async def install_tutor(client: httpx.AsyncClient, tutor_id: str, tenant: str = "default") -> None:
    """The demo tutor and its task, put into a tenant over the API."""
    body = demo_tutor(tutor_id)
    task = await client.post(f"/tenants/{tenant}/tasks", json=demo_task(body["taskId"]))
    assert task.status_code == 200, task.text
    tutor = await client.put(f"/tenants/{tenant}/tutors/{tutor_id}", json=body)
    assert tutor.status_code == 200, tutor.text


@dataclass
class Streamed:
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def names(self) -> str:
        return "".join(f"{name} " for name, _ in self.events)

    @property
    def messages(self) -> list[str]:
        """The reply as the learner reads it: MESSAGE texts, split at each BOUNDARY."""
        messages = [""]
        for name, data in self.events:
            if name == "MESSAGE":
                messages[-1] += data["text"]
            elif name == "BOUNDARY":
                messages.append("")
        return [m for m in messages if m]

    def text(self, name: str) -> str:
        return next(data["text"] for n, data in self.events if n == name)


async def stream_chat(client: httpx.AsyncClient, body: dict[str, Any]) -> Streamed:
    async with aconnect_sse(client, "POST", "/tutor/chat/stream", json=body) as source:
        assert source.response.status_code == 200, (await source.response.aread()).decode()
        assert source.response.headers["content-type"].startswith("text/event-stream")
        streamed = Streamed()
        async for event in source.aiter_sse():
            streamed.events.append((event.event, json.loads(event.data)))
        return streamed


def chat_body(tutor_id: str, text: str, conversation_id: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"tutorId": tutor_id, "messages": [{"role": "user", "content": text}], **extra}
    if conversation_id:
        body["conversationId"] = conversation_id
    return body


# --- a local OpenAI-compatible streaming server ----------------------------------------------------


@dataclass
class FakeLlm:
    """Chat completions whose behaviour the request's ``model`` picks (see ``_completions``)."""

    base_url: str
    reply: str = "What have you tried so far?\n\nTell me your first idea."
    script: list[str] = field(default_factory=list)
    """Replies for the next requests, one each, in order; then ``reply`` again."""
    open_streams: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    busy: int = 0
    """How many of the next requests are refused with ``busy_status`` before any is answered."""
    busy_status: int = 429
    retry_after: str | None = "1"
    """The Retry-After header of a refusal (none when None)."""
    gate: threading.Event | None = None
    """When set, the reply's text waits until the test opens the gate (role chunks go out first)."""


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
    return "data: " + json.dumps({"object": "chat.completion.chunk", "choices": [choice]}) + "\n\n"


def _completion(text: str) -> dict[str, Any]:
    """A whole chat completion, as a server answers a request it does not stream."""
    message = {"role": "assistant", "content": text}
    return {
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }


WRONG_SHAPES = ['{"error": {"message": "the model is overloaded", "type": "server_error"}}', "[1,2,3]", '"x"']
"""Valid JSON of the wrong shape, as a misbehaving server streams it before [DONE]."""


def _app(state: FakeLlm) -> Starlette:
    async def completions(request: Request) -> Response:
        body = await request.json()
        state.requests.append(body)
        mode = body["model"]
        text = state.script.pop(0) if state.script else state.reply
        if mode == "fail500":
            return JSONResponse({"error": "model crashed"}, status_code=500)
        if state.busy or mode == "busy":
            state.busy = max(0, state.busy - 1)
            headers = {"Retry-After": state.retry_after} if state.retry_after is not None else {}
            return JSONResponse(
                {"error": {"message": "busy"}}, status_code=state.busy_status, headers=headers
            )
        if mode == "json":  # not streamed, though the request asked for a stream
            return JSONResponse(_completion(text))

        async def events() -> AsyncIterator[str]:
            state.open_streams += 1
            try:
                yield _chunk({"role": "assistant"})
                yield _chunk({"content": None})
                for _ in range(3000 if state.gate is not None else 0):  # 30 s at most
                    if state.gate is not None and state.gate.is_set():
                        break
                    await asyncio.sleep(0.01)
                if mode == "stall":
                    await asyncio.sleep(3600)
                if mode == "keepalive":  # SSE comments, never a word
                    while True:
                        yield ": keep-alive\n\n"
                        await asyncio.sleep(0.05)
                if mode in ("wrong_shape", "shapes_only"):
                    shapes = WRONG_SHAPES if mode == "wrong_shape" else WRONG_SHAPES[1:]
                    for shape in shapes:
                        yield f"data: {shape}\n\n"
                    yield "data: [DONE]\n\n"
                    return
                if mode == "empty":  # a whole reply without a word
                    yield _chunk({"content": "  "})
                    yield _chunk({}, finish_reason="stop")
                    yield "data: [DONE]\n\n"
                    return
                if mode == "endless":
                    while True:
                        yield _chunk({"content": "Think again. "})
                        await asyncio.sleep(0.01)
                words = text.split(" ")
                for i, word in enumerate(words):
                    yield _chunk({"content": word + (" " if i < len(words) - 1 else "")})
                    if mode == "drop" and i == len(words) // 2:
                        raise RuntimeError("the model server broke down mid-stream")
                    if mode == "truncate" and i == len(words) // 2:
                        return  # a clean end of the response, but no [DONE]: the reply is cut
                yield _chunk({}, finish_reason="stop")
                if mode == "no_done":
                    return  # finished (finish_reason) but closed without [DONE]: a whole reply
                yield "data: [DONE]\n\n"
            finally:
                state.open_streams -= 1

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


@contextmanager
def fake_llm() -> Iterator[FakeLlm]:
    port = free_port()
    state = FakeLlm(base_url=f"http://127.0.0.1:{port}/v1")
    with ServerThread(_app(state), port):
        yield state
