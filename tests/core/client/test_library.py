"""The task library both apps keep their tasks through: over a service with the authoring
extensions, and over a remote without them (it remembers what was saved through it)."""

from __future__ import annotations

import pytest

from core.api import NotFound, ServiceInfo, TaskSummary, VersionConflict
from core.client.library import TaskLibrary, copy_id
from tests.contract.builders import mc_task


class ForeignRemote:
    """A service that implements API.md alone: upserts and deletes, but no listing or reading."""

    def __init__(self, service) -> None:
        self._service = service

    def __getattr__(self, name):
        return getattr(self._service, name)

    async def info(self) -> ServiceInfo:
        return (await self._service.info()).model_copy(update={"mode": "remote", "extensions": False})

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]:
        raise NotFound("no such route")

    async def get_task(self, tenant_id: str, task_id: str):
        raise NotFound("no such route")


def test_a_copy_is_offered_the_first_free_id() -> None:
    assert copy_id("mc-1", set()) == "mc-1-copy"
    assert copy_id("mc-1", {"mc-1-copy"}) == "mc-1-copy-2"
    assert copy_id("mc-1", {"mc-1-copy", "mc-1-copy-2"}) == "mc-1-copy-3"


async def test_with_the_extensions_the_library_reads_the_service(service) -> None:
    library = await TaskLibrary.of(service)
    assert library.extensions and library.tenant_id == "default"
    await service.upsert_task("default", mc_task("saved-elsewhere"))  # not through the library
    assert [t.taskId for t in await library.list()] == ["saved-elsewhere"]
    opened = await library.open("saved-elsewhere")
    assert opened.task.id == "saved-elsewhere" and opened.version == 1

    before = library.changes
    copy = await library.duplicate("saved-elsewhere", copy_id("saved-elsewhere", library.taken))
    assert copy.id == "saved-elsewhere-copy" and copy.title == "Federal city (copy)"
    assert library.changes > before
    assert {t.taskId for t in await library.list()} == {"saved-elsewhere", "saved-elsewhere-copy"}


async def test_a_copy_never_overwrites_another_task(service) -> None:
    library = await TaskLibrary.of(service)
    await library.save(mc_task("a"))
    await library.save(mc_task("b", title="Keep me"))
    with pytest.raises(VersionConflict):
        await library.duplicate("a", "b")
    assert (await library.open("b")).task.title == "Keep me"


async def test_a_remote_without_the_extensions_lists_the_tasks_saved_through_the_library(service) -> None:
    remembered = {}
    library = await TaskLibrary.of(ForeignRemote(service), remembered)
    assert not library.extensions
    assert await library.list() == []
    await library.save(mc_task("mine"))
    assert [t.taskId for t in await library.list()] == ["mine"]
    assert (await library.open("mine")) == (mc_task("mine"), None)

    # a second library on the same connection (the web app's next page) sees the same tasks
    again = await TaskLibrary.of(ForeignRemote(service), remembered)
    assert [t.taskId for t in await again.list()] == ["mine"]
    await again.delete("mine")
    assert await library.list() == []
    with pytest.raises(NotFound):
        await library.open("mine")
