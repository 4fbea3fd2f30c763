"""Contract: test answers of a task and retest (authoring extensions)."""

from __future__ import annotations

import pytest

from core.api import (
    AnswerSource,
    Correctness,
    Expectation,
    InvalidParameter,
    NotFound,
    TestAnswer,
    TestAnswersRequest,
)
from core.service.base import Service
from tests.contract.builders import compute, mc_task

pytestmark = pytest.mark.contract

RIGHT = TestAnswer(
    label="right", answer={"selectedIndex": 0}, expected=Expectation(verdict=Correctness.CORRECT)
)
WRONG = TestAnswer(
    label="wrong", answer={"selectedIndex": 1}, expected=Expectation(verdict=Correctness.WRONG)
)


async def test_test_answers_are_put_added_and_deleted(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    assert (await service.list_test_answers("default", "mc-1")).answers == []
    put = await service.put_test_answers("default", "mc-1", TestAnswersRequest(answers=[RIGHT]))
    assert (put.taskId, put.answers) == ("mc-1", [RIGHT])
    added = await service.add_test_answers("default", "mc-1", TestAnswersRequest(answers=[WRONG]))
    assert {a.label for a in added.answers} == {"right", "wrong"}
    assert await service.list_test_answers("default", "mc-1") == added
    after_delete = await service.delete_test_answer("default", "mc-1", "right")
    assert after_delete.answers == [WRONG]
    with pytest.raises(NotFound, match="right"):
        await service.delete_test_answer("default", "mc-1", "right")
    replaced = await service.put_test_answers("default", "mc-1", TestAnswersRequest(answers=[RIGHT]))
    assert replaced.answers == [RIGHT]


async def test_test_answers_must_fit_the_task(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    misfit = TestAnswer(label="misfit", answer={"content": "Bern"})
    with pytest.raises(InvalidParameter, match="misfit"):
        await service.add_test_answers("default", "mc-1", TestAnswersRequest(answers=[misfit]))


async def test_retest_checks_expectations_and_earlier_answers(service: Service) -> None:
    await service.compute_feedback(compute(mc_task(), {"selectedIndex": 2}))
    failing = TestAnswer(
        label="hopeful", answer={"selectedIndex": 1}, expected=Expectation(verdict=Correctness.CORRECT)
    )
    await service.put_test_answers("default", "mc-1", TestAnswersRequest(answers=[RIGHT, failing]))
    report = await service.retest("default", ["mc-1"])
    assert (report.tenantId, [t.taskId for t in report.tasks]) == ("default", ["mc-1"])
    answers = {a.label: a for a in report.tasks[0].answers}
    assert answers["right"].passed and not answers["hopeful"].passed
    [earlier] = [a for a in answers.values() if a.source is AnswerSource.INTERACTION]
    assert (earlier.answer, earlier.changed) == ({"selectedIndex": 2}, False)
    assert (report.failed, report.passed) == (1, False)
    with pytest.raises(NotFound, match="no-such-task"):
        await service.retest("default", ["no-such-task"])
