"""The task library of one tenant over any Service: list, open, save, duplicate and delete tasks.

Both apps keep their tasks through it, so they behave the same on the same service. With the
authoring extensions it reads the service itself. A remote without them (one that implements
API.md alone: it takes upserts but cannot list or read tasks back) still lets an author work: the
tasks saved through a library are remembered in ``remembered``, a mapping its owner keeps for as
long as the connection lives (the terminal app per connection, the web app per server and
remote), and listed and opened from there.
"""

from __future__ import annotations

from collections.abc import Collection, MutableMapping, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from core.api import NotFound, TaskDefinition, TaskSummary, UpsertTaskResponse
from core.client.files import Replacement, import_task
from core.client.vocabulary import COPY_TITLE
from core.service.base import Service


class OpenedTask(NamedTuple):
    task: TaskDefinition
    version: int | None
    """The stored version the task was read at (an editor saves on top of it); None where the
    service keeps no versions (a remote without the extensions)."""


def copy_id(task_id: str, taken: Collection[str]) -> str:
    """The id a copy of ``task_id`` is offered: ``{id}-copy``, else ``{id}-copy-2`` … the first free."""
    candidate, n = f"{task_id}-copy", 1
    while candidate in taken:
        n += 1
        candidate = f"{task_id}-copy-{n}"
    return candidate


class TaskLibrary:
    """The tasks of ``tenant_id`` on ``service``; ``extensions`` says whether it can list them."""

    def __init__(
        self,
        service: Service,
        tenant_id: str,
        *,
        extensions: bool,
        remembered: MutableMapping[str, TaskDefinition] | None = None,
    ) -> None:
        self.service = service
        self.tenant_id = tenant_id
        self.extensions = extensions
        self.remembered: MutableMapping[str, TaskDefinition] = {} if remembered is None else remembered
        """Tasks saved through this library: all a remote without the extensions can show."""
        self.listed: list[TaskSummary] = []
        """The last listing (the ids an editor or a copy must not take, the palette's tasks)."""
        self.changes = 0
        """Counts changes to the tasks or their verdicts, so a view reloads only when stale."""

    @classmethod
    async def of(
        cls, service: Service, remembered: MutableMapping[str, TaskDefinition] | None = None
    ) -> TaskLibrary:
        """The library of the principal's default tenant, as the service describes itself."""
        info = await service.info()
        return cls(service, info.defaultTenantId, extensions=info.extensions, remembered=remembered)

    async def list(self) -> list[TaskSummary]:
        if self.extensions:
            tasks = await self.service.list_tasks(self.tenant_id)
        else:
            tasks = [self._summary(task) for task in self.remembered.values()]
        self.listed = tasks
        return tasks

    @property
    def taken(self) -> frozenset[str]:
        """The ids of the last listing."""
        return frozenset(t.taskId for t in self.listed)

    async def open(self, task_id: str) -> OpenedTask:
        if self.extensions:
            stored = await self.service.get_task(self.tenant_id, task_id)
            return OpenedTask(stored.definition, stored.version)
        if task_id not in self.remembered:
            raise NotFound(f"task {task_id!r} was not saved here (this remote cannot list or read its tasks)")
        return OpenedTask(self.remembered[task_id], None)

    async def save(self, task: TaskDefinition, expected_version: int | None = None) -> UpsertTaskResponse:
        """``expected_version``: save only on top of that version (0: only as a new task); see
        Service.upsert_task. A remote without the extensions writes unconditionally."""
        expected = expected_version if self.extensions else None
        response = await self.service.upsert_task(self.tenant_id, task, expected_version=expected)
        self.remembered[task.id] = task
        self.changed()
        return response

    async def import_task(
        self, task: TaskDefinition, agreed: Sequence[Replacement] = ()
    ) -> UpsertTaskResponse:
        """Save a task read from a file: a stored task of that id is replaced only as ``agreed``
        (core.client.files.import_task raises WouldReplace otherwise)."""
        response = await import_task(self.service, self.tenant_id, task, agreed)
        self.remembered[task.id] = task
        self.changed()
        return response

    async def duplicate(self, task_id: str, new_id: str, title: str = COPY_TITLE) -> TaskDefinition:
        """Save a copy of ``task_id`` as ``new_id`` (never over another task); ``title`` formats
        the copy's title from the original's (the app passes COPY_TITLE in its language)."""
        original = (await self.open(task_id)).task
        copy = original.model_copy(update={"id": new_id, "title": title.format(title=original.display_title)})
        await self.save(copy, expected_version=0)
        return copy

    async def delete(self, task_id: str) -> None:
        await self.service.delete_task(self.tenant_id, task_id)
        self.remembered.pop(task_id, None)
        self.changed()

    def changed(self) -> None:
        """A task, or the verdicts of its answers, changed: listings are stale."""
        self.changes += 1

    def _summary(self, task: TaskDefinition) -> TaskSummary:
        return TaskSummary(
            taskId=task.id,
            tenantId=self.tenant_id,
            type=task.task_type.schema_name,
            title=task.title,
            language=task.language,
            version=0,
            updatedAt=datetime.now(UTC),
        )
