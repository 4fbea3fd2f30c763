"""Small helpers shared by the store's repositories."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(executor: AsyncSession | Connection, table: Any) -> Any:
    """An INSERT that supports ON CONFLICT on the executor's dialect (SQLite and PostgreSQL both do)."""
    if isinstance(executor, Connection):
        dialect = executor.dialect.name
    else:
        dialect = executor.bind.dialect.name if executor.bind is not None else "sqlite"
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)
