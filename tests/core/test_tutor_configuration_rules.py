"""Rules of tutor configurations: ids that name a tenant belong to it, and an engine that cannot
work is refused when the tutor is saved, not at every chat."""

from __future__ import annotations

import pytest

from core.api import InvalidParameter, MissingPermissions, NotFound, StartSimulationRequest, TutorUpsert
from core.auth import local_principal
from core.service.local import LocalService
from core.store import conversations, principals
from tests.contract.builders import simulation_task


@pytest.fixture
async def intruder(runtime) -> LocalService:
    async with runtime.db.write() as session:
        await principals.ensure_tenant(session, "tenB")
    return LocalService(runtime, local_principal("tenB"))


async def test_a_client_cannot_create_a_tutor_under_the_simulation_prefix(intruder):
    with pytest.raises(InvalidParameter, match="reserved for simulation sessions"):
        await intruder.put_tutor("tenB", "sim:default:sim-1", TutorUpsert(name="Shadow"))


async def test_a_squatted_simulation_tutor_is_taken_back_and_the_scenario_stays_private(
    runtime, service, intruder
):
    # A row an earlier version let tenant B create under tenant A's simulation id.
    async with runtime.db.write() as session:
        await conversations.put_tutor(session, "tenB", "sim:default:sim-1", {"name": "Shadow"})
    task = simulation_task()
    await service.start_simulation(StartSimulationRequest(simulationTask=task, tenantId="default"))
    with pytest.raises((MissingPermissions, NotFound)):
        await intruder.get_tutor("sim:default:sim-1")
    assert (await service.get_tutor("sim:default:sim-1")).description == task.scenarioDescription


async def test_a_tutor_on_the_llm_engine_is_refused_while_no_model_server_is_configured(service):
    with pytest.raises(InvalidParameter, match="needs a model server"):
        await service.put_tutor("default", "t-llm", TutorUpsert(name="Chatty", engine="llm"))
    assert "t-llm" not in {t.id for t in await service.list_tutors("default")}
