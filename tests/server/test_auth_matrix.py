"""Every endpoint × {no header, malformed header, unknown token, another tenant, missing permission}.

Each row names the permission the endpoint needs on tenant "default"; the token of the
"missing permission" column has every permission except that one (ACCESS-only endpoints are
checked with a token of another tenant instead, since access is the least a token has).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from core.auth import Permission
from core.http import tls_context
from tests.server.helpers import bearer, compute_body, mc_task


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    body: Callable[[], Any] | None
    needs: Permission
    tenant_scoped: bool = True
    """False for the service-wide endpoints (health checks, service info) that name no tenant."""

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


INTERACTION = "{interaction}"
TRACE = "{trace}"
CLASS_SET = "/tenants/default/class-sets/cs-0"
SIMULATION_TASK = {
    "id": "sim-new",
    "type": "SimulationTask",
    "problemStatement": "Calm an upset customer.",
    "persona": {"name": "Ms Meier"},
}
ENDPOINTS = [
    Endpoint(
        "POST",
        "/feedback/compute",
        lambda: compute_body(mc_task("mc-new"), {"selectedIndex": 0}, tenantId="default"),
        Permission.WRITE,
    ),
    Endpoint(
        "POST",
        "/tasks/mc-1/feedback/compute",
        lambda: {
            "userId": "u",
            "tenantId": "default",
            "taskType": "MULTIPLE_CHOICE",
            "answer": {"selectedIndex": 0},
        },
        Permission.ACCESS,
    ),
    Endpoint("POST", "/tenants/default/tasks", lambda: mc_task("mc-2"), Permission.WRITE),
    Endpoint("DELETE", "/tenants/default/tasks/mc-1", None, Permission.DELETE),
    Endpoint(
        "POST",
        "/tasks/aspects/compute",
        lambda: {"tenantId": "default", "taskDefinition": mc_task()},
        Permission.ACCESS,
    ),
    Endpoint(
        "PUT", f"/interactions/{INTERACTION}/end-user-rating", lambda: {"type": "GOOD"}, Permission.ACCESS
    ),
    Endpoint("GET", "/tenants/default/tasks", None, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tasks/mc-1", None, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tasks/mc-1/interactions", None, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tasks/mc-1/versions", None, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tasks/mc-1/versions/1", None, Permission.ACCESS),
    Endpoint("GET", f"/interactions/{INTERACTION}", None, Permission.ACCESS),
    Endpoint(
        "PUT",
        f"/interactions/{INTERACTION}/verdict-override",
        lambda: {"verdict": "CORRECT"},
        Permission.ACCESS,
    ),
    Endpoint("DELETE", f"/interactions/{INTERACTION}/verdict-override", None, Permission.ACCESS),
    Endpoint(
        "POST",
        "/tenants/default/tasks/mc-1/graded-answers",
        lambda: {"answers": [{"answer": {"selectedIndex": 0}, "correctness": "CORRECT"}]},
        Permission.WRITE,
    ),
    Endpoint(
        "POST",
        "/tenants/default/tasks/mc-1/review-order",
        lambda: {"answers": [{"selectedIndex": 0}, {"selectedIndex": 1}], "limit": 2},
        Permission.ACCESS,
    ),
    Endpoint("GET", "/tenants/default/tasks/mc-1/sample-solution-checks", None, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tasks/mc-1/test-answers", None, Permission.ACCESS),
    Endpoint("PUT", "/tenants/default/tasks/mc-1/test-answers", lambda: {"answers": []}, Permission.WRITE),
    Endpoint(
        "POST",
        "/tenants/default/tasks/mc-1/test-answers",
        lambda: {"answers": [{"label": "t2", "answer": {"selectedIndex": 1}}]},
        Permission.WRITE,
    ),
    Endpoint("DELETE", "/tenants/default/tasks/mc-1/test-answers/t1", None, Permission.WRITE),
    Endpoint("POST", "/tenants/default/retest", lambda: {"taskIds": ["mc-1"]}, Permission.ACCESS),
    Endpoint("GET", "/tenants/default/tutors", None, Permission.ACCESS),
    Endpoint("PUT", "/tenants/default/tutors/tutor-2", lambda: {"name": "Second tutor"}, Permission.WRITE),
    Endpoint("GET", "/tutor/tutor-1", None, Permission.ACCESS),
    Endpoint(
        "POST",
        "/tutor/chat",
        lambda: {"tutorId": "tutor-1", "messages": [{"role": "user", "content": "Help"}]},
        Permission.ACCESS,
    ),
    Endpoint(
        "POST",
        "/tutor/chat/stream",
        lambda: {"tutorId": "tutor-1", "messages": [{"role": "user", "content": "Help"}]},
        Permission.ACCESS,
    ),
    Endpoint("POST", f"/trace/{TRACE}/rate", lambda: {"score": 1}, Permission.ACCESS),
    Endpoint(
        "POST",
        "/simulation/start",
        lambda: {"simulationTask": SIMULATION_TASK, "tenantId": "default"},
        Permission.WRITE,
    ),
    Endpoint("POST", "/tenants/default/tasks/mc-1/class-sets", lambda: {"answers": ["A"]}, Permission.WRITE),
    Endpoint("GET", "/tenants/default/class-sets", None, Permission.ACCESS),
    Endpoint("GET", f"{CLASS_SET}", None, Permission.ACCESS),
    Endpoint("DELETE", f"{CLASS_SET}", None, Permission.WRITE),
    Endpoint("POST", f"{CLASS_SET}/answers", lambda: {"answers": ["B"]}, Permission.WRITE),
    Endpoint("POST", f"{CLASS_SET}/judge", lambda: {"limit": 10}, Permission.WRITE),
    Endpoint("GET", f"{CLASS_SET}/answers", None, Permission.ACCESS),
    Endpoint("PUT", f"{CLASS_SET}/answers/0/grade", lambda: {"correctness": "CORRECT"}, Permission.WRITE),
    Endpoint("DELETE", f"{CLASS_SET}/answers/0/grade", None, Permission.WRITE),
    Endpoint("GET", f"{CLASS_SET}/export", None, Permission.ACCESS),
    Endpoint("GET", "/tutor/healthcheck", None, Permission.ACCESS, tenant_scoped=False),
    Endpoint("GET", "/tutor/healthcheck/chat", None, Permission.ACCESS, tenant_scoped=False),
    Endpoint("GET", "/studio/info", None, Permission.ACCESS, tenant_scoped=False),
]


@pytest.fixture(scope="module")
def world(module_live_server):
    """A task and an interaction on tenant "default", and tokens for every column of the matrix.

    No request of the matrix succeeds, so one server serves the whole module.
    """
    server = module_live_server
    owner = asyncio.run(server.token("default"))
    with httpx.Client(verify=tls_context(), base_url=server.base_url, headers=bearer(owner)) as client:
        feedback = client.post("/feedback/compute", json=compute_body(mc_task("mc-1"), {"selectedIndex": 0}))
        client.put(
            "/tenants/default/tasks/mc-1/test-answers",
            json={"answers": [{"label": "t1", "answer": {"selectedIndex": 0}}]},
        ).raise_for_status()
        client.put(
            "/tenants/default/tutors/tutor-1", json={"name": "Tutor", "taskId": "mc-1"}
        ).raise_for_status()
        chat = client.post(
            "/tutor/chat", json={"tutorId": "tutor-1", "messages": [{"role": "user", "content": "Hi"}]}
        )
        chat.raise_for_status()
    tokens = {
        "other_tenant": asyncio.run(server.token("elsewhere")),
        "access_only": asyncio.run(server.token("default", Permission.ACCESS)),
        "no_delete": asyncio.run(server.token("default", Permission.ACCESS, Permission.WRITE)),
        "no_write": asyncio.run(server.token("default", Permission.ACCESS, Permission.DELETE)),
    }
    ids = {INTERACTION: feedback.json()["metaData"]["interactionId"], TRACE: chat.json()["traceId"]}
    return server.base_url, ids, tokens


async def call(
    base_url: str, endpoint: Endpoint, ids: dict[str, str], headers: dict[str, str]
) -> httpx.Response:
    path = endpoint.path
    for placeholder, value in ids.items():
        path = path.replace(placeholder, value)
    async with httpx.AsyncClient(verify=tls_context(), base_url=base_url) as client:
        return await client.request(
            endpoint.method,
            path,
            json=endpoint.body() if endpoint.body else None,
            headers=headers,
        )


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({}, "missing"),
        ({"Authorization": "Token abc"}, "malformed"),
        ({"Authorization": "Bearer"}, "malformed"),
        ({"Authorization": "Bearer fs_not-a-real-token"}, "unknown"),
    ],
    ids=["no-header", "not-bearer", "empty-bearer", "unknown-token"],
)
async def test_bad_credentials_give_400_invalid_token(world, endpoint, headers, why):
    base_url, ids, _ = world
    response = await call(base_url, endpoint, ids, headers)
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "INVALID_TOKEN"
    assert why in response.json()["message"]


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if e.tenant_scoped], ids=str)
async def test_another_tenant_gets_403(world, endpoint):
    base_url, ids, tokens = world
    response = await call(base_url, endpoint, ids, bearer(tokens["other_tenant"]))
    assert response.status_code == 403, response.text
    assert response.json()["type"] == "MISSING_PERMISSIONS"


@pytest.mark.parametrize("endpoint", [e for e in ENDPOINTS if e.needs is not Permission.ACCESS], ids=str)
async def test_missing_permission_gets_403(world, endpoint):
    base_url, ids, tokens = world
    lacking = tokens["no_delete"] if endpoint.needs is Permission.DELETE else tokens["no_write"]
    response = await call(base_url, endpoint, ids, bearer(lacking))
    assert response.status_code == 403, response.text
    assert response.json()["type"] == "MISSING_PERMISSIONS"
    assert endpoint.needs.value in response.json()["message"]


def test_the_matrix_covers_every_operation(module_live_server):
    """A new endpoint cannot escape the matrix: every operation of the OpenAPI must be in it."""
    paths = httpx.get(f"{module_live_server.base_url}/openapi.json", verify=tls_context()).json()["paths"]
    missing = [
        f"{method.upper()} {template}"
        for template, methods in paths.items()
        if template != "/webhooks/{token}"  # authorised by its path token: test_webhook_needs_…
        for method in methods
        if not any(
            e.method == method.upper() and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), e.path)
            for e in ENDPOINTS
        )
    ]
    assert missing == []


def test_every_operation_of_the_matrix_declares_the_bearer_token(module_live_server):
    """/docs offers its Authorize button for each of them, however the route reads the token."""
    openapi = httpx.get(f"{module_live_server.base_url}/openapi.json", verify=tls_context()).json()
    operations = {
        f"{method.upper()} {template}": operation
        for template, methods in openapi["paths"].items()
        for method, operation in methods.items()
    }
    undeclared = [
        name
        for name, operation in operations.items()
        if not name.endswith("/webhooks/{token}") and operation.get("security") != [{"bearer": []}]
    ]
    assert openapi["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    assert undeclared == []


async def test_access_alone_computes_feedback_on_an_unchanged_task(world):
    """A learner-facing client with access only may compute as long as it changes no task."""
    base_url, _, tokens = world
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=base_url, headers=bearer(tokens["access_only"])
    ) as client:
        same = await client.post(
            "/feedback/compute", json=compute_body(mc_task("mc-1"), {"selectedIndex": 1})
        )
        assert (await client.get("/tenants/default/tasks/mc-1")).json()["version"] == 1
        changed = await client.post(
            "/feedback/compute", json=compute_body(mc_task("mc-1", correct=2), {"selectedIndex": 1})
        )
    assert same.status_code == 200
    assert changed.status_code == 403
    assert changed.json()["type"] == "MISSING_PERMISSIONS"


async def test_webhook_needs_a_known_path_token_and_no_bearer(live_server):
    token = await live_server.webhook_token("default")
    async with httpx.AsyncClient(verify=tls_context(), base_url=live_server.base_url) as client:
        unknown = await client.post("/webhooks/wh_unknown", json={"event": "ping", "data": {}})
        known = await client.post(f"/webhooks/{token}", json={"event": "ping", "data": {"n": 1}})
    assert unknown.status_code == 404
    assert unknown.json()["type"] == "INVALID_PARAMETER"
    assert known.status_code == 200
    assert known.json()["received"] is True


async def test_access_alone_orders_answers_for_review(world):
    """Ordering answers for grading reads the task and records nothing: access suffices."""
    base_url, _, tokens = world
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=base_url, headers=bearer(tokens["access_only"])
    ) as client:
        response = await client.post(
            "/tenants/default/tasks/mc-1/review-order",
            json={"answers": [{"selectedIndex": 2}, {"selectedIndex": 0}, {"selectedIndex": 0}]},
        )
    assert response.status_code == 200, response.text
    assert response.json() == {"order": [1, 0, 2]}
