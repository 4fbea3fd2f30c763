"""Graded answers in the local service: answers with a teacher's verdict that the freeform engine
learns from (extension, DESIGN.md). They are only ever added, so their count on the task row
names the revision that caches key on (see :mod:`core.service.feedback`).

Before grading, an author may ask which of a set of ungraded answers to grade first (the review
order, extension): the engine orders them against the task as it is stored, with the context its
feedback is computed with (graded answers included), in a worker thread, since judging many
answers is CPU work that would otherwise hold the event loop. Nothing is recorded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from core.api import (
    Answer,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InvalidParameter,
    NotFound,
    ReviewOrderRequest,
    ReviewOrderResponse,
    TaskType,
    parse_answer,
)
from core.auth import Permission
from core.engine import EngineUnavailable, review_order
from core.service.context import Context
from core.service.feedback import JUDGES_TEXT, FeedbackOperations
from core.store import interactions


class GradedAnswerOperations:
    def __init__(self, ctx: Context, feedback: FeedbackOperations) -> None:
        self.ctx = ctx
        self.feedback = feedback

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        tenant = self.ctx.tenant(tenant_id, Permission.WRITE)
        task = (await self.ctx.stored_task(tenant, task_id)).task
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
        async with self.ctx.runtime.db.write() as session:
            total = await interactions.add_graded_answers(session, tenant, task_id, documents)
        return GradedAnswersResponse(tenantId=tenant, taskId=task_id, added=len(documents), total=total)

    async def review_order(
        self, tenant_id: str, task_id: str, request: ReviewOrderRequest
    ) -> ReviewOrderResponse:
        """The answers' indices in the order to grade them, ``min(limit, len(answers))`` of them."""
        tenant = self.ctx.tenant(tenant_id, Permission.ACCESS)
        found = await self.feedback.stored_context(tenant, task_id)
        if found is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        task, engine_ctx = found
        answers = _parse_answers(task.task_type, request.answers)
        if task.task_type in JUDGES_TEXT:
            await self.ctx.runtime.text_models()
        try:
            ranked = await asyncio.to_thread(review_order, task, answers, engine_ctx, request.limit)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None
        return ReviewOrderResponse(order=ranked)


def _parse_answers(task_type: TaskType, raws: Iterable[Any]) -> list[Answer]:
    """Each answer in the shape of the task's type; InvalidParameter naming the first that does not fit."""
    answers = []
    for i, raw in enumerate(raws):
        try:
            answers.append(parse_answer(task_type, raw))
        except ValueError as exc:
            raise InvalidParameter(f"answers[{i}]: {exc}") from None
    return answers
