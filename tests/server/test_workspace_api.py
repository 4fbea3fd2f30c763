"""The test-answer and retest extensions over real HTTP."""

from __future__ import annotations

import httpx
import pytest

from core.api import ComputeFeedbackRequest, TestAnswerSet, parse_task
from core.auth import Permission
from core.client.retest import retest
from core.http import tls_context
from core.service.remote import RemoteService
from core.workspace.files import write_files
from tests.server.helpers import bearer, compute_body, mc_task

TEST_ANSWERS = "/tenants/default/tasks/mc-1/test-answers"
BERN = {"label": "bern", "answer": {"selectedIndex": 0}, "expected": {"verdict": "CORRECT"}}


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        yield c


async def test_test_answers_are_stored_listed_and_deleted(client):
    await client.post("/tenants/default/tasks", json=mc_task())
    zurich = {"label": "zurich", "answer": {"selectedIndex": 1}, "expected": {"verdict": "WRONG"}}

    put = await client.put(TEST_ANSWERS, json={"answers": [BERN, zurich]})
    assert put.status_code == 200
    assert [a["label"] for a in put.json()["answers"]] == ["bern", "zurich"]

    deleted = await client.delete(f"{TEST_ANSWERS}/zurich")
    assert [a["label"] for a in deleted.json()["answers"]] == ["bern"]
    listed = await client.get(TEST_ANSWERS)
    assert listed.json() == {
        "taskId": "mc-1",
        "answers": [BERN | {"expected": {"verdict": "CORRECT", "present": [], "absent": []}}],
    }
    assert (await client.delete(f"{TEST_ANSWERS}/zurich")).status_code == 404


async def test_retest_reports_a_verdict_change_after_the_correct_option_moved(client):
    await client.post("/feedback/compute", json=compute_body(mc_task(correct=0), {"selectedIndex": 1}))
    await client.put(TEST_ANSWERS, json={"answers": [BERN]})
    await client.post("/tenants/default/tasks", json=mc_task(correct=1))

    response = await client.post("/tenants/default/retest", json={"taskIds": ["mc-1"]})

    assert response.status_code == 200
    report = response.json()
    assert (report["passed"], report["failed"], report["changedCount"]) == (False, 1, 1)
    test, earlier = report["tasks"][0]["answers"]
    assert test["failures"] == ["expected CORRECT, got WRONG"]
    assert (earlier["before"]["verdict"], earlier["after"]["verdict"], earlier["verdictChanged"]) == (
        "WRONG",
        "CORRECT",
        True,
    )


async def test_a_test_answer_of_the_wrong_shape_is_refused(client):
    await client.post("/tenants/default/tasks", json=mc_task())
    response = await client.put(
        TEST_ANSWERS, json={"answers": [{"label": "x", "answer": {"content": "Bern"}}]}
    )
    assert response.status_code == 400
    assert response.json()["type"] == "INVALID_PARAMETER"


async def test_storing_test_answers_needs_write_but_retest_only_access(live_server):
    token = await live_server.token("default", Permission.ACCESS)
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as reader:
        refused = await reader.put(TEST_ANSWERS, json={"answers": [BERN]})
        assert (refused.status_code, refused.json()["type"]) == (403, "MISSING_PERMISSIONS")
        assert (await reader.post("/tenants/default/retest", json={})).status_code == 200
        assert (await reader.post("/tenants/default/retest", json={"taskIds": ["nope"]})).status_code == 404


async def test_a_remote_is_retested_through_its_public_calls_with_the_files(live_server, tmp_path):
    token = await live_server.token("default")
    remote = RemoteService(live_server.base_url, token, timeout=10)
    try:
        await remote.compute_feedback(
            ComputeFeedbackRequest.model_validate(compute_body(mc_task(), {"selectedIndex": 1}))
        )
        edited = parse_task(mc_task(correct=1))
        write_files(
            tmp_path, [edited], [TestAnswerSet.model_validate({"taskId": "mc-1", "answers": [BERN]})], "json"
        )

        report = await retest(remote, "default", files=tmp_path)
    finally:
        await remote.aclose()

    test, earlier = report.tasks[0].answers
    assert test.failures == ["expected CORRECT, got WRONG"]
    assert (earlier.source, earlier.before.verdict, earlier.after.verdict) == (
        "INTERACTION",
        "WRONG",
        "CORRECT",
    )
