"""Interactions (every feedback computation), their end-user ratings, and graded answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.store import models as m
from core.store.common import put_interaction_row
from core.store.writer import insert_at_commit

_INSERT_INTERACTION = insert(m.Base.metadata.tables[m.Interaction.__tablename__])


def add_interaction(connection: Connection, values: dict[str, Any]) -> None:
    """One INSERT (no ORM unit of work): every feedback computation records one, which nothing in
    its transaction reads back, so the writer inserts a batch's interactions together
    (insert_at_commit). Its JSON columns (answer, feedback, learner_meta) may be given as wire
    models."""
    insert_at_commit(connection, _INSERT_INTERACTION, values)


async def get_interaction(session: AsyncSession, interaction_id: str) -> m.Interaction | None:
    return await session.get(m.Interaction, interaction_id)


async def list_interactions(
    session: AsyncSession, tenant_id: str, task_id: str, limit: int = 500
) -> list[tuple[m.Interaction, m.EndUserRating | None, m.VerdictOverride | None]]:
    """The newest interactions of a task first, each with its rating and its teacher's verdict if
    it has them."""
    rows = await session.execute(
        select(m.Interaction, m.EndUserRating, m.VerdictOverride)
        .outerjoin(m.EndUserRating, m.EndUserRating.interaction_id == m.Interaction.id)
        .outerjoin(m.VerdictOverride, m.VerdictOverride.interaction_id == m.Interaction.id)
        .where(m.Interaction.tenant_id == tenant_id, m.Interaction.task_id == task_id)
        .order_by(m.Interaction.created_at.desc())
        .limit(limit)
    )
    return [(i, r, o) for i, r, o in rows]


async def get_rating(session: AsyncSession, interaction_id: str) -> m.EndUserRating | None:
    return await session.get(m.EndUserRating, interaction_id)


_interactions = m.Interaction.__table__
_ratings = m.EndUserRating.__table__
_TENANT_OF_INTERACTION = select(_interactions.c.tenant_id).where(_interactions.c.id == bindparam("id"))


def interaction_tenant(connection: Connection, interaction_id: str) -> str | None:
    """The tenant of an interaction, or None if there is no such interaction."""
    return connection.execute(_TENANT_OF_INTERACTION, {"id": interaction_id}).scalar_one_or_none()


def put_rating(
    connection: Connection, interaction_id: str, type_: str, subtype: str | None, message: str | None
) -> Row[Any]:
    """Create the rating on the first call, update it after (atomic under concurrency); the row."""
    return put_interaction_row(
        connection, _ratings, interaction_id, type=type_, subtype=subtype, message=message
    )


async def add_graded_answers(
    session: AsyncSession, tenant_id: str, task_id: str, answers: Sequence[dict[str, Any]]
) -> int:
    """Store graded answers and count them on the task row; returns how many the task has now."""
    now = m.utcnow()
    await session.execute(
        insert(m.GradedAnswer),
        [dict(tenant_id=tenant_id, task_id=task_id, created_at=now, **a) for a in answers],
    )
    counted = await session.execute(
        update(m.Task)
        .where(m.Task.tenant_id == tenant_id, m.Task.task_id == task_id)
        .values(graded_count=m.Task.graded_count + len(answers))
        .returning(m.Task.graded_count)
    )
    return counted.scalar_one()


def list_graded(connection: Connection, tenant_id: str, task_id: str) -> Sequence[Row[Any]]:
    """The task's graded answers, oldest first."""
    table = m.GradedAnswer.__table__
    return connection.execute(
        select(table).where(table.c.tenant_id == tenant_id, table.c.task_id == task_id).order_by(table.c.id)
    ).all()
