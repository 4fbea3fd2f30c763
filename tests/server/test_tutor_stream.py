"""The tutor over real HTTP with the grounded engine: the SSE stream, chat, traces and ratings."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import select

from core.api import MESSAGE_BOUNDARY
from core.http import tls_context
from core.store import conversations
from core.store import models as m
from core.store.db import Database
from core.tutor.grounded import GroundedTutor
from tests.core.tutor.helpers import EVENT_ORDER, chat_body, install_tutor, stream_chat
from tests.server.helpers import bearer

TUTOR = "tutor-bulb-circuit-en"


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        await install_tutor(c, TUTOR)
        yield c


async def test_stream_events_come_in_order_with_boundaries_and_a_rateable_trace(client):
    streamed = await stream_chat(client, chat_body(TUTOR, "hello", debugMode=True))

    assert EVENT_ORDER.match(streamed.names), streamed.names
    assert streamed.events[-1] == ("DONE", {"text": "[DONE]"})
    boundaries = [data for name, data in streamed.events if name == "BOUNDARY"]
    assert boundaries and all(b == {"text": MESSAGE_BOUNDARY} for b in boundaries)
    assert len(streamed.messages) == len(boundaries) + 1
    assert "your own idea" in streamed.messages[-1]  # the first hint asks for the learner's own try
    debug = next(data for name, data in streamed.events if name == "DEBUG")
    assert any(entry.get("leakGuard") == "passed" for entry in debug["list"])

    trace_id = streamed.text("TRACE")
    rated = await client.post(f"/trace/{trace_id}/rate", json={"score": 1, "comment": "helpful"})
    assert rated.status_code == 200, rated.text
    assert rated.json()["success"] is True
    again = await client.post(f"/trace/{trace_id}/rate", json={"score": 0})
    assert again.status_code == 200


async def test_without_debug_mode_there_is_no_debug_event(client):
    streamed = await stream_chat(client, chat_body(TUTOR, "hello"))
    assert "DEBUG" not in streamed.names
    assert EVENT_ORDER.match(streamed.names)


async def test_rating_checks_score_and_trace(client):
    streamed = await stream_chat(client, chat_body(TUTOR, "hello"))
    bad = await client.post(f"/trace/{streamed.text('TRACE')}/rate", json={"score": 2})
    assert bad.status_code == 400
    assert bad.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    unknown = await client.post("/trace/no-such-trace/rate", json={"score": 1})
    assert unknown.status_code == 404


async def test_chat_answers_the_whole_reply_and_the_conversation_goes_on(client):
    first = await client.post("/tutor/chat", json=chat_body(TUTOR, "hi", "conv-1"))
    assert first.status_code == 200, first.text
    body = first.json()
    assert len(body["messages"]) == 2
    assert body["message"] == "\n\n".join(body["messages"])
    assert body["debugLogs"] == []
    assert (await client.post(f"/trace/{body['traceId']}/rate", json={"score": 1})).status_code == 200

    attempt = await stream_chat(client, chat_body(TUTOR, "The circuit must be a closed circuit.", "conv-1"))
    assert "Closed circuit" in attempt.messages[0]  # what the learner showed is acknowledged
    assert (
        "“Explain what you have to do so that the bulb lights up, and why it then lights up.”"
        in attempt.messages[1]
    )  # where the filament is asked for


async def test_errors_before_the_stream_are_plain_json(client, live_server):
    unknown = await client.post("/tutor/chat/stream", json=chat_body("no-such-tutor", "hi"))
    assert unknown.status_code == 404
    assert unknown.headers["content-type"].startswith("application/json")
    assert "no-such-tutor" in unknown.json()["message"]

    malformed = await client.post("/tutor/chat/stream", json={"tutorId": TUTOR, "messages": []})
    assert malformed.status_code == 400
    assert malformed.json()["type"] == "REQUEST_SCHEMA_MALFORMED"

    not_learner = await client.post(
        "/tutor/chat/stream", json={"tutorId": TUTOR, "messages": [{"role": "assistant", "content": "hi"}]}
    )
    assert not_learner.status_code == 400

    other = await live_server.token("other")
    forbidden = await client.post("/tutor/chat/stream", json=chat_body(TUTOR, "hi"), headers=bearer(other))
    assert forbidden.status_code == 403
    assert forbidden.json()["type"] == "MISSING_PERMISSIONS"


async def test_get_tutor_answers_its_configuration_403_for_another_tenant_and_404_unknown(
    client, live_server
):
    tutor = await client.get(f"/tutor/{TUTOR}")
    assert tutor.status_code == 200
    assert tutor.json()["name"] == "Circuit coach"
    assert tutor.json()["taskId"] == "ff-bulb-circuit-en"
    assert tutor.json()["topic_ids"] == []

    other = await live_server.token("other")
    assert (await client.get(f"/tutor/{TUTOR}", headers=bearer(other))).status_code == 403
    assert (await client.get("/tutor/nobody")).status_code == 404
    listed = await client.get("/tenants/default/tutors")
    assert [t["id"] for t in listed.json()] == [TUTOR]


async def test_health_checks(client):
    assert (await client.get("/tutor/healthcheck")).json() == {"status": "OK"}
    chat = await client.get("/tutor/healthcheck/chat")
    assert chat.status_code == 200
    assert chat.json()["messages"]
    assert chat.json()["traceId"] == ""  # a probe is no conversation: no trace is stored
    assert "url" not in str(chat.json()["debugLogs"])


async def test_a_chat_grounded_by_context_task(client):
    await client.put("/tenants/default/tutors/free", json={"name": "Any task"})
    plain = await client.post("/tutor/chat", json=chat_body("free", "hi"))
    assert "What are you working on?" in plain.json()["message"]
    grounded = await client.post(
        "/tutor/chat", json=chat_body("free", "hi", context={"taskId": "ff-bulb-circuit-en"})
    )
    assert "Making a bulb light up" in grounded.json()["message"]
    missing = await client.post("/tutor/chat", json=chat_body("free", "hi", context={"taskId": "nope"}))
    assert missing.status_code == 404


async def stored(live_server, conversation_id: str) -> tuple[list[tuple[str, str]], list]:
    """The conversation's turns (role, content) and every trace, as the store keeps them."""
    db = Database(live_server.settings.database_url)
    try:
        rows = await db.run_read(lambda c: conversations.read_messages(c, "default", conversation_id))
        traces = await db.run_read(lambda c: c.execute(select(m.Trace).order_by(m.Trace.created_at)).all())
        return [(r.role, r.content) for r in rows], list(traces)
    finally:
        await db.aclose()


async def test_the_stream_opens_with_a_comment_before_its_first_event(client):
    """Headers and a first line go out once the turn is prepared, before the engine's first text."""
    async with client.stream("POST", "/tutor/chat/stream", json=chat_body(TUTOR, "hello")) as response:
        lines = [line async for line in response.aiter_lines()]
    assert lines[0].startswith(":")
    names = [line.removeprefix("event:").strip() for line in lines if line.startswith("event:")]
    assert EVENT_ORDER.match("".join(f"{name} " for name in names)), names


@pytest.mark.parametrize(
    ("plan", "kind"),
    [
        (lambda self, turn: 1 / 0, "internal"),
        (lambda self, turn: ([], {}, {}), "empty"),
    ],
    ids=["engine-bug", "no-text"],
)
async def test_a_failed_turn_is_an_error_that_keeps_the_learner_turn_and_a_trace(
    client, live_server, monkeypatch, plan, kind
):
    """An engine that breaks, or answers without text, with no reply to put in its place: a
    clear ERROR (its error id in the log), and the learner's message and a trace are stored."""
    first = await client.post("/tutor/chat", json=chat_body(TUTOR, "hello", "conv-f"))
    monkeypatch.setattr(GroundedTutor, "plan", plan)
    streamed = await stream_chat(client, chat_body(TUTOR, "The circuit is closed.", "conv-f"))
    chat = await client.post("/tutor/chat", json=chat_body(TUTOR, "Still there?", "conv-f"))
    assert streamed.names == "ERROR "
    assert "error id" in streamed.text("ERROR")
    assert chat.status_code == 500 and chat.json()["type"] == "INTERNAL"
    turns, traces = await stored(live_server, "conv-f")
    assert [content for role, content in turns if role == "user"] == [
        "hello",
        "The circuit is closed.",
        "Still there?",
    ]
    assert [content for role, content in turns if role == "assistant"] == first.json()["messages"]
    assert [t.reply.get("failure", {}).get("kind") for t in traces] == [None, kind, kind]
