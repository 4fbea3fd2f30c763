"""Inbound webhooks: task events act on the tenant's tasks, other events are kept as received."""

from __future__ import annotations

import json
import unicodedata

import httpx
import pytest

from core.http import tls_context
from tests.server.helpers import bearer, mc_task


@pytest.fixture
async def clients(live_server):
    hook = await live_server.webhook_token("default")
    token = await live_server.token("default")
    async with (
        httpx.AsyncClient(verify=tls_context(), base_url=live_server.base_url) as client,
        httpx.AsyncClient(verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)) as api,
    ):
        yield Webhook(client, f"/webhooks/{hook}"), api


class Webhook:
    """Posts to one tokenised webhook path."""

    def __init__(self, client: httpx.AsyncClient, path: str) -> None:
        self.client, self.path = client, path

    async def post(self, **kwargs) -> httpx.Response:
        return await self.client.post(self.path, **kwargs)


async def test_task_upserted_and_deleted_events(clients):
    webhook, api = clients
    upserted = await webhook.post(json={"event": "task.upserted", "data": mc_task("from-hook")})
    assert upserted.status_code == 200
    assert upserted.json()["received"] is True
    assert (await api.get("/tenants/default/tasks/from-hook")).status_code == 200

    deleted = await webhook.post(json={"event": "task.deleted", "data": {"taskId": "from-hook"}})
    assert deleted.status_code == 200
    assert (await api.get("/tenants/default/tasks/from-hook")).status_code == 404


async def test_a_deleted_event_names_the_task_in_either_unicode_form(clients):
    webhook, api = clients
    assert (await webhook.post(json={"event": "task.upserted", "data": mc_task("Übung")})).status_code == 200
    decomposed = unicodedata.normalize("NFD", "Übung")
    deleted = await webhook.post(json={"event": "task.deleted", "data": {"taskId": decomposed}})
    assert deleted.status_code == 200
    assert (await api.get("/tenants/default/tasks/%C3%9Cbung")).status_code == 404
    hidden = await webhook.post(json={"event": "task.deleted", "data": {"taskId": "mc\u202e1"}})
    assert hidden.status_code == 400


async def test_a_body_typed_as_a_string_is_accepted(clients):
    webhook, _ = clients
    document = json.dumps({"event": "lms.grade", "data": {"score": 3}})
    response = await webhook.post(content=json.dumps(document), headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert response.json()["eventId"]


async def test_bad_payloads_are_refused(clients):
    webhook, api = clients
    no_event = await webhook.post(json={"data": {}})
    assert no_event.status_code == 400
    assert no_event.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    bad_task = await webhook.post(json={"event": "task.upserted", "data": {"id": "x"}})
    assert bad_task.status_code == 400
    assert (await api.get("/tenants/default/tasks")).json() == []


async def test_a_body_that_does_not_say_it_is_json_is_refused_with_415(clients):
    webhook, api = clients
    assert (await api.post("/tenants/default/tasks", json=mc_task("kept"))).status_code == 200
    event = json.dumps({"event": "task.deleted", "data": {"taskId": "kept"}})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": content_type} if content_type else {}
        refused = await webhook.post(content=event, headers=headers)
        assert refused.status_code == 415, content_type
        assert refused.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
        assert "Content-Type: application/json" in refused.json()["message"]
    assert (await api.get("/tenants/default/tasks/kept")).status_code == 200  # nothing was done
    accepted = await webhook.post(content=event, headers={"Content-Type": "application/json; charset=utf-8"})
    assert accepted.status_code == 200
