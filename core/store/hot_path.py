"""The statements of the feedback hot path, for a job of the SQLite writer (core.store.sqlite_writer).

They run on a plain sqlite3 connection, yet their SQL is compiled from the store's own table
definitions and their values pass through the same SQLAlchemy type processors as a Session's, so
a row written here is the same as one written through the ORM (JSON text, UTC timestamps in the
same format).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.dialects import sqlite

from core.api import ApiModel, TaskType
from core.store import models as m

DIALECT = sqlite.dialect(paramstyle="named")


@dataclass(frozen=True)
class TaskRevision:
    """What judging an unchanged task needs of its row."""

    type: TaskType
    content_hash: str
    version: int
    graded_count: int


_tasks = m.Task.__table__
_READ_REVISION = str(
    select(_tasks.c.type, _tasks.c.content_hash, _tasks.c.version, _tasks.c.graded_count)
    .where(_tasks.c.tenant_id == bindparam("tenant_id"), _tasks.c.task_id == bindparam("task_id"))
    .compile(dialect=DIALECT)
)


def read_revision(connection: sqlite3.Connection, tenant_id: str, task_id: str) -> TaskRevision | None:
    row = connection.execute(_READ_REVISION, {"tenant_id": tenant_id, "task_id": task_id}).fetchone()
    return TaskRevision(TaskType(row[0]), row[1], row[2], row[3]) if row is not None else None


_interactions = m.Interaction.__table__
_INSERT_INTERACTION = str(insert(_interactions).compile(dialect=DIALECT))
_INTERACTION_PROCESSORS = {
    column.key: processor
    for column in _interactions.columns
    # dialect_impl: a TypeDecorator's own bind_processor skips its impl's SQLite processor (the
    # one that writes a datetime as the text the Session path stores).
    if (processor := column.type.dialect_impl(DIALECT).bind_processor(DIALECT)) is not None
}


def add_interaction(connection: sqlite3.Connection, values: dict[str, Any]) -> None:
    """The same row as core.store.interactions.add_interaction writes through a Session; a JSON
    column given as a wire model is serialised by pydantic rather than by the column's json.dumps."""
    params = {
        key: value.to_wire_json()
        if isinstance(value, ApiModel)
        else _INTERACTION_PROCESSORS.get(key, _same)(value)
        for key, value in values.items()
    }
    connection.execute(_INSERT_INTERACTION, params)


def _same(value: Any) -> Any:
    return value
