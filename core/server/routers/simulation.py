"""Simulation sessions (API.md 2.8 and 4: POST /simulation/start)."""

from fastapi import APIRouter

from core.api import SimulationSession, StartSimulationRequest
from core.server.deps import ServiceDep

router = APIRouter(tags=["simulation"])


@router.post("/simulation/start", response_model=SimulationSession, response_model_exclude_none=True)
async def start_simulation(body: StartSimulationRequest, service: ServiceDep) -> SimulationSession:
    """A new session: the learner then talks to its tutorId with its conversationId."""
    return await service.start_simulation(body)
