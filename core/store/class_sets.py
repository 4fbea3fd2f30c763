"""Class sets in the store: a set's row, its answers with what their judgement keeps, the teacher's
grades and the feedback last written for each answer. Plain functions of a connection, run by
``Database.run_read`` / ``Database.run_write`` like every store function."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from core.store import models as m

SETS = m.Base.metadata.tables[m.ClassSet.__tablename__]
ANSWERS = m.Base.metadata.tables[m.ClassSetAnswer.__tablename__]


@dataclass(frozen=True, slots=True)
class SetRow:
    id: str
    tenant_id: str
    task_id: str
    name: str
    answer_count: int
    grades: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class AnswerRow:
    position: int
    text: str
    judged_for: str | None
    basis: str | None
    verdict: str | None
    score: float | None
    probability: float | None
    vector: bytes | None
    grade: str | None
    grade_points: float | None
    feedback: list[Any] | None
    feedback_for: str | None


@dataclass(frozen=True, slots=True)
class Judged:
    """One answer's judgement to store (core.engine.freeform.class_set.Unmoved, as columns)."""

    position: int
    basis: str
    verdict: str
    score: float
    probability: float
    vector: bytes


def _set(row: Any) -> SetRow:
    return SetRow(
        row.id,
        row.tenant_id,
        row.task_id,
        row.name,
        row.answer_count,
        row.grades,
        row.created_at,
        row.updated_at,
    )


def create_set(
    connection: Connection, tenant_id: str, task_id: str, set_id: str, name: str, texts: Sequence[str]
) -> SetRow:
    now = m.utcnow()
    connection.execute(
        insert(SETS).values(
            id=set_id,
            tenant_id=tenant_id,
            task_id=task_id,
            name=name,
            answer_count=0,
            grades=0,
            created_at=now,
            updated_at=now,
        )
    )
    if texts:
        add_answers(connection, set_id, texts)
    found = read_set(connection, tenant_id, set_id)
    assert found is not None
    return found


def add_answers(connection: Connection, set_id: str, texts: Sequence[str]) -> int:
    """Appends the answers; the set's answer count after them."""
    count = int(connection.execute(select(SETS.c.answer_count).where(SETS.c.id == set_id)).scalar_one())
    connection.execute(
        insert(ANSWERS), [{"set_id": set_id, "position": count + i, "text": t} for i, t in enumerate(texts)]
    )
    total = count + len(texts)
    connection.execute(
        update(SETS).where(SETS.c.id == set_id).values(answer_count=total, updated_at=m.utcnow())
    )
    return total


def read_set(connection: Connection, tenant_id: str, set_id: str) -> SetRow | None:
    row = connection.execute(select(SETS).where(SETS.c.id == set_id, SETS.c.tenant_id == tenant_id)).first()
    return _set(row) if row is not None else None


TASKS = m.Base.metadata.tables[m.Task.__tablename__]


def list_sets(connection: Connection, tenant_id: str, task_id: str | None) -> list[tuple[SetRow, int, int]]:
    """The tenant's sets (of one task), newest first, each with how many of its answers are judged
    for its task's content as it now is and how many the teacher graded."""
    judged = func.count(ANSWERS.c.position).filter(ANSWERS.c.judged_for == TASKS.c.content_hash)
    graded = func.count(ANSWERS.c.grade)
    query = (
        select(SETS, judged, graded)
        .join(TASKS, (TASKS.c.tenant_id == SETS.c.tenant_id) & (TASKS.c.task_id == SETS.c.task_id))
        .outerjoin(ANSWERS, ANSWERS.c.set_id == SETS.c.id)
        .where(SETS.c.tenant_id == tenant_id)
        .group_by(*SETS.c, TASKS.c.content_hash)
        .order_by(SETS.c.created_at.desc(), SETS.c.id)
    )
    if task_id is not None:
        query = query.where(SETS.c.task_id == task_id)
    return [(_set(row), int(row[-2]), int(row[-1])) for row in connection.execute(query)]


def read_answers(connection: Connection, set_id: str) -> list[AnswerRow]:
    rows = connection.execute(
        select(*(ANSWERS.c[f] for f in AnswerRow.__slots__))
        .where(ANSWERS.c.set_id == set_id)
        .order_by(ANSWERS.c.position)
    )
    return [AnswerRow(*row) for row in rows]


def judged_count(connection: Connection, set_id: str, digest: str) -> int:
    return int(
        connection.execute(
            select(func.count()).where(ANSWERS.c.set_id == set_id, ANSWERS.c.judged_for == digest)
        ).scalar_one()
    )


def write_judged(connection: Connection, set_id: str, digest: str, judged: Sequence[Judged]) -> None:
    if not judged:
        return
    connection.execute(
        update(ANSWERS)
        .where(ANSWERS.c.set_id == bindparam("s"), ANSWERS.c.position == bindparam("p"))
        .values(
            judged_for=bindparam("d"),
            basis=bindparam("b"),
            verdict=bindparam("v"),
            score=bindparam("sc"),
            probability=bindparam("pr"),
            vector=bindparam("ve"),
            feedback=None,
            feedback_for=None,
        ),
        [
            {
                "s": set_id,
                "p": j.position,
                "d": digest,
                "b": j.basis,
                "v": j.verdict,
                "sc": j.score,
                "pr": j.probability,
                "ve": j.vector,
            }
            for j in judged
        ],
    )


def put_grade(
    connection: Connection, set_id: str, position: int, grade: str | None, points: float | None
) -> bool:
    """Sets (or with None takes back) the teacher's grade of one answer; False if there is no such answer."""
    changed = connection.execute(
        update(ANSWERS)
        .where(ANSWERS.c.set_id == set_id, ANSWERS.c.position == position)
        .values(grade=grade, grade_points=points)
    ).rowcount
    if changed:
        connection.execute(
            update(SETS).where(SETS.c.id == set_id).values(grades=SETS.c.grades + 1, updated_at=m.utcnow())
        )
    return bool(changed)


def write_feedback(
    connection: Connection, set_id: str, written: Sequence[tuple[int, list[Any], str]]
) -> None:
    """Keeps the feedback written for answers, each with the key of what it was written for."""
    if not written:
        return
    connection.execute(
        update(ANSWERS)
        .where(ANSWERS.c.set_id == bindparam("s"), ANSWERS.c.position == bindparam("p"))
        .values(feedback=bindparam("f"), feedback_for=bindparam("k")),
        [{"s": set_id, "p": position, "f": items, "k": key} for position, items, key in written],
    )


def delete_set(connection: Connection, tenant_id: str, set_id: str) -> bool:
    connection.execute(
        delete(ANSWERS).where(
            ANSWERS.c.set_id.in_(select(SETS.c.id).where(SETS.c.id == set_id, SETS.c.tenant_id == tenant_id))
        )
    )
    return bool(
        connection.execute(delete(SETS).where(SETS.c.id == set_id, SETS.c.tenant_id == tenant_id)).rowcount
    )
