"""Concurrent requests on one resource over real HTTP, on SQLite and on PostgreSQL.

Fifty upserts of one task id leave one task, one CREATED; concurrent ratings of one interaction
leave one rating, created once; concurrent chat turns in one conversation keep every message,
each learner message directly followed by its reply; server processes that start together on an
empty database create its schema once.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from core.store import conversations
from core.store.db import Database
from tests.conftest import create_token
from tests.core.tutor.helpers import chat_body, install_tutor
from tests.server.helpers import compute_body, mc_task

CONCURRENT = 50
TUTOR = "tutor-bulb-circuit-en"


def variant(i: int) -> dict:
    """Three definitions of one task id: callers race to create it and then update it."""
    return mc_task("race", title=f"Capital, variant {i % 3}")


@pytest.mark.parametrize("via", ["upsert", "compute"])
async def test_one_task_id_upserted_concurrently_is_created_once(client, via):
    def send(i: int):
        if via == "upsert":
            return client.post("/tenants/default/tasks", json=variant(i))
        return client.post("/feedback/compute", json=compute_body(variant(i), {"selectedIndex": 0}))

    responses = await asyncio.gather(*(send(i) for i in range(CONCURRENT)))

    assert [r.status_code for r in responses] == [200] * CONCURRENT, [r.text for r in responses if r.is_error]
    actions = Counter(
        r.json()["action"] if via == "upsert" else r.json()["metaData"]["taskAction"] for r in responses
    )
    assert actions["CREATED"] == 1
    assert set(actions) <= {"CREATED", "UPDATED", "UNCHANGED"}
    listed = (await client.get("/tenants/default/tasks")).json()
    assert [t["taskId"] for t in listed] == ["race"]
    assert listed[0]["version"] == 1 + actions["UPDATED"]


async def test_concurrent_ratings_of_one_interaction_leave_one_rating(client):
    computed = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 1}))
    interaction = computed.json()["metaData"]["interactionId"]
    ratings = [{"type": "GOOD" if i % 2 else "BAD", "message": f"rating {i}"} for i in range(CONCURRENT)]

    responses = await asyncio.gather(
        *(client.put(f"/interactions/{interaction}/end-user-rating", json=r) for r in ratings)
    )

    assert [r.status_code for r in responses] == [200] * CONCURRENT, [r.text for r in responses if r.is_error]
    assert len({r.json()["createdAt"] for r in responses}) == 1
    stored = (await client.get(f"/interactions/{interaction}")).json()["rating"]
    assert stored in ratings
    listed = (await client.get("/tenants/default/tasks/mc-1/interactions")).json()
    assert [i["rating"] for i in listed] == [stored]


async def stored_transcript(database_url: str, conversation_id: str) -> list[tuple[str, str]]:
    """The messages of the default tenant's conversation of this id."""
    db = Database(database_url)
    try:
        rows = await db.run_read(lambda c: conversations.read_messages(c, "default", conversation_id))
    finally:
        await db.aclose()
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    return [(r.role, r.content) for r in rows]


@pytest.mark.parametrize("started", [True, False], ids=["existing-conversation", "new-conversation"])
async def test_concurrent_chats_in_one_conversation_keep_every_message_in_order(client, server, started):
    await install_tutor(client, TUTOR)
    conversation = f"conv-{started}"
    if started:
        first = await client.post("/tutor/chat", json=chat_body(TUTOR, "hello", conversation))
        assert first.status_code == 200, first.text
    questions = [f"question {i}: what makes the bulb light up?" for i in range(10)]

    responses = await asyncio.gather(
        *(client.post("/tutor/chat", json=chat_body(TUTOR, q, conversation)) for q in questions)
    )

    assert [r.status_code for r in responses] == [200] * len(questions), [
        r.text for r in responses if r.is_error
    ]
    transcript = await stored_transcript(server.settings.database_url, conversation)
    expected = 0
    for question, response in zip(questions, responses, strict=True):
        turn = [("user", question), *(("assistant", text) for text in response.json()["messages"])]
        at = transcript.index(("user", question))
        assert transcript[at : at + len(turn)] == turn
        expected += len(turn)
    if started:
        opening = [("user", "hello"), *(("assistant", text) for text in first.json()["messages"])]
        assert transcript[: len(opening)] == opening
        expected += len(opening)
    assert len(transcript) == expected


async def test_processes_starting_at_once_on_an_empty_database_migrate_it_once(database_url):
    """`serve --workers N` on a new database: every worker migrates on start, all at the same time."""
    databases = [Database(database_url) for _ in range(4)]
    try:
        await asyncio.gather(*(db.migrate() for db in databases))
    finally:
        for db in databases:
            await db.aclose()
    assert await create_token(database_url, "default")


async def test_concurrent_first_turns_store_the_history_they_bring_once(client, server):
    """A client that resumes a conversation under a new id sends its history with the first turn."""
    await install_tutor(client, TUTOR)
    history = [{"role": "assistant", "content": "Hello! What have you tried?"}]
    questions = [f"first turn {i}" for i in range(6)]

    responses = await asyncio.gather(
        *(
            client.post(
                "/tutor/chat",
                json={
                    **chat_body(TUTOR, q, "resumed"),
                    "messages": [*history, {"role": "user", "content": q}],
                },
            )
            for q in questions
        )
    )

    assert [r.status_code for r in responses] == [200] * len(questions)
    transcript = await stored_transcript(server.settings.database_url, "resumed")
    assert transcript.count(("assistant", "Hello! What have you tried?")) == 1
    assert sorted(c for role, c in transcript if role == "user") == sorted(questions)
