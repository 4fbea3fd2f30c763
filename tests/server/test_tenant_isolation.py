"""Over HTTP, tenant by tenant: one tenant's ids never reach another tenant's objects.

Tenant A ("default") and tenant B ("tenB") hold one token each. Each tenant names its own tutors,
so both may have the demo tutor under its demo id; the ids the server makes are reserved.
"""

from __future__ import annotations

import httpx
import pytest

from core.http import tls_context
from core.store import conversations
from core.store.db import Database
from tests.contract.builders import simulation_task
from tests.core.tutor.helpers import chat_body, install_tutor, stream_chat
from tests.server.helpers import bearer, mc_task

TUTOR = "tutor-bulb-circuit-en"


@pytest.fixture
async def clients(live_server):
    a, b = await live_server.token("default"), await live_server.token("tenB")
    async with (
        httpx.AsyncClient(verify=tls_context(), base_url=live_server.base_url, headers=bearer(a)) as first,
        httpx.AsyncClient(verify=tls_context(), base_url=live_server.base_url, headers=bearer(b)) as second,
    ):
        yield first, second


async def test_both_tenants_have_a_tutor_of_one_id_and_each_reaches_only_its_own(clients):
    a, b = clients
    await install_tutor(a, TUTOR)
    await install_tutor(b, TUTOR, tenant="tenB")  # the same id in another tenant: its own tutor
    assert (await a.get(f"/tutor/{TUTOR}")).json()["tenantId"] == "default"
    assert (await b.get(f"/tutor/{TUTOR}")).json()["tenantId"] == "tenB"
    assert (await b.get(f"/tutor/{TUTOR}", params={"tenantId": "tenB"})).json()["tenantId"] == "tenB"
    named = await b.get(f"/tutor/{TUTOR}", params={"tenantId": "default"})
    assert named.status_code == 403, named.text


async def test_two_tenants_hold_conversations_of_one_id_each_unseen_by_the_other(clients, live_server):
    a, b = clients
    await install_tutor(a, TUTOR)
    await install_tutor(b, TUTOR, tenant="tenB")
    # B takes the id first; A, coming later to the same id, starts its own conversation: not a
    # 403 that would tell A the id is in use, and nothing of B's is read or written.
    assert (await stream_chat(b, chat_body(TUTOR, "B asks about the switch", "conv-1"))).text("TRACE")
    assert (await stream_chat(a, chat_body(TUTOR, "A asks about the bulb", "conv-1"))).text("TRACE")
    assert (await stream_chat(b, chat_body(TUTOR, "B asks again", "conv-1"))).text("TRACE")
    named = await a.post(
        "/tutor/chat", json=chat_body(TUTOR, "A again", "conv-1", context={"tenantId": "default"})
    )
    assert named.status_code == 200, named.text

    said = await learner_messages(live_server.settings.database_url, "conv-1")
    assert said == {
        "default": ["A asks about the bulb", "A again"],
        "tenB": ["B asks about the switch", "B asks again"],
    }


async def learner_messages(database_url: str, conversation_id: str) -> dict[str, list[str]]:
    """What the learner said in each tenant's conversation of this id, as stored."""
    db = Database(database_url)
    try:
        return await db.run_read(
            lambda c: {
                tenant: [
                    r.content
                    for r in conversations.read_messages(c, tenant, conversation_id)
                    if r.role == "user"
                ]
                for tenant in ("default", "tenB")
            }
        )
    finally:
        await db.aclose()


async def test_a_simulation_scenario_is_not_reachable_from_another_tenant(clients):
    a, b = clients
    task = simulation_task().to_wire()
    started = await a.post("/simulation/start", json={"simulationTask": task, "tenantId": "default"})
    assert started.status_code == 200, started.text
    session = started.json()
    assert session["tutorId"] == "sim:sim-1"

    read = await b.get(f"/tutor/{session['tutorId']}")
    assert read.status_code == 403
    assert task["scenarioDescription"] not in read.text
    squat = await b.put("/tenants/tenB/tutors/sim:sim-1", json={"name": "Shadow"})
    assert squat.status_code == 400
    assert "reserved for the server" in squat.json()["message"]
    joined = await b.post("/tutor/chat", json=chat_body(session["tutorId"], "hi", session["conversationId"]))
    assert joined.status_code == 403
    assert (await a.get(f"/tutor/{session['tutorId']}")).json()["description"] == task["scenarioDescription"]


async def test_a_task_id_in_another_tenant_is_another_task(clients):
    a, b = clients
    assert (await a.post("/tenants/default/tasks", json=mc_task("mc-1"))).json()["action"] == "CREATED"
    theirs = await b.post("/tenants/tenB/tasks", json=mc_task("mc-1", correct=2, title="B's"))
    assert theirs.json()["action"] == "CREATED"
    assert (await a.get("/tenants/default/tasks/mc-1")).json()["definition"]["title"] != "B's"


async def test_a_review_order_reads_only_the_callers_tenants_task(clients):
    a, b = clients
    assert (await a.post("/tenants/default/tasks", json=mc_task("mc-a"))).status_code == 200
    body = {"answers": [{"selectedIndex": 1}, {"selectedIndex": 0}, {"selectedIndex": 0}], "limit": 3}
    ours = await a.post("/tenants/default/tasks/mc-a/review-order", json=body)
    assert (ours.status_code, ours.json()) == (200, {"order": [1, 0, 2]})
    named = await b.post("/tenants/default/tasks/mc-a/review-order", json=body)
    assert named.status_code == 403 and named.json()["type"] == "MISSING_PERMISSIONS"
    own = await b.post("/tenants/tenB/tasks/mc-a/review-order", json=body)
    assert own.status_code == 404 and "tenB" in own.json()["message"]
    assert "mc-a" not in [t["taskId"] for t in (await b.get("/tenants/tenB/tasks")).json()]
