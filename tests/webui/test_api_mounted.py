"""The API answers the same with the web app mounted on it as on its own (routes, bodies, errors),
and the web app's pages are served beside it, the task page at the taskLink the API returns.
"""

from __future__ import annotations

import httpx
import pytest

from core.config import Settings
from core.http import tls_context
from tests.conftest import ServerThread, create_token, free_port, sqlite_url

TASK = {
    "id": "mc-mounted",
    "type": "MultipleChoiceTask",
    "title": "Mounted",
    "problemStatement": "Which one?",
    "options": [{"content": "A", "correct": True}, {"content": "B"}],
}
COMPUTE = {"userId": "u1", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": 1}}


async def exchange(base_url: str, token: str) -> list[tuple[int, object]]:
    """A few calls across the API's areas, with what varies between two servers taken out."""
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=base_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        upsert = await client.post("/tenants/default/tasks", json=TASK)
        feedback = await client.post("/tasks/mc-mounted/feedback/compute", json=COMPUTE)
        listing = await client.get("/tenants/default/tasks")
        health = await client.get("/tutor/healthcheck")
        unknown = await client.delete("/tenants/default/tasks/no-such-task")
        no_token = await client.post("/feedback/compute", json=COMPUTE, headers={"Authorization": ""})
        openapi = await client.get("/openapi.json")
    result = feedback.json()["result"]
    return [
        (upsert.status_code, {k: v for k, v in upsert.json().items() if k != "taskLink"}),
        (feedback.status_code, (result["points"], [i["message"] for i in result["feedback"]])),
        (
            listing.status_code,
            [(t["title"], t["version"]) for t in listing.json() if t["taskId"] == "mc-mounted"],
        ),
        (health.status_code, health.json()),
        (unknown.status_code, unknown.json()),
        (no_token.status_code, no_token.json()["type"]),
        (openapi.status_code, sorted(openapi.json()["paths"])),
    ]


def settings_for(tmp_path, name: str, port: int) -> Settings:
    (tmp_path / name).mkdir()
    return Settings(database_url=sqlite_url(tmp_path / name), seed_demo=False, port=port)


async def test_the_api_answers_the_same_with_the_web_app_mounted(tmp_path, web_server) -> None:
    from core.server.app import create_app

    port = free_port()
    alone = settings_for(tmp_path, "alone", port)
    with ServerThread(create_app(alone), port):
        expected = await exchange(
            f"http://127.0.0.1:{port}", await create_token(alone.database_url, "default")
        )
    mounted = await exchange(
        web_server.base_url, await create_token(web_server.settings.database_url, "default")
    )
    assert mounted == expected


@pytest.mark.parametrize(
    "path", ["/", "/tutor", "/simulation", "/settings", "/tasks/default/mc-photosynthesis-en"]
)
async def test_the_pages_are_served_beside_the_api(web_server, path: str) -> None:
    async with httpx.AsyncClient(verify=tls_context(), base_url=web_server.base_url) as client:
        response = await client.get(path)
    assert response.status_code == 200
    assert "Feedback Studio" in response.text


async def test_the_task_link_of_the_api_opens_the_task_page(web_server) -> None:
    token = await create_token(web_server.settings.database_url, "default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=web_server.base_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        upsert = await client.post(
            "/tenants/default/tasks", json=TASK | {"id": "mc-linked", "title": "Linked task"}
        )
        page = await client.get(upsert.json()["taskLink"])
    assert page.status_code == 200
    assert "Linked task" in page.text
