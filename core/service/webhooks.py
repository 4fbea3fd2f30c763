"""Webhooks in the local service (API.md 2.10): a call is authorised by its path token alone,
which names the tenant; task events change the tenant's tasks, every event is recorded."""

from __future__ import annotations

from pydantic import ValidationError

from core.api import InvalidParameter, NotFound, WebhookPayload, WebhookReceipt, check_task, parse_task
from core.api.tasks import normalised_id
from core.api.webhooks import TASK_DELETED, TASK_UPSERTED
from core.service.context import Context
from core.store import principals, tasks
from core.store.task_history import WEBHOOK_AUTHOR


class WebhookOperations:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt:
        async with self.ctx.runtime.db.read() as session:
            tenant = await principals.tenant_for_webhook_token(session, token)
        if tenant is None:
            raise NotFound("unknown webhook token")
        async with self.ctx.runtime.db.write() as session:
            if payload.event == TASK_UPSERTED:
                try:
                    task = parse_task(payload.data)
                except ValidationError as exc:
                    raise InvalidParameter(
                        f"task.upserted: data is not a task definition ({exc.error_count()} errors)"
                    ) from None
                check_task(task)
                await tasks.upsert_task(session, tenant, task, author=WEBHOOK_AUTHOR)
            elif payload.event == TASK_DELETED:
                task_id = payload.data.get("taskId") if isinstance(payload.data, dict) else None
                if not isinstance(task_id, str):
                    raise InvalidParameter("task.deleted: data must be {taskId: string}")
                try:
                    task_id = normalised_id(task_id)  # the id the task was stored under
                except ValueError as exc:
                    raise InvalidParameter(f"task.deleted: {exc}") from None
                await tasks.delete_task(session, tenant, task_id)
            event_id = await principals.record_webhook_event(session, tenant, payload.event, payload.data)
        return WebhookReceipt(received=True, eventId=event_id)
