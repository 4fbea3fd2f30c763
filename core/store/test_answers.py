"""Test answers of a task: an author's answers with the feedback they must get (the retest workflow).

A label names a test answer within its task, so that adding one under a known label replaces it
and a file of test answers can be imported again and again without piling up copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.store import models as m


async def list_test_answers(session: AsyncSession, tenant_id: str, task_id: str) -> list[m.TestAnswer]:
    """In the order they were added."""
    return list(
        (
            await session.execute(
                select(m.TestAnswer)
                .where(m.TestAnswer.tenant_id == tenant_id, m.TestAnswer.task_id == task_id)
                .order_by(m.TestAnswer.id)
            )
        ).scalars()
    )


async def put_test_answers(
    session: AsyncSession,
    tenant_id: str,
    task_id: str,
    answers: Sequence[dict[str, Any]],
    *,
    replace_all: bool,
) -> None:
    """Store answers ({label, answer, expected}); each replaces the one of its label, or all of them."""
    scope = delete(m.TestAnswer).where(m.TestAnswer.tenant_id == tenant_id, m.TestAnswer.task_id == task_id)
    if not replace_all:
        scope = scope.where(m.TestAnswer.label.in_([a["label"] for a in answers]))
    await session.execute(scope)
    now = m.utcnow()
    session.add_all(m.TestAnswer(tenant_id=tenant_id, task_id=task_id, created_at=now, **a) for a in answers)
    await session.flush()


async def delete_test_answer(session: AsyncSession, tenant_id: str, task_id: str, label: str) -> bool:
    deleted = await session.execute(
        delete(m.TestAnswer)
        .where(
            m.TestAnswer.tenant_id == tenant_id, m.TestAnswer.task_id == task_id, m.TestAnswer.label == label
        )
        .returning(m.TestAnswer.label)
    )
    return deleted.first() is not None
