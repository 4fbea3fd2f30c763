"""Simulation sessions over real HTTP: a whole role-play in English and German, then its feedback."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from core.http import tls_context
from core.store import models as m
from core.store.db import Database
from tests.core.tutor.helpers import EVENT_ORDER, chat_body, demo_task, stream_chat
from tests.server.helpers import bearer

SESSIONS = {
    "sim-customer-objections-en": [
        "Good morning, Mrs Rossi, thank you for taking the time.",
        "It is 49 per month, and it pays for itself within a few weeks.",
        "We do the installation on a Sunday, so there is no downtime for your shop.",
        "You can start with a free trial and cancel any time.",
    ],
    "sim-elterngespraech-de": [
        "Guten Abend, Herr Keller, schön, dass Sie da sind.",
        "Mir ist in den letzten Wochen aufgefallen, dass Lena zwei Prüfungen nicht bestanden hat.",
        "Ich möchte das gemeinsam mit Ihnen anschauen: Wie erleben Sie Lena zu Hause?",
        "Als nächste Schritte schlage ich die Aufgabenhilfe vor, und in vier Wochen treffen wir uns wieder.",
    ],
}


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        yield c


async def start(client: httpx.AsyncClient, task: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/simulation/start", json={"simulationTask": task, "tenantId": "default"})
    assert response.status_code == 200, response.text
    return response.json()


def feedback_body(task: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    return {"userId": "learner-1", "taskType": "SIMULATION", "taskDefinition": task, "answer": answer}


@pytest.mark.parametrize("task_id", list(SESSIONS))
async def test_a_whole_session_then_feedback_on_the_learners_words(client, task_id):
    task = demo_task(task_id)
    session = await start(client, task)
    assert session["conversationId"] and session["tutorId"] and session["expiresAt"]
    transcript = [{"role": "assistant", "content": text} for text in session["initialMessages"]]
    assert transcript[0]["content"] == task["initialMessage"]

    replies = []
    for turn in SESSIONS[task_id]:
        streamed = await stream_chat(client, chat_body(session["tutorId"], turn, session["conversationId"]))
        assert EVENT_ORDER.match(streamed.names), streamed.names
        transcript.append({"role": "user", "content": turn})
        transcript += [{"role": "assistant", "content": text} for text in streamed.messages]
        replies.append(streamed.messages)
    objections = [a["message"] for a in task["aspects"] if a["type"] == "CONCEPT"]
    assert any(objections[1] in message for message in replies[1]), replies[1]
    assert replies[-1][-1] != objections[-1]

    by_id = await client.post(
        "/feedback/compute", json=feedback_body(task, {"conversationId": session["id"]})
    )
    assert by_id.status_code == 200, by_id.text
    result = by_id.json()["result"]
    assert result["type"] == "SimulationFeedback"
    assert result["points"] == {"achievedPoints": 3.0, "achievablePoints": 3.0}
    assert result["sampleSolution"] == {"content": task["sampleSolution"]}
    shown = {d["aspect"]["name"] for d in result["allAspects"]}
    assert shown == {a["name"] for a in task["aspects"] if a["type"] == "CONCEPT"}
    for detected in result["allAspects"]:
        for span in detected["context"]:
            turn = transcript[span["messageIndex"]]
            assert turn["role"] == "user"
            assert turn["content"][span["offset"] : span["offset"] + span["length"]] == span["content"]

    by_messages = await client.post("/feedback/compute", json=feedback_body(task, {"messages": transcript}))
    assert by_messages.status_code == 200, by_messages.text
    again = by_messages.json()["result"]
    for field in ("allAspects", "feedback", "points", "sampleSolution"):
        assert again[field] == result[field]


async def test_a_misconception_costs_points_and_shows_where_it_was_said(client):
    task = demo_task("sim-customer-objections-en")
    session = await start(client, task)
    push = "You should sign today, it is your last chance."
    streamed = await stream_chat(client, chat_body(session["tutorId"], push, session["conversationId"]))
    assert streamed.messages[0] == next(a["message"] for a in task["aspects"] if a["type"] == "MISCONCEPTION")
    result = (
        await client.post("/feedback/compute", json=feedback_body(task, {"conversationId": session["id"]}))
    ).json()["result"]
    assert result["points"]["achievedPoints"] == 0
    wrong = next(item for item in result["feedback"] if item["correctness"] == "WRONG")
    assert wrong["context"][0]["messageIndex"] == 1
    assert wrong["context"][0]["content"] in push


async def test_the_turn_limit_finishes_the_session_with_a_clear_message(client):
    task = {**demo_task("sim-customer-objections-en"), "maxTurns": 2}
    session = await start(client, task)
    tutor, conversation = session["tutorId"], session["conversationId"]
    await stream_chat(client, chat_body(tutor, "Hello.", conversation))
    last = await stream_chat(client, chat_body(tutor, "It is 49 per month.", conversation))
    assert "last turn of the simulation" in last.messages[-1]
    refused = await client.post("/tutor/chat/stream", json=chat_body(tutor, "Anything else?", conversation))
    assert refused.status_code == 400
    assert "is finished" in refused.json()["message"]
    feedback = await client.post(
        "/feedback/compute", json=feedback_body(task, {"conversationId": conversation})
    )
    assert feedback.status_code == 200


async def test_unknown_and_expired_sessions_give_clear_errors(client, live_server):
    task = demo_task("sim-patientenaufklaerung-de")
    session = await start(client, task)
    unknown = await client.post("/tutor/chat", json=chat_body(session["tutorId"], "Hallo", "no-such-session"))
    assert unknown.status_code == 404
    assert "POST /simulation/start" in unknown.json()["message"]

    db = Database(live_server.settings.database_url)
    try:
        expire = (
            update(m.Conversation)
            .where(m.Conversation.id == session["conversationId"])
            .values(expires_at=m.utcnow() - timedelta(minutes=1))
        )
        await db.run_write(lambda c: c.execute(expire))
    finally:
        await db.aclose()
    expired = await client.post(
        "/tutor/chat", json=chat_body(session["tutorId"], "Hallo", session["conversationId"])
    )
    assert expired.status_code == 400
    assert "expired" in expired.json()["message"]


async def test_another_tenants_session_is_out_of_reach(client, live_server):
    task = demo_task("sim-customer-objections-en")
    session = await start(client, task)
    other = bearer(await live_server.token("other"))
    chat = await client.post(
        "/tutor/chat", json=chat_body(session["tutorId"], "Hello", session["conversationId"]), headers=other
    )
    assert chat.status_code == 403  # the session's tutor is in a tenant the caller has no access to
    feedback = await client.post(
        "/feedback/compute",
        json={**feedback_body(task, {"conversationId": session["id"]}), "tenantId": "other"},
        headers=other,
    )
    # Each tenant names its own sessions: there is none of that id in "other", and no word of A's.
    assert feedback.status_code == 404
    assert "does not exist in tenant 'other'" in feedback.json()["message"]
    start_there = await client.post(
        "/simulation/start", json={"simulationTask": task, "tenantId": "default"}, headers=other
    )
    assert start_there.status_code == 403


async def test_start_refuses_bad_input(client):
    assert (await client.post("/simulation/start", json={"tenantId": "default"})).status_code == 400
    not_simulation = {**demo_task("sim-customer-objections-en"), "type": "FreeformTextTask"}
    bad = await client.post(
        "/simulation/start", json={"simulationTask": not_simulation, "tenantId": "default"}
    )
    assert bad.status_code == 400
