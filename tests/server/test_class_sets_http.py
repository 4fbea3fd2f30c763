"""Class sets over HTTP: a script creates a set, adds to it, reads pages, grades and exports it; bad
input gets 400, 404 or 413 with a clear message in the API's error body, and nothing is stored."""

from __future__ import annotations

import csv
import io

import httpx
import pytest

from core.assets import demo_tasks
from core.http import tls_context
from tests.server.helpers import bearer, mc_task

TASK = next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en")
SETS = "/tenants/default/class-sets"
CREATE = f"/tenants/default/tasks/{TASK['id']}/class-sets"


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token), timeout=60
    ) as c:
        (await c.post("/tenants/default/tasks", json=TASK)).raise_for_status()
        yield c


async def assert_no_set(client: httpx.AsyncClient) -> None:
    assert (await client.get(SETS)).json() == []


async def test_a_script_creates_adds_reads_grades_and_exports(client) -> None:
    created = await client.post(CREATE, json={"name": "7b", "answers": ["The circuit is closed.", "Magic."]})
    assert created.status_code == 201, created.text
    set_id = created.json()["classSetId"]
    added = await client.post(f"{SETS}/{set_id}/answers", json={"answers": ["Magic.", "It is off."]})
    assert added.json()["answerCount"] == 4
    page = await client.get(f"{SETS}/{set_id}/answers", params={"order": "POSITION", "offset": 1, "limit": 2})
    assert [a["text"] for a in page.json()["answers"]] == ["Magic.", "Magic."]
    assert page.json()["total"] == 4 and all(a["gradedBy"] == "JUDGE" for a in page.json()["answers"])
    graded = await client.put(f"{SETS}/{set_id}/answers/1/grade", json={"correctness": "WRONG"})
    assert graded.json()["gradedCount"] == 1
    exported = await client.get(f"{SETS}/{set_id}/export")
    assert exported.headers["content-type"].startswith("text/csv")
    assert f'filename="{set_id}.csv"' in exported.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert [(r["answer"], r["verdict"], r["graded_by"]) for r in rows[1:3]] == [
        ("Magic.", "WRONG", "AUTHOR")
    ] * 2


@pytest.mark.parametrize(
    ("body", "status", "message_part"),
    [
        ({"answers": ["x"] * 1_001}, 400, "answers"),
        ({"answers": ["y" * 100_000]}, 400, "5000"),
        ({"answers": [42]}, 400, "answers"),
        ({"name": "n" * 201}, 400, "name"),
    ],
    ids=["too-many-in-one-request", "an-answer-of-100-kB", "not-a-string", "name-too-long"],
)
async def test_bad_sets_are_refused_and_nothing_is_stored(client, body, status, message_part) -> None:
    response = await client.post(CREATE, json=body)
    assert response.status_code == status, response.text
    assert message_part in response.json()["message"]
    await assert_no_set(client)


async def test_a_body_over_the_servers_limit_is_413(client) -> None:
    response = await client.post(CREATE, json={"answers": ["z" * 4_000] * 300})  # 1.2 MB
    assert response.status_code == 413
    await assert_no_set(client)


async def test_a_set_beyond_5000_answers_is_refused_and_keeps_what_it_had(client) -> None:
    set_id = (await client.post(CREATE, json={"answers": ["a"] * 1_000})).json()["classSetId"]
    for _ in range(4):
        assert (
            await client.post(f"{SETS}/{set_id}/answers", json={"answers": ["b"] * 1_000})
        ).status_code == 200
    refused = await client.post(f"{SETS}/{set_id}/answers", json={"answers": ["c"]})
    assert refused.status_code == 400 and "at most 5000 answers" in refused.json()["message"]
    assert (await client.get(f"{SETS}/{set_id}")).json()["answerCount"] == 5_000


async def test_bad_grades_and_pages(client) -> None:
    set_id = (await client.post(CREATE, json={"answers": ["a", "b"]})).json()["classSetId"]
    cases = [
        (
            "PUT",
            f"{SETS}/{set_id}/answers/0/grade",
            {"correctness": "UNKNOWN"},
            400,
            "CORRECT, PARTIAL or WRONG",
        ),
        (
            "PUT",
            f"{SETS}/{set_id}/answers/0/grade",
            {"correctness": "PARTIAL", "points": 99},
            400,
            "maxPoints",
        ),
        ("PUT", f"{SETS}/{set_id}/answers/7/grade", {"correctness": "WRONG"}, 404, "position 7"),
        ("GET", f"{SETS}/{set_id}/answers?limit=501", None, 400, "limit"),
        ("GET", f"{SETS}/{set_id}/answers?order=RANDOM", None, 400, "order"),
        ("GET", f"{SETS}/cs-nothing", None, 404, "class set 'cs-nothing' does not exist"),
        ("POST", "/tenants/default/tasks/nothing/class-sets", {"answers": ["a"]}, 404, "nothing"),
    ]
    for method, path, body, status, part in cases:
        response = await client.request(method, path, json=body)
        assert response.status_code == status, (path, response.text)
        assert part in response.json()["message"], response.json()
    assert (await client.get(f"{SETS}/{set_id}")).json()["gradedCount"] == 0


async def test_a_multiple_choice_task_has_no_class_sets(client) -> None:
    (await client.post("/tenants/default/tasks", json=mc_task())).raise_for_status()
    response = await client.post("/tenants/default/tasks/mc-1/class-sets", json={"answers": ["A"]})
    assert response.status_code == 400 and "free-text" in response.json()["message"]
    await assert_no_set(client)


async def test_the_openapi_documents_the_class_set_operations_with_their_limits(client) -> None:
    openapi = (await client.get("/openapi.json")).json()
    paths = openapi["paths"]
    assert {"post"} <= set(paths["/tenants/{tenantId}/tasks/{taskId}/class-sets"])
    assert {"get", "delete"} <= set(paths["/tenants/{tenantId}/class-sets/{classSetId}"])
    assert (
        "text/csv"
        in paths["/tenants/{tenantId}/class-sets/{classSetId}/export"]["get"]["responses"]["200"]["content"]
    )
    create = openapi["components"]["schemas"]["ClassSetCreate"]["properties"]["answers"]
    assert create["maxItems"] == 1_000 and create["items"]["maxLength"] == 5_000
