"""Graded answers in the local service: answers with a teacher's verdict that the freeform engine
learns from (extension, DESIGN.md). They are only ever added, so their count on the task row
names the revision that caches key on (see :mod:`core.service.feedback`)."""

from __future__ import annotations

from core.api import GradedAnswersRequest, GradedAnswersResponse, InvalidParameter, parse_answer
from core.auth import Permission
from core.service.context import Context
from core.store import interactions


class GradedAnswerOperations:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        tenant = self.ctx.tenant(tenant_id, Permission.WRITE)
        task = (await self.ctx.stored_task(tenant, task_id)).task
        documents = []
        for i, graded in enumerate(request.answers):
            try:
                answer = parse_answer(task.task_type, graded.answer)
            except ValueError as exc:
                raise InvalidParameter(f"answers[{i}]: {exc}") from None
            documents.append(
                dict(
                    answer=answer.to_wire(),
                    correctness=graded.correctness.value,
                    points=graded.points,
                    feedback=graded.feedback,
                )
            )
        async with self.ctx.runtime.db.write() as session:
            total = await interactions.add_graded_answers(session, tenant, task_id, documents)
        return GradedAnswersResponse(tenantId=tenant, taskId=task_id, added=len(documents), total=total)
