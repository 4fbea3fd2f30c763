"""Inbound webhooks (DESIGN.md: payload {event, data}; answer {received, eventId})."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from core.api.common import ApiModel

TASK_UPSERTED = "task.upserted"
TASK_DELETED = "task.deleted"


class WebhookPayload(ApiModel):
    event: str = Field(min_length=1, max_length=200)
    data: Any = None


class WebhookReceipt(ApiModel):
    received: bool = True
    eventId: str
