"""What both task editors do on save: save, then ask the service how its engine judges the sample
solutions, and warn in the app's language of one that would not score CORRECT."""

from __future__ import annotations

from core.api import Correctness, SampleSolutionCheck, ServiceError, TaskAction, UpsertTaskResponse
from core.client import i18n
from core.client.authoring import SaveOutcome, save_and_check
from core.client.library import TaskLibrary
from core.service.local import LocalService
from tests.contract.builders import mc_task
from tests.core.engine.test_freeform_self_check import concept, task


def same(message: str) -> str:
    return message


async def test_a_saved_solution_that_lacks_a_concept_is_named_with_what_to_change(
    service: LocalService,
) -> None:
    checked = task(
        "Closing the switch completes the circuit.",
        aspects=[
            concept("closed circuit", "completes the circuit"),
            concept("resistance heats the filament", "tungsten filament glows"),
        ],
    )
    saved = await save_and_check(await TaskLibrary.of(service), checked, expected_version=0)
    assert saved.response.action.value == "CREATED"
    assert saved.warnings(same) == [
        "Sample solution 1 scores PARTIAL on this task: it does not show “resistance heats the filament” "
        "(give a cue in the words the solution uses)."
    ]
    [german] = saved.warnings(lambda message: i18n.translate("de", message))
    assert german.startswith("Musterlösung 1 erreicht PARTIAL in dieser Aufgabe: ")


async def test_solutions_that_pass_and_tasks_judged_exactly_give_no_warning(service: LocalService) -> None:
    library = await TaskLibrary.of(service)
    assert (await save_and_check(library, task("Closing the switch completes the circuit."))).warnings(
        same
    ) == []
    assert (await save_and_check(library, mc_task())).warnings(same) == []


async def test_a_check_that_cannot_be_made_leaves_the_save_standing_and_says_why(
    service: LocalService, monkeypatch
) -> None:
    async def refused(tenant_id: str, task_id: str) -> None:
        raise ServiceError("the server is busy")

    monkeypatch.setattr(service, "check_sample_solutions", refused)
    saved = await save_and_check(await TaskLibrary.of(service), task("Current flows in a closed loop."))
    assert saved.response.action.value == "CREATED"
    assert saved.warnings(same) == ["The sample solutions were not checked: the server is busy."]


def test_several_reasons_and_names_are_joined_in_one_sentence() -> None:
    check = SampleSolutionCheck(
        number=2, verdict=Correctness.WRONG, missingConcepts=["a", "b", "c"], misconceptions=["d"]
    )
    outcome = SaveOutcome(
        UpsertTaskResponse(taskId="t", tenantId="default", action=TaskAction.UPDATED, taskLink="x"), (check,)
    )
    assert outcome.warnings(same) == [
        "Sample solution 2 scores WRONG on this task: it does not show “a”, “b” and “c” (give a cue in "
        "the words the solution uses); it trips “d” (those cues also match a correct answer)."
    ]
