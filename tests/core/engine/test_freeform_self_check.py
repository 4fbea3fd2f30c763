"""The editor's check that each sample solution scores CORRECT on its own task."""

from __future__ import annotations

from core.api import AspectDefinition, AspectType, Correctness, FreeformTextTask, Language
from core.assets import demo_tasks
from core.engine.freeform.self_check import check_sample_solutions


def task(*solutions: str, aspects: list[AspectDefinition] | None = None) -> FreeformTextTask:
    return FreeformTextTask(
        id="bulb",
        problemStatement="Why does the bulb light up when the switch is closed?",
        language=Language.EN_US,
        maxPoints=2,
        sampleSolutions=[{"content": s} for s in solutions],
        aspects=aspects or [],
    )


def concept(name: str, *cues: str) -> AspectDefinition:
    return AspectDefinition(name=name, description=name, type=AspectType.CONCEPT, cues=list(cues), points=1)


def test_a_solution_that_shows_every_concept_passes():
    checks = check_sample_solutions(
        task(
            "Closing the switch completes the circuit, so current flows through the bulb.",
            aspects=[concept("closed circuit", "completes the circuit"), concept("current", "current flows")],
        )
    )
    assert [(c.number, c.verdict, c.passes) for c in checks] == [(1, Correctness.CORRECT, True)]


def test_a_concept_whose_cues_the_solution_never_uses_is_named():
    checks = check_sample_solutions(
        task(
            "Closing the switch completes the circuit, so current flows through the bulb.",
            aspects=[
                concept("closed circuit", "completes the circuit"),
                concept("resistance heats the filament", "tungsten filament glows"),
            ],
        )
    )
    [check] = checks
    assert check.verdict is Correctness.PARTIAL and not check.passes
    assert check.missing_concepts == ("resistance heats the filament",)
    assert check.misconceptions == ()


def test_a_misconception_that_catches_the_solution_itself_is_named():
    misconception = AspectDefinition(
        name="the switch makes electricity",
        description="the switch makes electricity",
        type=AspectType.MISCONCEPTION,
        cues=["switch"],
        points=1,
    )
    [check] = check_sample_solutions(
        task("Closing the switch completes the circuit.", aspects=[misconception])
    )
    assert check.misconceptions == ("the switch makes electricity",)
    assert not check.passes


def test_each_sample_solution_is_checked_and_numbered_from_one_and_empty_ones_are_skipped():
    checks = check_sample_solutions(
        task("Current flows in a closed loop.", "  ", "A closed loop carries current.")
    )
    assert [c.number for c in checks] == [1, 3]
    assert all(c.passes for c in checks)


def test_every_sample_solution_of_the_demo_tasks_scores_correct_on_its_own_task():
    freeform = [FreeformTextTask.model_validate(d) for d in demo_tasks() if d["type"] == "FreeformTextTask"]
    assert freeform
    failing = [(t.id, c) for t in freeform for c in check_sample_solutions(t) if not c.passes]
    assert failing == []
