"""Tasks of a tenant: upsert with the CREATED / UPDATED / UNCHANGED decision, read, list, delete.

UNCHANGED means the canonical JSON of the supplied definition equals the stored one (DESIGN.md).
The upsert is race-free: INSERT … ON CONFLICT DO NOTHING decides CREATED for exactly one of many
concurrent callers; the others lock the row and compare hashes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar

from sqlalchemy import Connection, bindparam, delete, func, select, update

from core.api import (
    TaskAction,
    TaskBase,
    TaskDefinition,
    TaskType,
    VersionConflict,
    WrongTaskType,
    parse_task,
)
from core.store import models as m
from core.store.common import insert_for_dialect
from core.store.task_history import record_version
from core.store.writer import Prefetching, invalidate

T = TypeVar("T")


def canonical_json(task: TaskBase) -> dict[str, Any]:
    return task.model_dump(mode="json", by_alias=True)


def content_hash(document: dict[str, Any]) -> str:
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def task_hash(task: TaskBase) -> str:
    """content_hash of the task's canonical JSON, remembered: clients send the same task with every
    answer, and pydantic's own JSON of it (a few microseconds) is both the key and, parsed, the
    canonical document."""
    return _hash_of_task_json(task.model_dump_json(by_alias=True))


@lru_cache(maxsize=1024)
def _hash_of_task_json(document: str) -> str:
    return content_hash(json.loads(document))


@dataclass(frozen=True)
class TaskRevision:
    """What a judgement of an answer depends on of a task's row (its type, content, version and
    count of graded answers); an answer is recorded only if the revision it was judged against is
    still the stored one (core.service.feedback)."""

    type: TaskType
    content_hash: str
    version: int
    graded_count: int


@dataclass(frozen=True)
class TaskRow(TaskRevision):
    tenant_id: str
    task_id: str
    title: str
    language: str
    definition: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    @property
    def task(self) -> TaskDefinition:
        """The stored definition as its task model."""
        return parse_task(self.definition)

    @classmethod
    def of(cls, row: Any) -> TaskRow:
        """From an ORM object or a plain row of the tasks table."""
        return cls(
            tenant_id=row.tenant_id,
            task_id=row.task_id,
            type=TaskType(row.type),
            title=row.title,
            language=row.language,
            definition=row.definition,
            content_hash=row.content_hash,
            version=row.version,
            graded_count=row.graded_count,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )


def check_type_unchanged(stored: TaskRevision | None, task: TaskBase) -> None:
    """A task keeps its type for life (API.md 3); a new type needs a new id."""
    if stored is not None and stored.type is not task.task_type:
        raise WrongTaskType(
            f"task {task.id!r} is a {stored.type.schema_name}; it cannot become a "
            f"{task.task_type.schema_name} (use a new id for a new task)"
        )


_tasks = m.Base.metadata.tables[m.Task.__tablename__]


def _key(tenant_id: str, task_id: str) -> Any:
    return (_tasks.c.tenant_id == tenant_id) & (_tasks.c.task_id == task_id)


_BY_KEY = (_tasks.c.tenant_id == bindparam("tenant_id")) & (_tasks.c.task_id == bindparam("task_id"))
_READ_REVISION = select(_tasks.c.type, _tasks.c.content_hash, _tasks.c.version, _tasks.c.graded_count).where(
    _BY_KEY
)
"""Built once: the read every feedback computation starts with (building a statement costs as much
as running it)."""
_LOCK_ROW = select(_tasks).where(_BY_KEY).with_for_update()


@lru_cache(maxsize=4)
def _update_content(columns: tuple[str, ...]) -> Any:
    """The update of a task's content that sets `columns`, built once (building a statement with
    its values in cost a task upsert more CPU than executing it); the key is bound under names of
    its own, since an UPDATE keeps its columns' names for their new values."""
    return (
        update(_tasks)
        .where(
            (_tasks.c.tenant_id == bindparam("key_tenant_id"))
            & (_tasks.c.task_id == bindparam("key_task_id"))
        )
        .values({name: bindparam(f"new_{name}") for name in columns})
    )


@lru_cache(maxsize=2)
def _insert_if_new(dialect: str) -> Any:
    """The task's first version, unless a row with its key exists (ON CONFLICT DO NOTHING)."""
    return (
        insert_for_dialect(dialect, _tasks)
        .values({column.name: bindparam(column.name) for column in _tasks.columns})
        .on_conflict_do_nothing(index_elements=["tenant_id", "task_id"])
        .returning(_tasks.c.task_id)
    )


_READ_REVISIONS = select(
    _tasks.c.task_id, _tasks.c.type, _tasks.c.content_hash, _tasks.c.version, _tasks.c.graded_count
).where(
    (_tasks.c.tenant_id == bindparam("tenant_id"))
    & _tasks.c.task_id.in_(bindparam("task_ids", expanding=True))
)


def read_revision(connection: Connection, tenant_id: str, task_id: str) -> TaskRevision | None:
    """The task's type and revision, or None."""
    row = connection.execute(_READ_REVISION, {"tenant_id": tenant_id, "task_id": task_id}).first()
    return TaskRevision(TaskType(row[0]), row[1], row[2], row[3]) if row is not None else None


def at_revision(
    tenant_id: str, task_id: str, job: Callable[[Connection, TaskRevision | None], T]
) -> Callable[[Connection], T]:
    """A job (Database.run_write) that starts from the task's current revision (None: no such
    task), handed to it as its second argument. The writer reads the revisions of all such jobs of
    a batch in one statement; a job of the batch that changes a task (write_task, remove_task,
    count_graded) drops it, so every job gets the revision as it is when it runs."""
    return Prefetching(_read_revisions, (tenant_id, task_id), job)


def _changes(connection: Connection, tenant_id: str, task_id: str) -> None:
    """This transaction changes the task's revision: the batch's later jobs read it anew. Every
    statement that changes a row of the tasks table is preceded by this call."""
    invalidate(connection, _read_revisions, (tenant_id, task_id))


def _read_revisions(
    connection: Connection, keys: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], TaskRevision | None]:
    """The revisions of the tasks of these (tenant id, task id) keys, None where there is none:
    one statement per tenant (a batch's are usually all of one), which finds the rows by the key's
    index (a list of pairs does not use it on SQLite)."""
    found: dict[tuple[str, str], TaskRevision | None] = dict.fromkeys(keys)
    by_tenant: dict[str, list[str]] = {}
    for tenant_id, task_id in keys:
        by_tenant.setdefault(tenant_id, []).append(task_id)
    for tenant_id, task_ids in by_tenant.items():
        rows = connection.execute(_READ_REVISIONS, {"tenant_id": tenant_id, "task_ids": task_ids})
        for task_id, type_, digest, version, graded_count in rows:
            found[(tenant_id, task_id)] = TaskRevision(TaskType(type_), digest, version, graded_count)
    return found


def write_task(
    connection: Connection,
    tenant_id: str,
    task: TaskBase,
    expected_version: int | None = None,
    *,
    author: str,
) -> tuple[TaskAction, TaskRow]:
    """Create the task, or update it if its content changed; the decision is race-free.

    Every version it writes is kept in the task's history (core.store.task_history) under
    ``author``, the name of the token that wrote it.

    ``expected_version`` makes the write conditional (an editor saves on top of the version it
    opened): 0 means the task must not exist yet, n that version n must still be the stored one.
    Writing what is stored already is no conflict for an editor (n); a create (0) finds any task
    with the id a conflict. The row is locked while it is checked."""
    _changes(connection, tenant_id, task.id)
    document = canonical_json(task)
    digest = content_hash(document)
    now = m.utcnow()
    values = dict(
        tenant_id=tenant_id,
        task_id=task.id,
        type=task.task_type.value,
        title=task.display_title,
        language=task.language.value,
        definition=document,
        content_hash=digest,
        version=1,
        graded_count=0,
        created_at=now,
        updated_at=now,
    )
    inserted = connection.execute(_insert_if_new(connection.dialect.name), values)
    row = TaskRow.of(connection.execute(_LOCK_ROW, {"tenant_id": tenant_id, "task_id": task.id}).one())
    if inserted.first() is not None:
        if expected_version:
            raise VersionConflict(
                f"task {task.id!r} was deleted since version {expected_version} was opened; "
                "save it again to create it anew"
            )
        _remember(connection, row, author)
        return TaskAction.CREATED, row
    if expected_version == 0:
        raise VersionConflict(
            f"a task with the id {task.id!r} already exists in tenant {tenant_id!r} "
            f"(version {row.version}, “{row.title}”); choose another id or open that task"
        )
    check_type_unchanged(row, task)
    if row.content_hash == digest:
        return TaskAction.UNCHANGED, row
    if expected_version is not None and expected_version != row.version:
        raise VersionConflict(
            f"task {task.id!r} changed since you opened it: version {row.version} is stored, "
            f"you edited version {expected_version}"
        )
    changed: dict[str, Any] = dict(
        definition=document,
        content_hash=digest,
        title=task.display_title,
        language=task.language.value,
        version=row.version + 1,
        updated_at=now,
    )
    connection.execute(
        _update_content(tuple(changed)),
        {
            "key_tenant_id": tenant_id,
            "key_task_id": task.id,
            **{f"new_{name}": value for name, value in changed.items()},
        },
    )
    updated = replace(row, **changed)
    _remember(connection, updated, author)
    return TaskAction.UPDATED, updated


def _remember(connection: Connection, row: TaskRow, author: str) -> None:
    record_version(
        connection,
        row.tenant_id,
        row.task_id,
        row.version,
        title=row.title,
        definition=row.definition,
        author=author,
        at=row.updated_at,
    )


def read_task(connection: Connection, tenant_id: str, task_id: str) -> TaskRow | None:
    """The task's row, or None."""
    row = connection.execute(select(_tasks).where(_key(tenant_id, task_id))).first()
    return TaskRow.of(row) if row is not None else None


def remove_task(connection: Connection, tenant_id: str, task_id: str) -> bool:
    """Remove the task with its interactions (their ratings go with them), graded answers, test
    answers and versions, so that a task created again under the id starts fresh; whether there
    was such a task."""
    _changes(connection, tenant_id, task_id)
    deleted = connection.execute(
        delete(_tasks).where(_key(tenant_id, task_id)).returning(_tasks.c.task_id)
    ).first()
    if deleted is None:
        return False
    for model in (m.Interaction, m.GradedAnswer, m.TestAnswer, m.TaskVersion):
        table = m.Base.metadata.tables[model.__tablename__]
        connection.execute(
            delete(table).where((table.c.tenant_id == tenant_id) & (table.c.task_id == task_id))
        )
    return True


@dataclass(frozen=True)
class TaskListing:
    task: TaskRow
    interaction_count: int
    last_verdicts: list[str]


def list_tasks(connection: Connection, tenant_id: str, recent: int = 5) -> list[TaskListing]:
    """The tenant's tasks, the most recently changed first, with how often they were answered and
    their `recent` most recent verdicts."""
    found = connection.execute(
        select(_tasks).where(_tasks.c.tenant_id == tenant_id).order_by(_tasks.c.updated_at.desc())
    ).all()
    interactions = m.Base.metadata.tables[m.Interaction.__tablename__]
    counted = connection.execute(
        select(interactions.c.task_id, func.count())
        .where(interactions.c.tenant_id == tenant_id)
        .group_by(interactions.c.task_id)
    )
    counts = {task_id: count for task_id, count in counted}
    ranked = (
        select(
            interactions.c.task_id,
            interactions.c.verdict,
            func.row_number()
            .over(partition_by=interactions.c.task_id, order_by=interactions.c.created_at.desc())
            .label("rank"),
        )
        .where(interactions.c.tenant_id == tenant_id)
        .subquery()
    )
    verdicts: dict[str, list[str]] = {}
    for task_id, verdict in connection.execute(
        select(ranked.c.task_id, ranked.c.verdict).where(ranked.c.rank <= recent).order_by(ranked.c.rank)
    ):
        verdicts.setdefault(task_id, []).append(verdict)
    return [TaskListing(TaskRow.of(t), counts.get(t.task_id, 0), verdicts.get(t.task_id, [])) for t in found]


def count_graded(connection: Connection, tenant_id: str, task_id: str, added: int) -> int:
    """Count `added` more graded answers on the task row (the revision judging caches key on);
    how many the task has now."""
    _changes(connection, tenant_id, task_id)
    counted = connection.execute(
        update(_tasks)
        .where(_key(tenant_id, task_id))
        .values(graded_count=_tasks.c.graded_count + added)
        .returning(_tasks.c.graded_count)
    )
    total: int = counted.scalar_one()
    return total
