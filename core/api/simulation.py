"""Simulation sessions (API.md 2.8 with DESIGN.md's request and response)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from core.api.common import ApiModel
from core.api.tasks import SimulationTask


class StartSimulationRequest(ApiModel):
    simulationTask: SimulationTask
    tenantId: str = Field(min_length=1, max_length=200)
    userId: str | None = Field(default=None, max_length=200)


class SimulationSession(ApiModel):
    id: str
    conversationId: str
    taskId: str
    userId: str
    tutorId: str
    initialMessages: list[str]
    startedAt: datetime
    expiresAt: datetime | None = None
