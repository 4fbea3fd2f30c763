"""Webhooks in the local service (API.md 2.10): a call is authorised by its path token alone,
which names the tenant; task events change the tenant's tasks, every event is recorded."""

from __future__ import annotations

from functools import partial

from pydantic import ValidationError
from sqlalchemy import Connection

from core.api import (
    InvalidParameter,
    NotFound,
    TaskBase,
    WebhookPayload,
    WebhookReceipt,
    check_task,
    parse_task,
)
from core.api.tasks import normalised_id
from core.api.webhooks import TASK_DELETED, TASK_UPSERTED
from core.service.caller import Caller
from core.store import principals, tasks
from core.store.task_history import WEBHOOK_AUTHOR


class WebhookOperations:
    def __init__(self, caller: Caller) -> None:
        self.caller = caller

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt:
        tenant = await self.caller.runtime.db.run_read(
            partial(principals.tenant_for_webhook_token, token=token)
        )
        if tenant is None:
            raise NotFound("unknown webhook token")
        change = _task_change(payload)

        def receive(connection: Connection) -> str:
            if isinstance(change, TaskBase):
                tasks.write_task(connection, tenant, change, author=WEBHOOK_AUTHOR)
            elif change is not None:
                tasks.remove_task(connection, tenant, change)
            return principals.record_webhook_event(connection, tenant, payload.event, payload.data)

        event_id = await self.caller.runtime.db.run_write(receive)
        return WebhookReceipt(received=True, eventId=event_id)


def _task_change(payload: WebhookPayload) -> TaskBase | str | None:
    """What the event does to the tenant's tasks: the task to write (task.upserted), the id of the
    task to remove (task.deleted), or nothing; InvalidParameter for data that does not fit."""
    if payload.event == TASK_UPSERTED:
        try:
            task = parse_task(payload.data)
        except ValidationError as exc:
            raise InvalidParameter(
                f"task.upserted: data is not a task definition ({exc.error_count()} errors)"
            ) from None
        check_task(task)
        return task
    if payload.event == TASK_DELETED:
        task_id = payload.data.get("taskId") if isinstance(payload.data, dict) else None
        if not isinstance(task_id, str):
            raise InvalidParameter("task.deleted: data must be {taskId: string}")
        try:
            return normalised_id(task_id)  # the id the task was stored under
        except ValueError as exc:
            raise InvalidParameter(f"task.deleted: {exc}") from None
    return None
