"""Test answers of a task: an author's answers with the feedback they must get (the retest workflow).

A label names a test answer within its task, so that adding one under a known label replaces it
and a file of test answers can be imported again and again without piling up copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select

from core.store import models as m

_answers = m.Base.metadata.tables[m.TestAnswer.__tablename__]


def _of_task(tenant_id: str, task_id: str) -> Any:
    return (_answers.c.tenant_id == tenant_id) & (_answers.c.task_id == task_id)


def list_test_answers(connection: Connection, tenant_id: str, task_id: str) -> list[Row[Any]]:
    """In the order they were added."""
    return list(
        connection.execute(select(_answers).where(_of_task(tenant_id, task_id)).order_by(_answers.c.id))
    )


def put_test_answers(
    connection: Connection,
    tenant_id: str,
    task_id: str,
    answers: Sequence[dict[str, Any]],
    *,
    replace_all: bool,
) -> None:
    """Store answers ({label, answer, expected}); each replaces the one of its label, or all of them."""
    scope = delete(_answers).where(_of_task(tenant_id, task_id))
    if not replace_all:
        scope = scope.where(_answers.c.label.in_([a["label"] for a in answers]))
    connection.execute(scope)
    if answers:
        now = m.utcnow()
        connection.execute(
            insert(_answers),
            [dict(tenant_id=tenant_id, task_id=task_id, created_at=now, **a) for a in answers],
        )


def delete_test_answer(connection: Connection, tenant_id: str, task_id: str, label: str) -> bool:
    """Whether there was a test answer of this label."""
    deleted = connection.execute(
        delete(_answers)
        .where(_of_task(tenant_id, task_id) & (_answers.c.label == label))
        .returning(_answers.c.label)
    )
    return deleted.first() is not None
