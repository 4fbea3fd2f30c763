"""Contract: class sets (authoring extension), the same on the embedded and the remote service: a
class's answers imported, judged a batch at a time, read in three orders, graded (every verdict
moving with a grade), exported as CSV, deleted with their task."""

from __future__ import annotations

import csv
import io

import pytest

from core.api import Correctness, InvalidParameter, NotFound, parse_task
from core.api.class_sets import (
    ClassSetAnswersAdd,
    ClassSetCreate,
    ClassSetGrade,
    ClassSetJudgeRequest,
    ClassSetOrder,
    GradedBy,
)
from core.assets import demo_tasks
from core.service.base import Service
from tests.contract.builders import CLASS_ANSWERS, mc_task

pytestmark = pytest.mark.contract

TASK = "ff-bulb-circuit-en"
ANSWERS = CLASS_ANSWERS


async def new_set(service: Service, answers: list[str] = ANSWERS) -> str:
    task = parse_task(next(t for t in demo_tasks() if t["id"] == TASK))
    await service.upsert_task("default", task)
    created = await service.create_class_set("default", TASK, ClassSetCreate(name="7b", answers=answers))
    assert (created.name, created.answerCount, created.judgedCount, created.taskId) == (
        "7b",
        len(answers),
        0,
        TASK,
    )
    return created.classSetId


async def test_a_set_is_judged_a_batch_at_a_time_and_read_in_every_order(service: Service) -> None:
    set_id = await new_set(service)
    first = await service.judge_class_set("default", set_id, ClassSetJudgeRequest(limit=3))
    assert first.judgedCount == 3
    done = await service.judge_class_set("default", set_id, ClassSetJudgeRequest(limit=100))
    assert done.judgedCount == len(ANSWERS) and done.verdicts is not None
    assert sum(done.verdicts.model_dump().values()) == len(ANSWERS)

    by_position = await service.class_set_answers("default", set_id, ClassSetOrder.POSITION, 0, 50)
    assert [a.text for a in by_position.answers] == ANSWERS
    assert all(a.gradedBy is GradedBy.JUDGE and a.verdict and a.feedback for a in by_position.answers)

    grouped = await service.class_set_answers("default", set_id, ClassSetOrder.GROUPED, 0, 50)
    twins = [a for a in grouped.answers if a.text == "The bulb is magic."]
    assert twins[0].group == twins[1].group and twins[0].groupSize >= 2
    assert sorted(a.position for a in grouped.answers) == list(range(len(ANSWERS)))

    review = await service.class_set_answers("default", set_id, ClassSetOrder.REVIEW, 0, 3)
    assert review.total == len(ANSWERS) and len(review.answers) == 3


async def test_a_grade_moves_the_set_and_its_twins_take_it(service: Service) -> None:
    set_id = await new_set(service)
    await service.judge_class_set("default", set_id, ClassSetJudgeRequest(limit=500))
    graded = await service.grade_class_set_answer(
        "default", set_id, 1, ClassSetGrade(correctness=Correctness.PARTIAL, points=0.5)
    )
    assert graded.gradedCount == 1
    page = await service.class_set_answers("default", set_id, ClassSetOrder.POSITION, 0, 50)
    magic = [page.answers[1], page.answers[4]]  # the graded answer and its twin
    assert [(a.verdict, a.points, a.gradedBy) for a in magic] == [
        (Correctness.PARTIAL, 0.5, GradedBy.AUTHOR)
    ] * 2
    review = await service.class_set_answers("default", set_id, ClassSetOrder.REVIEW, 0, 50)
    assert {1, 4}.isdisjoint(a.position for a in review.answers)

    back = await service.grade_class_set_answer("default", set_id, 1, None)
    assert back.gradedCount == 0
    page = await service.class_set_answers("default", set_id, ClassSetOrder.POSITION, 0, 50)
    assert page.answers[1].gradedBy is GradedBy.JUDGE


async def test_the_export_is_csv_with_a_row_per_answer(service: Service) -> None:
    set_id = await new_set(service)
    await service.grade_class_set_answer("default", set_id, 0, ClassSetGrade(correctness=Correctness.CORRECT))
    rows = list(csv.DictReader(io.StringIO(await service.export_class_set("default", set_id))))
    assert [r["answer"] for r in rows] == ANSWERS
    assert rows[0]["verdict"] == "CORRECT" and rows[0]["graded_by"] == "AUTHOR"
    assert rows[0]["points"] == rows[0]["achievable_points"]
    assert all(r["verdict"] in {"CORRECT", "PARTIAL", "WRONG"} and r["feedback"] for r in rows)


async def test_answers_are_added_up_to_the_limit_and_sets_are_listed_per_task(service: Service) -> None:
    set_id = await new_set(service, answers=[])
    added = await service.add_class_set_answers("default", set_id, ClassSetAnswersAdd(answers=ANSWERS[:2]))
    assert added.answerCount == 2
    await service.grade_class_set_answer("default", set_id, 0, ClassSetGrade(correctness=Correctness.CORRECT))
    await service.judge_class_set("default", set_id, ClassSetJudgeRequest(limit=1))
    listed = await service.list_class_sets("default", TASK)
    assert [(s.classSetId, s.answerCount, s.judgedCount, s.gradedCount) for s in listed] == [
        (set_id, 2, 1, 1)
    ]
    assert await service.list_class_sets("default", "no-such-task") == []


async def test_a_set_goes_with_its_task_and_unknowns_are_not_found(service: Service) -> None:
    set_id = await new_set(service)
    with pytest.raises(NotFound):
        await service.get_class_set("default", "cs-unknown")
    with pytest.raises(NotFound):
        await service.grade_class_set_answer(
            "default", set_id, 99, ClassSetGrade(correctness=Correctness.WRONG)
        )
    await service.delete_task("default", TASK)
    with pytest.raises(NotFound):
        await service.class_set_answers("default", set_id, ClassSetOrder.POSITION)
    assert await service.list_class_sets("default") == []


async def test_only_free_text_tasks_have_class_sets(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    with pytest.raises(InvalidParameter, match="free-text"):
        await service.create_class_set("default", "mc-1", ClassSetCreate(answers=["A"]))


async def test_a_deleted_set_is_gone(service: Service) -> None:
    set_id = await new_set(service)
    deleted = await service.delete_class_set("default", set_id)
    assert deleted.classSetId == set_id
    with pytest.raises(NotFound):
        await service.get_class_set("default", set_id)
