"""The warning the task editors show when a sample solution would not score CORRECT."""

from __future__ import annotations

from core.client.authoring import sample_solution_warnings
from tests.core.engine.test_freeform_self_check import concept, task


def test_the_editor_warning_names_the_solution_the_verdict_and_what_to_change():
    checked = task(
        "Closing the switch completes the circuit.",
        aspects=[
            concept("closed circuit", "completes the circuit"),
            concept("resistance heats the filament", "tungsten filament glows"),
        ],
    )
    assert sample_solution_warnings(checked) == [
        "Sample solution 1 scores PARTIAL on this task: it does not show “resistance heats the filament” "
        "(give a cue in the words the solution uses)."
    ]
    assert sample_solution_warnings(task("Closing the switch completes the circuit.")) == []
