"""The task state table of API.md 3, over real HTTP: through the upsert and through compute."""

from __future__ import annotations

import httpx
import pytest

from core.http import tls_context
from tests.server.helpers import bearer, compute_body, mc_task


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        yield c


async def test_upsert_creates_then_reports_unchanged_then_updated(client):
    first = await client.post("/tenants/default/tasks", json=mc_task())
    assert first.status_code == 200
    assert first.json()["action"] == "CREATED"
    assert first.json()["taskLink"].endswith("/tasks/default/mc-1")

    same = await client.post("/tenants/default/tasks", json=mc_task())
    assert same.json()["action"] == "UNCHANGED"

    changed = await client.post("/tenants/default/tasks", json=mc_task(title="Federal city"))
    assert changed.json()["action"] == "UPDATED"

    stored = (await client.get("/tenants/default/tasks/mc-1")).json()
    assert stored["definition"]["title"] == "Federal city"
    assert stored["version"] == 2


async def test_enum_spelling_of_the_type_is_the_same_task(client):
    await client.post("/tenants/default/tasks", json=mc_task())
    again = await client.post("/tenants/default/tasks", json={**mc_task(), "type": "MULTIPLE_CHOICE"})
    assert again.json()["action"] == "UNCHANGED"


async def test_compute_creates_updates_and_leaves_unchanged(client):
    created = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 0}))
    assert created.status_code == 200, created.text
    assert created.json()["metaData"]["taskAction"] == "CREATED"

    unchanged = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 0}))
    assert unchanged.json()["metaData"]["taskAction"] == "UNCHANGED"

    updated = await client.post(
        "/feedback/compute", json=compute_body(mc_task(correct=1), {"selectedIndex": 0})
    )
    assert updated.json()["metaData"]["taskAction"] == "UPDATED"
    assert updated.json()["result"]["points"]["achievedPoints"] == 0  # judged against the new definition


async def test_a_type_change_is_refused_and_the_task_stays(client):
    await client.post("/tenants/default/tasks", json=mc_task())
    freeform = {
        "id": "mc-1",
        "type": "FreeformTextTask",
        "problemStatement": "Explain.",
        "sampleSolutions": [],
    }

    by_upsert = await client.post("/tenants/default/tasks", json=freeform)
    assert by_upsert.status_code == 400
    assert by_upsert.json()["type"] == "WRONG_TASK_TYPE_FOR_UPSERT"

    by_compute = await client.post(
        "/feedback/compute",
        json={
            "userId": "u",
            "taskType": "FREEFORM_TEXT",
            "taskDefinition": freeform,
            "answer": {"content": "x"},
        },
    )
    assert by_compute.status_code == 400
    assert by_compute.json()["type"] == "WRONG_TASK_TYPE_FOR_UPSERT"

    stored = (await client.get("/tenants/default/tasks/mc-1")).json()
    assert stored["definition"]["type"] == "MultipleChoiceTask"
    assert (await client.get("/tenants/default/tasks/mc-1/interactions")).json() == []


async def test_delete_removes_the_task_and_its_history(client):
    await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 0}))
    deleted = await client.delete("/tenants/default/tasks/mc-1")
    assert deleted.status_code == 200
    assert deleted.json() == {"message": "task 'mc-1' deleted", "taskId": "mc-1", "tenantId": "default"}

    again = await client.delete("/tenants/default/tasks/mc-1")
    assert again.status_code == 404
    assert again.json()["type"] == "INVALID_PARAMETER"

    recreated = await client.post("/tenants/default/tasks", json=mc_task())
    assert recreated.json()["action"] == "CREATED"
    assert (await client.get("/tenants/default/tasks/mc-1/interactions")).json() == []


async def test_feedback_by_task_id_needs_an_existing_task_of_that_type(client):
    missing = await client.post(
        "/tasks/nope/feedback/compute",
        json={"userId": "u", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": 0}},
    )
    assert missing.status_code == 404

    await client.post("/tenants/default/tasks", json=mc_task())
    ok = await client.post(
        "/tasks/mc-1/feedback/compute",
        json={"userId": "u", "taskType": "MultipleChoiceTask", "answer": {"selectedIndex": 0}},
    )
    assert ok.status_code == 200
    assert ok.json()["metaData"]["taskAction"] == "UNCHANGED"

    mismatch = await client.post(
        "/tasks/mc-1/feedback/compute",
        json={"userId": "u", "taskType": "FREEFORM_TEXT", "answer": {"content": "Bern"}},
    )
    assert mismatch.status_code == 400
    assert "does not match" in mismatch.json()["message"]


async def test_conditional_upsert_over_http_uses_the_version_as_etag(client):
    await client.post("/tenants/default/tasks", json=mc_task())
    read = await client.get("/tenants/default/tasks/mc-1")
    assert read.headers["ETag"] == '"1"'

    ok = await client.post("/tenants/default/tasks", json=mc_task(title="A"), headers={"If-Match": '"1"'})
    assert ok.json()["action"] == "UPDATED"
    stale = await client.post("/tenants/default/tasks", json=mc_task(title="B"), headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    assert stale.json()["type"] == "INVALID_PARAMETER" and "version 2 is stored" in stale.json()["message"]
    taken = await client.post(
        "/tenants/default/tasks", json=mc_task(title="C"), headers={"If-None-Match": "*"}
    )
    assert taken.status_code == 412 and "already exists" in taken.json()["message"]
    garbled = await client.post("/tenants/default/tasks", json=mc_task(), headers={"If-Match": "yesterday"})
    assert garbled.status_code == 400 and "If-Match" in garbled.json()["message"]
    assert (await client.get("/tenants/default/tasks/mc-1")).json()["definition"]["title"] == "A"
