"""Small helpers shared by the store's repositories."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Connection, Row, bindparam
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from core.store import models as m


def insert_for(connection: Connection, table: Any) -> Any:
    """An INSERT that supports ON CONFLICT on the connection's dialect (SQLite and PostgreSQL both do)."""
    return insert_for_dialect(connection.dialect.name, table)


def insert_for_dialect(dialect: str, table: Any) -> Any:
    """An INSERT that supports ON CONFLICT on the dialect named (SQLite's or PostgreSQL's)."""
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


def put_interaction_row(connection: Connection, table: Any, interaction_id: str, **fields: Any) -> Row[Any]:
    """Create ``table``'s one row of an interaction or replace its ``fields`` (keeping when it was
    first made), atomically under concurrency; the row as stored. A rating and a teacher's
    override are such rows."""
    now = m.utcnow()
    statement = _upsert(connection.dialect.name, table, tuple(fields))
    return connection.execute(
        statement, {"interaction_id": interaction_id, "created_at": now, "updated_at": now, **fields}
    ).one()


@cache
def _upsert(dialect: str, table: Any, fields: tuple[str, ...]) -> Any:
    """put_interaction_row's statement, built once per dialect, table and fields: building it with
    the values in (a new statement and its cache key every call) cost a rating more CPU than
    executing it. The update sets what the insert proposed (EXCLUDED)."""
    insert = insert_for_dialect(dialect, table)
    proposed = insert.values(
        {name: bindparam(name) for name in ("interaction_id", "created_at", "updated_at", *fields)}
    )
    return proposed.on_conflict_do_update(
        index_elements=["interaction_id"],
        set_={name: proposed.excluded[name] for name in (*fields, "updated_at")},
    ).returning(table)
