"""The authoring workspace in the local service: test answers per task, and retest (API.md 3, rule 3).

A retest here computes without recording: recomputing must not add interactions to the history
it compares against. Test answers are validated against the task's answer shape when stored, so a
retest only finds answers that stopped fitting because the task changed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from sqlalchemy import Connection, Row

from core.api import (
    Expectation,
    FeedbackResult,
    InvalidParameter,
    NotFound,
    RetestReport,
    TaskBase,
    TaskRetest,
    TestAnswer,
    TestAnswerSet,
    TestAnswersRequest,
    parse_answer,
)
from core.auth import Permission
from core.engine.base import GradedExample
from core.service.caller import Caller
from core.service.feedback import JUDGES_TEXT, FeedbackOperations
from core.store import task_test_answers, tasks
from core.store.tasks import TaskRow
from core.workspace.expectations import aspect_names
from core.workspace.retest import Compute, retest_answers


class WorkspaceOperations:
    def __init__(self, caller: Caller, feedback: FeedbackOperations) -> None:
        self.caller = caller
        self.feedback = feedback

    # --- test answers ---------------------------------------------------------------------------

    async def list_test_answers(self, tenant_id: str, task_id: str) -> TestAnswerSet:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        rows = await self.caller.runtime.db.run_read(
            partial(task_test_answers.list_test_answers, tenant_id=tenant, task_id=task_id)
        )
        return _answer_set(task_id, rows)

    async def put_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        """Replace all test answers of the task."""
        return await self._store_test_answers(tenant_id, task_id, request.answers, replace_all=True)

    async def add_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        """Add test answers; one with a known label replaces the stored one."""
        return await self._store_test_answers(tenant_id, task_id, request.answers, replace_all=False)

    async def delete_test_answer(self, tenant_id: str, task_id: str, label: str) -> TestAnswerSet:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)

        def delete(connection: Connection) -> list[Row[Any]]:
            if not task_test_answers.delete_test_answer(connection, tenant, task_id, label):
                raise NotFound(f"task {task_id!r} has no test answer labelled {label!r}")
            return task_test_answers.list_test_answers(connection, tenant, task_id)

        return _answer_set(task_id, await self.caller.runtime.db.run_write(delete))

    async def _store_test_answers(
        self, tenant_id: str, task_id: str, answers: Sequence[TestAnswer], *, replace_all: bool
    ) -> TestAnswerSet:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        labels = [a.label for a in answers]
        if repeated := sorted({label for label in labels if labels.count(label) > 1}):
            raise InvalidParameter(
                f"each test answer needs a label of its own; repeated: {', '.join(repeated)}"
            )

        def store(connection: Connection) -> list[Row[Any]]:
            row = tasks.read_task(connection, tenant, task_id)
            if row is None:
                raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
            documents = _test_answer_documents(row.task, answers)
            task_test_answers.put_test_answers(
                connection, tenant, task_id, documents, replace_all=replace_all
            )
            return task_test_answers.list_test_answers(connection, tenant, task_id)

        return _answer_set(task_id, await self.caller.runtime.db.run_write(store))

    # --- retest ---------------------------------------------------------------------------------

    async def retest(self, tenant_id: str, task_ids: list[str]) -> RetestReport:
        """Recompute the test answers and earlier answers of the tasks (all of the tenant's if none)."""
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)

        def read(connection: Connection) -> tuple[list[TaskRow], dict[str, list[Row[Any]]]]:
            rows = _tasks_to_retest(connection, tenant, task_ids)
            return rows, {
                r.task_id: task_test_answers.list_test_answers(connection, tenant, r.task_id) for r in rows
            }

        rows, tests = await self.caller.runtime.db.run_read(read)
        if any(row.task.task_type in JUDGES_TEXT for row in rows):
            await self.caller.runtime.text_models()
        report = RetestReport(tenantId=tenant)
        for row in rows:
            task = row.task
            graded = await self.caller.runtime.db.run_read(
                partial(
                    self.feedback.graded_examples, tenant=tenant, task=task, graded_count=row.graded_count
                )
            )
            answers = await retest_answers(
                _answer_set(task.id, tests[task.id]).answers,
                await self.feedback.list_interactions(tenant, task.id),
                self._compute_unrecorded(tenant, task, row.content_hash, graded),
                aspect_names(task),
            )
            report.tasks.append(
                TaskRetest(
                    taskId=task.id,
                    taskType=task.type,
                    title=task.display_title,
                    version=row.version,
                    answers=answers,
                )
            )
        return report

    def _compute_unrecorded(
        self, tenant: str, task: TaskBase, digest: str, graded: tuple[GradedExample, ...]
    ) -> Compute:
        """Feedback as compute_feedback would give it (graded answers included), without recording it."""

        async def compute(answer: dict[str, Any]) -> FeedbackResult:
            parsed = parse_answer(task.task_type, answer)
            transcript = await self.feedback.transcript(tenant, parsed)
            return await self.feedback.judge(tenant, task, parsed, digest, graded, transcript)

        return compute


def _tasks_to_retest(connection: Connection, tenant: str, task_ids: list[str]) -> list[TaskRow]:
    if not task_ids:
        listing = tasks.list_tasks(connection, tenant, recent=0)
        return sorted((item.task for item in listing), key=lambda row: row.task_id)
    found = {task_id: tasks.read_task(connection, tenant, task_id) for task_id in task_ids}
    if missing := [task_id for task_id, row in found.items() if row is None]:
        raise NotFound(f"no such task in tenant {tenant!r}: {', '.join(missing)}")
    return [row for row in found.values() if row is not None]


def _test_answer_documents(task: TaskBase, answers: Sequence[TestAnswer]) -> list[dict[str, Any]]:
    """The answers as stored: each validated against the task's answer shape, in its wire form."""
    documents = []
    for test in answers:
        try:
            answer = parse_answer(task.task_type, test.answer)
        except ValueError as exc:
            raise InvalidParameter(f"test answer {test.label!r}: {exc}") from None
        documents.append(dict(label=test.label, answer=answer.to_wire(), expected=test.expected.to_wire()))
    return documents


def _answer_set(task_id: str, rows: Sequence[Row[Any]]) -> TestAnswerSet:
    return TestAnswerSet(
        taskId=task_id,
        answers=[
            TestAnswer(label=r.label, answer=r.answer, expected=Expectation.model_validate(r.expected))
            for r in rows
        ],
    )
