"""Tasks in the local service: upsert, delete, list and read (API.md 2.2, 2.3; listing and reading
are extensions, DESIGN.md), and the history of their versions (extension)."""

from __future__ import annotations

from functools import partial

from core.api import (
    DeleteTaskResponse,
    Language,
    NotFound,
    StoredTask,
    TaskBase,
    TaskSummary,
    TaskVersion,
    TaskVersionSummary,
    UpsertTaskResponse,
    check_task,
    parse_task,
)
from core.auth import Permission
from core.service.caller import Caller
from core.store import task_history, tasks


class TaskOperations:
    def __init__(self, caller: Caller) -> None:
        self.caller = caller

    async def upsert_task(
        self, tenant_id: str, task: TaskBase, *, expected_version: int | None = None
    ) -> UpsertTaskResponse:
        """``expected_version``: see :func:`core.store.tasks.write_task` (a VersionConflict when the
        stored task is not the one the caller edited)."""
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        check_task(task)
        action, _ = await self.caller.runtime.db.run_write(
            partial(
                tasks.write_task,
                tenant_id=tenant,
                task=task,
                expected_version=expected_version,
                author=self.caller.principal.name,
            )
        )
        link = self.caller.runtime.task_link(tenant, task.id)
        return UpsertTaskResponse(taskId=task.id, tenantId=tenant, action=action, taskLink=link)

    async def delete_task(self, tenant_id: str, task_id: str) -> DeleteTaskResponse:
        """Removes the task with its answers and feedback: a task created again under the id starts fresh."""
        tenant = self.caller.tenant(tenant_id, Permission.DELETE)
        if not await self.caller.runtime.db.run_write(
            partial(tasks.remove_task, tenant_id=tenant, task_id=task_id)
        ):
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        return DeleteTaskResponse(message=f"task {task_id!r} deleted", taskId=task_id, tenantId=tenant)

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        listing = await self.caller.runtime.db.run_read(partial(tasks.list_tasks, tenant_id=tenant))
        return [
            TaskSummary(
                taskId=item.task.task_id,
                tenantId=tenant,
                type=item.task.type.schema_name,
                title=item.task.title,
                language=Language(item.task.language),
                version=item.task.version,
                updatedAt=item.task.updated_at,
                interactionCount=item.interaction_count,
                lastVerdicts=item.last_verdicts,
            )
            for item in listing
        ]

    async def get_task(self, tenant_id: str, task_id: str) -> StoredTask:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        row = await self.caller.stored_task(tenant, task_id)
        return StoredTask(
            tenantId=tenant,
            version=row.version,
            createdAt=row.created_at,
            updatedAt=row.updated_at,
            taskLink=self.caller.runtime.task_link(tenant, task_id),
            definition=row.task,
        )

    async def list_task_versions(self, tenant_id: str, task_id: str) -> list[TaskVersionSummary]:
        """Newest first. Every stored task has at least one version, so none means no such task
        (a deleted task's history goes with it)."""
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        rows = await self.caller.runtime.db.run_read(
            partial(task_history.list_versions, tenant_id=tenant, task_id=task_id)
        )
        if not rows:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        return [
            TaskVersionSummary(version=r.version, title=r.title, author=r.author, createdAt=r.created_at)
            for r in rows
        ]

    async def get_task_version(self, tenant_id: str, task_id: str, version: int) -> TaskVersion:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        row = await self.caller.runtime.db.run_read(
            partial(task_history.read_version, tenant_id=tenant, task_id=task_id, version=version)
        )
        if row is None or row.definition is None:
            raise NotFound(f"task {task_id!r} has no version {version} in tenant {tenant!r}")
        return TaskVersion(
            tenantId=tenant,
            taskId=task_id,
            version=row.version,
            title=row.title,
            author=row.author,
            createdAt=row.created_at,
            definition=parse_task(row.definition),
        )
