"""A request that judges free text while the text models still load waits for them off the event
loop: the rest of the process (choice tasks, health checks) goes on answering meanwhile."""

from __future__ import annotations

import asyncio
import threading

import pytest

from core.api import AspectsComputeRequest, FreeformTextTask
from core.service import runtime as runtime_module
from core.service.local import LocalService
from tests.contract.builders import compute, mc_task

CIRCUIT = FreeformTextTask(
    id="circuit",
    problemStatement="What must you do so that the bulb lights up?",
    sampleSolutions=[{"content": "Close the circuit from one pole of the battery to the other."}],
)


async def _compute(service: LocalService) -> bool:
    feedback = await service.compute_feedback(compute(CIRCUIT, {"content": "Close the circuit."}))
    return feedback.result.points.achievedPoints > 0


async def _retest(service: LocalService) -> bool:
    report = await service.retest("default", [CIRCUIT.id])
    return [t.taskId for t in report.tasks] == [CIRCUIT.id]


async def _suggest_aspects(service: LocalService) -> bool:
    request = AspectsComputeRequest(tenantId="default", taskDefinition=CIRCUIT)
    return bool(await service.compute_aspects(request))


@pytest.mark.parametrize("reads_free_text", [_compute, _retest, _suggest_aspects])
async def test_free_text_waits_for_the_models_while_a_choice_task_is_answered(
    service: LocalService, monkeypatch: pytest.MonkeyPatch, reads_free_text
) -> None:
    """Feedback on free text, a retest of a free-text task and aspect suggestion all read text
    with the models."""
    await service.upsert_task("default", CIRCUIT)
    loaded = threading.Event()
    loading = threading.Thread(target=loaded.wait, name="text-models")
    loading.start()
    monkeypatch.setattr(runtime_module, "preload_in_background", lambda: loading)
    try:
        waiting = asyncio.create_task(reads_free_text(service))
        choice = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
        await asyncio.sleep(0.05)
        # The choice task was answered while the models were loading; the free text waits.
        assert choice.result.points is not None and loading.is_alive()
        assert not waiting.done()
    finally:
        loaded.set()
    assert await waiting
