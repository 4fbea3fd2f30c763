"""The bundled demo tasks: valid definitions, and each one's own sample solution is judged correct."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from pydantic import TypeAdapter

from core.api import TaskDefinition, TaskType, check_task, parse_answer
from core.assets import demo_tasks, load_catalogue
from core.config import ASSETS_DIR
from core.engine import EngineContext, compute_result

TASKS = TypeAdapter(TaskDefinition)
CLOSED_TYPES = {
    TaskType.MULTIPLE_CHOICE,
    TaskType.MULTIPLE_RESPONSES,
    TaskType.IN_TEXT_FILL_IN_BLANKS,
    TaskType.IN_TEXT_CHOICES,
}
FIRST_ATTEMPT: dict[TaskType, Any] = {
    TaskType.MULTIPLE_CHOICE: lambda task: {"selectedIndex": 0},
    TaskType.MULTIPLE_RESPONSES: lambda task: {"selected": [False] * len(task.options)},
    TaskType.IN_TEXT_FILL_IN_BLANKS: lambda task: {"blanks": [{"content": ""}] * len(task.blanks)},
    TaskType.IN_TEXT_CHOICES: lambda task: {"choices": [{"content": ""}] * len(task.choices)},
}
RAW = demo_tasks()
DEFINITIONS = [TASKS.validate_python(raw) for raw in RAW]


@pytest.mark.parametrize("raw", RAW, ids=[raw["id"] for raw in RAW])
def test_every_demo_task_is_a_valid_definition(raw: dict) -> None:
    task = TASKS.validate_python(raw)
    check_task(task)
    assert raw["type"] == task.task_type.schema_name
    assert task.title.strip()
    assert (ASSETS_DIR / "tasks" / f"{task.id}.json").is_file()


def test_each_closed_type_has_english_and_german_demos() -> None:
    languages = Counter((task.task_type, task.language.base) for task in DEFINITIONS)
    for task_type in CLOSED_TYPES:
        assert languages[(task_type, "en")] >= 1, task_type
        assert languages[(task_type, "de")] >= 1, task_type


CLOSED = [task for task in DEFINITIONS if task.task_type in CLOSED_TYPES]


@pytest.mark.parametrize("task", CLOSED, ids=[task.id for task in CLOSED])
def test_the_sample_solution_of_each_demo_task_is_correct(task: Any) -> None:
    ctx = EngineContext(catalogue=load_catalogue())
    first = compute_result(task, parse_answer(task.task_type, FIRST_ATTEMPT[task.task_type](task)), ctx)
    solution = parse_answer(task.task_type, first.sampleSolution.model_dump())

    result = compute_result(task, solution, ctx)

    assert result.verdict == "CORRECT"
    assert [item.correctness for item in result.feedback] == ["CORRECT"]
    assert result.allAspects, "a demo task should show off detected aspects"
