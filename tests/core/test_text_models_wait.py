"""A request that judges free text while the text models still load waits for them off the event
loop: the rest of the process (choice tasks, health checks) goes on answering meanwhile."""

from __future__ import annotations

import asyncio
import threading

import pytest

from core.api import FreeformTextTask
from core.service import runtime as runtime_module
from core.service.local import LocalService
from tests.contract.builders import compute, mc_task

CIRCUIT = FreeformTextTask(
    id="circuit",
    problemStatement="What must you do so that the bulb lights up?",
    sampleSolutions=[{"content": "Close the circuit from one pole of the battery to the other."}],
)


async def test_free_text_waits_for_the_models_while_a_choice_task_is_answered(
    service: LocalService, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = threading.Event()
    loading = threading.Thread(target=loaded.wait, name="text-models")
    loading.start()
    monkeypatch.setattr(runtime_module, "warm_up", lambda: loading)
    try:
        freeform = asyncio.create_task(
            service.compute_feedback(compute(CIRCUIT, {"content": "Close the circuit."}))
        )
        choice = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
        await asyncio.sleep(0.05)
        # The choice task was answered while the models were loading; the free text waits.
        assert choice.result.points is not None and loading.is_alive()
        assert not freeform.done()
    finally:
        loaded.set()
    feedback = await freeform
    assert feedback.result.points.achievedPoints > 0
