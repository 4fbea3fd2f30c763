"""Contract: feedback computation both ways for the choice and blank types, and its errors."""

from __future__ import annotations

from typing import Any

import pytest

from core.api import (
    Correctness,
    InvalidParameter,
    MissingPermissions,
    NotFound,
    TaskAction,
    TaskBase,
    TaskType,
)
from core.service.base import Service
from tests.contract.builders import (
    USER,
    blanks_task,
    choices_task,
    compute,
    compute_stored,
    mc_task,
    mr_task,
)

pytestmark = pytest.mark.contract

CASES = [
    pytest.param(mc_task(), {"selectedIndex": 0}, {"selectedIndex": 1}, id="multiple-choice"),
    pytest.param(
        mr_task(),
        {"selected": [True, False, True]},
        {"selected": [False, True, False]},
        id="multiple-responses",
    ),
    pytest.param(
        blanks_task(),
        {"blanks": [{"content": "100"}, {"content": "0"}]},
        {"blanks": [{"content": "50"}, {"content": "10"}]},
        id="fill-in-blanks",
    ),
    pytest.param(
        choices_task(),
        {"choices": [{"content": "goes"}, {"content": "played"}]},
        {"choices": [{"content": "go"}, {"content": "play"}]},
        id="in-text-choices",
    ),
]


@pytest.mark.parametrize(("task", "right", "wrong"), CASES)
async def test_feedback_with_the_task_then_by_task_id(
    service: Service, task: TaskBase, right: dict[str, Any], wrong: dict[str, Any]
) -> None:
    first = await service.compute_feedback(compute(task, right))
    assert (first.userId, first.taskId, first.taskType) == (USER, task.id, task.task_type)
    assert first.metaData.taskAction is TaskAction.CREATED
    assert first.metaData.tenantId == "default"
    assert first.metaData.taskLink.endswith(f"/tasks/default/{task.id}")
    assert first.metaData.interactionId
    assert first.result.type == task.task_type.feedback_name
    assert first.result.verdict is Correctness.CORRECT

    again = await service.compute_feedback(compute(task, wrong))
    assert again.metaData.taskAction is TaskAction.UNCHANGED
    assert again.result.verdict is Correctness.WRONG
    assert again.metaData.interactionId != first.metaData.interactionId

    stored = await service.compute_feedback_for_task(task.id, compute_stored(task, right))
    assert stored.metaData.taskAction is TaskAction.UNCHANGED
    assert stored.result.model_dump() == first.result.model_dump()


async def test_changed_task_is_updated_while_computing(service: Service) -> None:
    await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    changed = await service.compute_feedback(compute(mc_task(title="Renamed"), {"selectedIndex": 0}))
    assert changed.metaData.taskAction is TaskAction.UPDATED
    assert (await service.get_task("default", "mc-1")).definition.title == "Renamed"


async def test_a_repeated_answer_is_judged_against_the_task_as_it_is_now(service: Service) -> None:
    """The same answer to the same task gets the same feedback (the service may keep it), until
    the task changes: then it is judged anew, and the feedback names the new task."""
    first = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    repeated = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    assert repeated.result == first.result
    assert repeated.metaData.interactionId != first.metaData.interactionId

    zurich_is_right = mc_task().model_copy(
        update={"options": [o.model_copy(update={"correct": not o.correct}) for o in mc_task().options[:2]]}
    )
    changed = await service.compute_feedback(compute(zurich_is_right, {"selectedIndex": 0}))
    assert changed.metaData.taskAction is TaskAction.UPDATED
    assert changed.result.verdict is Correctness.WRONG
    assert changed.result.sampleSolution.selectedIndex == 1
    renamed = await service.compute_feedback(compute(mc_task(title="Capital"), {"selectedIndex": 0}))
    assert renamed.result.verdict is Correctness.CORRECT
    assert renamed.result.feedback[0].topic.name == "Capital"


async def test_feedback_for_unknown_task_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound, match="nowhere"):
        await service.compute_feedback_for_task(
            "nowhere", compute_stored(mc_task("nowhere"), {"selectedIndex": 0})
        )


async def test_feedback_for_task_of_another_type_is_refused(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    request = compute_stored(blanks_task("mc-1"), {"blanks": [{"content": "1"}]})
    with pytest.raises(InvalidParameter, match=TaskType.MULTIPLE_CHOICE.value):
        await service.compute_feedback_for_task("mc-1", request)


async def test_feedback_in_a_tenant_without_access_is_refused(service: Service) -> None:
    with pytest.raises(MissingPermissions, match="elsewhere"):
        await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}, tenantId="elsewhere"))


async def test_learner_metadata_is_kept_with_the_interaction(service: Service) -> None:
    request = compute(mc_task(), {"selectedIndex": 0}, metaData={"timeOnTask": 42, "sessionId": "s-1"})
    feedback = await service.compute_feedback(request)
    record = await service.get_interaction(feedback.metaData.interactionId)
    assert record.learnerMetaData is not None
    assert (record.learnerMetaData.timeOnTask, record.learnerMetaData.sessionId) == (42, "s-1")
