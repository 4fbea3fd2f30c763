"""Judge, then write: an answer is judged outside any transaction against a revision of its task,
and recorded by one write job only if that revision is still the stored one; else judged again."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import Connection

from core.api import (
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    MultipleChoiceTask,
    ServiceUnavailable,
    TaskAction,
)
from core.service import feedback as feedback_module
from core.service.feedback import ATTEMPTS, FeedbackOperations
from core.service.local import LocalService
from core.store import interactions, tasks
from core.store.db import Database
from core.store.tasks import TaskRevision


def capital(right: int = 0, title: str = "Capital") -> MultipleChoiceTask:
    options = [{"content": "Bern"}, {"content": "Zurich"}]
    options[right]["correct"] = True  # type: ignore[assignment]
    return MultipleChoiceTask.model_validate(
        {"id": "capital", "title": title, "problemStatement": "Which city?", "options": options}
    )


def by_id(answer: int) -> ComputeTaskFeedbackRequest:
    return ComputeTaskFeedbackRequest.model_validate(
        {"userId": "learner", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": answer}}
    )


def supplied(task: MultipleChoiceTask, answer: int) -> ComputeFeedbackRequest:
    return ComputeFeedbackRequest.model_validate(
        {
            "userId": "learner",
            "taskType": "MULTIPLE_CHOICE",
            "taskDefinition": task.to_wire(),
            "answer": {"selectedIndex": answer},
        }
    )


def in_transaction(db: Database) -> bool:
    """Whether the SQLite file's writer has a transaction open."""
    writer = db.writer
    connection = getattr(writer, "_connection", None)
    return connection is not None and connection.connection.driver_connection.in_transaction


async def test_the_answer_is_judged_outside_any_transaction(service: LocalService, runtime, monkeypatch):
    await service.upsert_task("default", capital())
    judged_in_transaction: list[bool] = []
    compute_result = feedback_module.compute_result

    def judging(*args, **kwargs):  # type: ignore[no-untyped-def]
        judged_in_transaction.append(in_transaction(runtime.db))
        return compute_result(*args, **kwargs)

    monkeypatch.setattr(feedback_module, "compute_result", judging)
    await service.compute_feedback_for_task("capital", by_id(0))
    await service.compute_feedback(supplied(capital(), 0))
    assert judged_in_transaction == [False, False]


async def test_a_task_changed_while_its_answer_is_judged_is_judged_again(service: LocalService, monkeypatch):
    """The first judgement is against version 1 (Bern right); the task changes to version 2
    (Zurich right) before its write: the write finds version 2, records nothing, and the answer is
    judged again and recorded against version 2."""
    await service.upsert_task("default", capital(right=0))
    await service.compute_feedback_for_task("capital", by_id(1))  # version 1 is known
    judge = FeedbackOperations.judge
    calls: list[int] = []

    async def changed_meanwhile(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            await service.upsert_task("default", capital(right=1))
        return await judge(self, *args, **kwargs)

    monkeypatch.setattr(FeedbackOperations, "judge", changed_meanwhile)
    feedback = await service.compute_feedback_for_task("capital", by_id(1))
    assert len(calls) == 2
    assert feedback.result.verdict.value == "CORRECT"
    records = await service.list_interactions("default", "capital")
    assert [(r.taskVersion, r.verdict.value) for r in records] == [(2, "CORRECT"), (1, "WRONG")]


async def test_a_task_that_keeps_changing_is_judged_a_bounded_number_of_times(
    service: LocalService, monkeypatch
):
    await service.upsert_task("default", capital())
    await service.compute_feedback_for_task("capital", by_id(0))
    judge = FeedbackOperations.judge
    calls: list[int] = []

    async def always_changed(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        await service.upsert_task("default", capital(title=f"Capital {len(calls)}"))
        return await judge(self, *args, **kwargs)

    monkeypatch.setattr(FeedbackOperations, "judge", always_changed)
    with pytest.raises(ServiceUnavailable, match="changed"):
        await service.compute_feedback_for_task("capital", by_id(0))
    assert len(calls) == ATTEMPTS
    assert len(await service.list_interactions("default", "capital")) == 1  # the first answer's only


async def test_a_task_deleted_while_its_answer_is_judged_is_not_found(service: LocalService, monkeypatch):
    await service.upsert_task("default", capital())
    await service.compute_feedback_for_task("capital", by_id(0))
    judge = FeedbackOperations.judge

    async def deleted_meanwhile(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        await service.delete_task("default", "capital")
        return await judge(self, *args, **kwargs)

    monkeypatch.setattr(FeedbackOperations, "judge", deleted_meanwhile)
    with pytest.raises(Exception, match="does not exist"):
        await service.compute_feedback_for_task("capital", by_id(0))


async def test_a_supplied_task_is_created_by_the_write_after_its_judgement(service: LocalService):
    request = supplied(capital(), 0)
    created, unchanged = [await service.compute_feedback(request) for _ in range(2)]
    assert [f.metaData.taskAction for f in (created, unchanged)] == [TaskAction.CREATED, TaskAction.UNCHANGED]
    assert created.result.verdict.value == "CORRECT"


def at_revision(seen: list[TaskRevision | None]):  # type: ignore[no-untyped-def]
    def job(connection: Connection, revision: TaskRevision | None) -> None:
        seen.append(revision)

    return tasks.at_revision("default", "capital", job)


@pytest.mark.parametrize("change", ["write_task", "remove_task", "add_graded_answers"])
async def test_every_change_of_a_task_in_a_batch_is_seen_by_the_jobs_after_it(runtime, service, change):
    """The writer reads the revisions of a batch's at_revision jobs before they run; each store
    function that changes a task's row drops it, so the jobs after it read the task anew."""
    await service.upsert_task("default", capital())
    graded = [{"answer": {"selectedIndex": 0}, "correctness": "CORRECT"}]
    changes = {
        "write_task": lambda c: tasks.write_task(c, "default", capital(title="New"), author="test"),
        "remove_task": lambda c: tasks.remove_task(c, "default", "capital"),
        "add_graded_answers": lambda c: interactions.add_graded_answers(c, "default", "capital", graded),
    }
    seen: list[TaskRevision | None] = []
    await asyncio.gather(
        runtime.db.run_write(at_revision(seen)),
        runtime.db.run_write(changes[change]),
        runtime.db.run_write(at_revision(seen)),
    )
    now = await runtime.db.run_read(lambda c: tasks.read_revision(c, "default", "capital"))
    assert seen[0] is not None and seen[0].version == 1
    assert seen[1] == now != seen[0]
