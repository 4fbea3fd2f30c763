"""A teacher's verdict set from the apps, optionally also kept as a test answer."""

from __future__ import annotations

from core.api import ComputeFeedbackRequest, Correctness
from core.client.overrides import effective_verdict, override_verdict
from tests.contract.builders import mc_task


async def judged_wrong(service):
    task = mc_task()
    request = ComputeFeedbackRequest.model_validate(
        {
            "userId": "anna",
            "taskType": task.task_type.value,
            "taskDefinition": task,
            "answer": {"selectedIndex": 1},
        }
    )
    await service.compute_feedback(request)
    [record] = await service.list_interactions("default", task.id)
    return record


async def test_the_teachers_verdict_counts_and_can_become_a_test_answer(service):
    record = await judged_wrong(service)
    assert effective_verdict(record) is Correctness.WRONG
    updated, gold = await override_verdict(
        service, "default", record, Correctness.PARTIAL, "  half right  ", keep_as_test=True
    )
    assert effective_verdict(updated) is Correctness.PARTIAL and updated.verdict is Correctness.WRONG
    assert updated.override is not None and updated.override.note == "half right"
    assert gold is not None and gold.failures  # the engine still says WRONG: the retest flags it
    [test] = (await service.list_test_answers("default", "mc-1")).answers
    assert (test.answer, test.expected.verdict) == ({"selectedIndex": 1}, Correctness.PARTIAL)


async def test_without_keeping_no_test_answer_is_added(service):
    record = await judged_wrong(service)
    updated, gold = await override_verdict(service, "default", record, Correctness.CORRECT)
    assert gold is None and updated.override is not None and updated.override.note is None
    assert (await service.list_test_answers("default", "mc-1")).answers == []
