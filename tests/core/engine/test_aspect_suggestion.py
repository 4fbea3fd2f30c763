"""Aspect suggestion for the six task kinds, with only the fields a partial task must have."""

from __future__ import annotations

import pytest

from core.api import AspectType, MultipleChoiceTask
from core.api.tasks import TASK_MODELS, FreeformTextTask, InTextChoicesTask, MultipleResponsesTask
from core.engine.aspect_suggestion import suggest_aspects


@pytest.mark.parametrize("model", list(TASK_MODELS.values()), ids=lambda m: m.__name__)
def test_any_task_kind_with_only_a_statement(model) -> None:
    task = model.model_validate(
        {"id": "x", "type": model.__name__, "problemStatement": "Explain photosynthesis."}
    )
    aspects = suggest_aspects(task)
    assert [a.type for a in aspects] == [AspectType.CONCEPT]
    assert "photosynthesis" in aspects[0].name


def test_freeform_concepts_from_sample_solutions_keep_negation() -> None:
    task = FreeformTextTask(
        id="salt",
        problemStatement="How did you separate the salt?",
        sampleSolutions=[{"content": "The water evaporates. The salt does not evaporate, so it stays."}],
        aspects=[{"name": "authored", "cues": ["evaporat"]}],
    )
    names = [a.name for a in suggest_aspects(task)]
    assert names == ["authored", "water evaporates", "The salt does not evaporate"]


def test_wrong_options_become_misconceptions() -> None:
    choice = MultipleChoiceTask(
        id="m",
        problemStatement="Which is a mammal?",
        options=[{"content": "A whale", "correct": True}, {"content": "A shark"}, {"content": "A shark"}],
    )
    aspects = suggest_aspects(choice)
    assert [(a.name, a.type) for a in aspects] == [
        ("whale", AspectType.CONCEPT),
        ("shark", AspectType.MISCONCEPTION),
    ]
    responses = MultipleResponsesTask(
        id="r",
        problemStatement="Pick metals.",
        options=[{"content": "iron", "correct": True}, {"content": "wood"}],
    )
    assert [a.type for a in suggest_aspects(responses)] == [AspectType.CONCEPT, AspectType.MISCONCEPTION]
    gaps = InTextChoicesTask(
        id="c",
        problemStatement="Water boils at {{1}} degrees.",
        choices=[{"options": ["100", "50"], "correct": "100"}],
    )
    aspects = suggest_aspects(gaps)
    assert aspects[0].description == "Water boils at 100 degrees."
    assert (aspects[1].name, aspects[1].type) == ("50", AspectType.MISCONCEPTION)
