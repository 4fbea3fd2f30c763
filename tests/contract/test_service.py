"""Contract: info, health check and inbound webhooks."""

from __future__ import annotations

import inspect

import pytest

from core import API_VERSION
from core.api import NotFound, WebhookPayload
from core.api.webhooks import TASK_DELETED, TASK_UPSERTED
from core.service.base import Service
from tests.contract.builders import mc_task
from tests.contract.conftest import Backend

pytestmark = pytest.mark.contract


async def test_info_describes_the_service_and_its_extensions(backend: Backend) -> None:
    info = await backend.service.info()
    assert info.mode == backend.kind
    assert info.extensions is True
    assert info.apiVersion == API_VERSION
    assert info.defaultTenantId == "default"
    assert info.tenants == ["default"]
    assert info.permissions == {"default": ["access", "delete", "write"]}


async def test_healthcheck(service: Service) -> None:
    assert (await service.healthcheck()).status == "OK"


async def test_webhook_events_act_on_the_tenants_tasks(backend: Backend) -> None:
    service, token = backend.service, await backend.webhook_token()
    upserted = await service.receive_webhook(
        token, WebhookPayload(event=TASK_UPSERTED, data=mc_task().to_wire())
    )
    assert upserted.received and upserted.eventId
    assert (await service.get_task("default", "mc-1")).definition == mc_task()
    deleted = await service.receive_webhook(
        token, WebhookPayload(event=TASK_DELETED, data={"taskId": "mc-1"})
    )
    assert deleted.eventId != upserted.eventId
    with pytest.raises(NotFound):
        await service.get_task("default", "mc-1")
    other = await service.receive_webhook(token, WebhookPayload(event="lms.grade", data={"score": 3}))
    assert other.received


async def test_webhook_with_an_unknown_token_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound, match="webhook token"):
        await service.receive_webhook("wh_unknown", WebhookPayload(event="ping"))


def test_every_method_of_the_protocol_is_implemented_with_its_parameters(service: Service) -> None:
    for name, declared in inspect.getmembers(Service, inspect.isfunction):
        if name.startswith("_"):
            continue
        implemented = getattr(service, name)  # bound: LocalService's may be its area's method
        assert (
            list(inspect.signature(implemented).parameters)
            == list(inspect.signature(declared).parameters)[1:]
        ), name
