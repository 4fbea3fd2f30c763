"""Contract: the order in which to grade ungraded answers of a task (authoring extension)."""

from __future__ import annotations

from typing import Any

import pytest

from core.api import (
    Correctness,
    GradedAnswer,
    GradedAnswersRequest,
    InvalidParameter,
    NotFound,
    ReviewOrderRequest,
    TaskBase,
    parse_task,
)
from core.assets import demo_tasks
from core.service.base import Service
from tests.contract.builders import blanks_task, choices_task, mc_task, mr_task, simulation_task

pytestmark = pytest.mark.contract


def request(answers: list[dict[str, Any]], limit: int = 10) -> ReviewOrderRequest:
    return ReviewOrderRequest(answers=answers, limit=limit)


def assert_valid_order(order: list[int], answers: int, limit: int) -> None:
    assert len(order) == min(limit, answers)
    assert len(set(order)) == len(order)
    assert all(0 <= i < answers for i in order)


async def test_the_most_frequent_multiple_choice_answer_comes_first(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    answers = [{"selectedIndex": i} for i in (0, 1, 1, 2, 1, 0)]
    every = (await service.review_order("default", "mc-1", request(answers))).order
    assert_valid_order(every, len(answers), 10)
    assert every[:3] == [1, 0, 3]  # Zurich (three times, first at 1), then Bern (twice), then Geneva
    first_two = (await service.review_order("default", "mc-1", request(answers, limit=2))).order
    assert first_two == [1, 0]


async def test_freeform_answers_are_ordered_with_the_tasks_graded_answers(service: Service) -> None:
    task = parse_task(next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en"))
    await service.upsert_task("default", task)
    graded = GradedAnswersRequest(
        answers=[
            GradedAnswer(answer={"content": "The circuit is closed."}, correctness=Correctness.CORRECT),
            GradedAnswer(answer={"content": "Because it is switched off."}, correctness=Correctness.WRONG),
        ]
    )
    await service.add_graded_answers("default", task.id, graded)
    answers = [
        {"content": text}
        for text in [
            "The current flows in a closed circuit from plus to minus.",
            "The bulb is magic.",
            "The filament gets hot and glows.",
            "The circuit is closed, so current flows through the filament.",
            "I don't know.",
            "The battery pushes electrons around the loop.",
            "The current flows in a closed circuit from plus to minus.",
        ]
    ]
    for limit in (1, 3, 7, 5_000):
        order = (await service.review_order("default", task.id, request(answers, limit))).order
        assert_valid_order(order, len(answers), limit)
    assert await service.list_interactions("default", task.id) == []  # nothing is recorded


@pytest.mark.parametrize(
    ("task", "answers"),
    [
        (mr_task(), [{"selected": [True, False, True]}, {"selected": [False, True, False]}]),
        (
            blanks_task(),
            [{"blanks": [{"content": "100"}, {"content": "0"}]}, {"blanks": [{"content": "90"}]}],
        ),
        (choices_task(), [{"choices": [{"content": "goes"}, {"content": "played"}]}]),
        (simulation_task(), [{"messages": [{"role": "user", "content": "I am sorry about the parcel."}]}]),
    ],
    ids=lambda value: getattr(value, "type", None) or "answers",
)
async def test_answers_of_every_task_type_are_ordered(
    service: Service, task: TaskBase, answers: list[dict[str, Any]]
) -> None:
    await service.upsert_task("default", task)
    doubled = answers + answers
    order = (await service.review_order("default", task.id, request(doubled))).order
    assert_valid_order(order, len(doubled), 10)
    assert sorted(order[: len(answers)]) == list(range(len(answers)))  # each distinct answer before a repeat


async def test_an_answer_that_does_not_fit_the_task_is_named_by_its_index(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    misfit = request([{"selectedIndex": 0}, {"selectedIndex": 1}, {"content": "Bern"}])
    with pytest.raises(InvalidParameter, match=r"answers\[2\].*MULTIPLE_CHOICE"):
        await service.review_order("default", "mc-1", misfit)


async def test_an_unknown_task_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound, match="no-such-task"):
        await service.review_order("default", "no-such-task", request([{"selectedIndex": 0}]))
