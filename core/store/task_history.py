"""The versions of a task: each one its create or update wrote, with its time and author.

Written only by core.store.tasks.write_task, in the same transaction as the task row, so that the
history has exactly the versions the task has had; forgotten with the task (core.store.tasks.remove_task), as a
task created again under the id starts fresh at version 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from core.store import models as m

WEBHOOK_AUTHOR = "webhook"
"""The author of versions a webhook wrote (task.upserted): no token name is known there."""
DEMO_AUTHOR = "demo"
"""The author of the demo tasks' first versions."""

_versions = m.Base.metadata.tables[m.TaskVersion.__tablename__]
_RECORD = insert(_versions)
"""Built once; a version's values are bound when it is executed."""


@dataclass(frozen=True)
class VersionRow:
    version: int
    title: str
    author: str
    created_at: datetime
    definition: dict[str, Any] | None
    """None in a listing (the definitions are read one by one)."""


def record_version(
    connection: Connection,
    tenant_id: str,
    task_id: str,
    version: int,
    *,
    title: str,
    definition: dict[str, Any],
    author: str,
    at: datetime,
) -> None:
    connection.execute(
        _RECORD,
        dict(
            tenant_id=tenant_id,
            task_id=task_id,
            version=version,
            title=title,
            definition=definition,
            author=author,
            created_at=at,
        ),
    )


def _of_task(tenant_id: str, task_id: str) -> Any:
    return (_versions.c.tenant_id == tenant_id) & (_versions.c.task_id == task_id)


def list_versions(connection: Connection, tenant_id: str, task_id: str) -> list[VersionRow]:
    """Newest first, without their definitions."""
    rows = connection.execute(
        select(_versions.c.version, _versions.c.title, _versions.c.author, _versions.c.created_at)
        .where(_of_task(tenant_id, task_id))
        .order_by(_versions.c.version.desc())
    )
    return [VersionRow(*row, definition=None) for row in rows]


def read_version(connection: Connection, tenant_id: str, task_id: str, version: int) -> VersionRow | None:
    row = connection.execute(
        select(
            _versions.c.version,
            _versions.c.title,
            _versions.c.author,
            _versions.c.created_at,
            _versions.c.definition,
        ).where(_of_task(tenant_id, task_id) & (_versions.c.version == version))
    ).first()
    return VersionRow(*row) if row is not None else None
