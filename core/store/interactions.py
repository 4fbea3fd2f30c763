"""Interactions (every feedback computation), their end-user ratings, and graded answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, bindparam, insert, select

from core.store import models as m
from core.store import tasks
from core.store.common import put_interaction_row
from core.store.writer import insert_at_commit

_INSERT_INTERACTION = insert(m.Base.metadata.tables[m.Interaction.__tablename__])


def add_interaction(connection: Connection, values: dict[str, Any]) -> None:
    """One INSERT (no ORM unit of work): every feedback computation records one, which nothing in
    its transaction reads back, so the writer inserts a batch's interactions together
    (insert_at_commit). Its JSON columns (answer, feedback, learner_meta) may be given as wire
    models."""
    insert_at_commit(connection, _INSERT_INTERACTION, values)


_interactions = m.Base.metadata.tables[m.Interaction.__tablename__]
_ratings = m.Base.metadata.tables[m.EndUserRating.__tablename__]
_overrides = m.Base.metadata.tables[m.VerdictOverride.__tablename__]
_graded = m.Base.metadata.tables[m.GradedAnswer.__tablename__]


@dataclass(frozen=True, slots=True)
class InteractionRows:
    """An interaction's row with its rating's and its teacher's verdict's, None where it has none."""

    interaction: Row[Any]
    rating: Row[Any] | None
    override: Row[Any] | None


def read_interaction(connection: Connection, interaction_id: str) -> InteractionRows | None:
    """The interaction with its rating and override, or None if there is no such interaction."""
    row = connection.execute(select(_interactions).where(_interactions.c.id == interaction_id)).first()
    if row is None:
        return None
    rating = connection.execute(select(_ratings).where(_ratings.c.interaction_id == interaction_id)).first()
    override = connection.execute(
        select(_overrides).where(_overrides.c.interaction_id == interaction_id)
    ).first()
    return InteractionRows(row, rating, override)


def list_interactions(
    connection: Connection, tenant_id: str, task_id: str, limit: int = 500
) -> list[InteractionRows]:
    """The newest interactions of a task first, each with its rating and its teacher's verdict if
    it has them."""
    rows = connection.execute(
        select(_interactions)
        .where((_interactions.c.tenant_id == tenant_id) & (_interactions.c.task_id == task_id))
        .order_by(_interactions.c.created_at.desc())
        .limit(limit)
    ).all()
    ids = [row.id for row in rows]
    ratings = {
        r.interaction_id: r
        for r in connection.execute(select(_ratings).where(_ratings.c.interaction_id.in_(ids)))
    }
    overrides = {
        o.interaction_id: o
        for o in connection.execute(select(_overrides).where(_overrides.c.interaction_id.in_(ids)))
    }
    return [InteractionRows(row, ratings.get(row.id), overrides.get(row.id)) for row in rows]


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


def add_graded_answers(
    connection: Connection, tenant_id: str, task_id: str, answers: Sequence[dict[str, Any]]
) -> int:
    """Store graded answers and count them on the task row; how many the task has now."""
    now = m.utcnow()
    connection.execute(
        insert(_graded), [dict(tenant_id=tenant_id, task_id=task_id, created_at=now, **a) for a in answers]
    )
    return tasks.count_graded(connection, tenant_id, task_id, len(answers))


def list_graded(
    connection: Connection, tenant_id: str, task_id: str, limit: int | None = None
) -> Sequence[Row[Any]]:
    """The task's graded answers, oldest first; the first `limit` of them (a revision of the task:
    graded answers are only ever added) if given."""
    return connection.execute(
        select(_graded)
        .where((_graded.c.tenant_id == tenant_id) & (_graded.c.task_id == task_id))
        .order_by(_graded.c.id)
        .limit(limit)
    ).all()
