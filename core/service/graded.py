"""Graded answers in the local service: answers with a teacher's verdict that the freeform engine
learns from (extension, DESIGN.md). They are only ever added, so their count on the task row
names the revision that caches key on (see :mod:`core.service.feedback`).

Before grading, an author may ask which of a set of ungraded answers to grade first (the review
order, extension): the engine orders them against the task as it is stored, with the context its
feedback is computed with (graded answers included), in a worker thread, since judging many
answers is CPU work that would otherwise hold the event loop. Nothing is recorded.

After a save, the editors ask how the engine judges each sample solution of the task as if a
learner had written it (the sample-solution check, extension): the same engine, context and
worker thread, so the check tells what a remote's engine would tell its learners too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from functools import partial
from typing import Any

from core.api import (
    Answer,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InvalidParameter,
    NotFound,
    ReviewOrderRequest,
    ReviewOrderResponse,
    SampleSolutionCheck,
    SampleSolutionChecks,
    TaskBase,
    TaskType,
    parse_answer,
)
from core.auth import Permission
from core.engine import EngineContext, EngineUnavailable, review_order, sample_solution_checks
from core.service.caller import Caller
from core.service.feedback import JUDGES_TEXT, FeedbackOperations
from core.store import interactions


class GradedAnswerOperations:
    def __init__(self, caller: Caller, feedback: FeedbackOperations) -> None:
        self.caller = caller
        self.feedback = feedback

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        task = (await self.caller.stored_task(tenant, task_id)).task
        answers = _parse_answers(task.task_type, (graded.answer for graded in request.answers))
        documents = [
            dict(
                answer=answer.to_wire(),
                correctness=graded.correctness.value,
                points=graded.points,
                feedback=graded.feedback,
            )
            for answer, graded in zip(answers, request.answers, strict=True)
        ]
        total = await self.caller.runtime.db.run_write(
            partial(interactions.add_graded_answers, tenant_id=tenant, task_id=task_id, answers=documents)
        )
        return GradedAnswersResponse(tenantId=tenant, taskId=task_id, added=len(documents), total=total)

    async def review_order(
        self, tenant_id: str, task_id: str, request: ReviewOrderRequest
    ) -> ReviewOrderResponse:
        """The answers' indices in the order to grade them, ``min(limit, len(answers))`` of them."""
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        task, engine_ctx = await self._stored(tenant, task_id)
        answers = _parse_answers(task.task_type, request.answers)
        try:
            ranked = await asyncio.to_thread(review_order, task, answers, engine_ctx, request.limit)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None
        return ReviewOrderResponse(order=ranked)

    async def check_sample_solutions(self, tenant_id: str, task_id: str) -> SampleSolutionChecks:
        """How the engine judges each sample solution of the stored task; records nothing."""
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        task, engine_ctx = await self._stored(tenant, task_id)
        checks = await asyncio.to_thread(sample_solution_checks, task, engine_ctx)
        return SampleSolutionChecks(
            checks=[
                SampleSolutionCheck(
                    number=check.number,
                    verdict=check.verdict,
                    missingConcepts=list(check.missing_concepts),
                    misconceptions=list(check.misconceptions),
                )
                for check in checks
            ]
        )

    async def _stored(self, tenant: str, task_id: str) -> tuple[TaskBase, EngineContext]:
        """The stored task and its engine context, with the text models loaded where it needs them."""
        found = await self.feedback.stored_context(tenant, task_id)
        if found is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        if found[0].task_type in JUDGES_TEXT:
            await self.caller.runtime.text_models()
        return found


def _parse_answers(task_type: TaskType, raws: Iterable[Any]) -> list[Answer]:
    """Each answer in the shape of the task's type; InvalidParameter naming the first that does not fit."""
    answers = []
    for i, raw in enumerate(raws):
        try:
            answers.append(parse_answer(task_type, raw))
        except ValueError as exc:
            raise InvalidParameter(f"answers[{i}]: {exc}") from None
    return answers
