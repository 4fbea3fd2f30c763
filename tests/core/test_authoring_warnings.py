"""The warning the task editors show when a sample solution would not score CORRECT."""

from __future__ import annotations

from core.client import i18n
from core.client.authoring import failing_sample_solutions, warning
from tests.core.engine.test_freeform_self_check import concept, task


def test_the_editor_warning_names_the_solution_the_verdict_and_what_to_change():
    checked = task(
        "Closing the switch completes the circuit.",
        aspects=[
            concept("closed circuit", "completes the circuit"),
            concept("resistance heats the filament", "tungsten filament glows"),
        ],
    )
    [failing] = failing_sample_solutions(checked)
    assert warning(failing, lambda message: message) == (
        "Sample solution 1 scores PARTIAL on this task: it does not show “resistance heats the filament” "
        "(give a cue in the words the solution uses)."
    )
    assert warning(failing, lambda message: i18n.translate("de", message)).startswith(
        "Musterlösung 1 erreicht PARTIAL in dieser Aufgabe: "
    )
    assert failing_sample_solutions(task("Closing the switch completes the circuit.")) == []
