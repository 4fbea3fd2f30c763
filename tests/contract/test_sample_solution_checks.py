"""Contract: how the engine judges a stored task's own sample solutions (authoring extension), so an
editor can warn of one that learners writing it would be told is not right, on any service."""

from __future__ import annotations

import pytest

from core.api import Correctness, NotFound
from core.service.base import Service
from tests.contract.builders import mc_task
from tests.core.engine.test_freeform_self_check import concept, task

pytestmark = pytest.mark.contract


async def test_each_sample_solution_is_judged_and_what_it_lacks_is_named(service: Service) -> None:
    checked = task(
        "Closing the switch completes the circuit.",
        "  ",
        "Closing the switch completes the circuit and the tungsten filament glows.",
        aspects=[
            concept("closed circuit", "completes the circuit"),
            concept("resistance heats the filament", "tungsten filament glows"),
        ],
    )
    await service.upsert_task("default", checked)
    checks = (await service.check_sample_solutions("default", checked.id)).checks
    assert [(c.number, c.verdict, c.missingConcepts, c.misconceptions) for c in checks] == [
        (1, Correctness.PARTIAL, ["resistance heats the filament"], []),
        (3, Correctness.CORRECT, [], []),
    ]
    assert [c.passes for c in checks] == [False, True]


async def test_a_task_judged_exactly_has_nothing_to_check(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    assert (await service.check_sample_solutions("default", "mc-1")).checks == []


async def test_an_unknown_task_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.check_sample_solutions("default", "no-such-task")
