"""Contract: the history of a task's versions (extension) and restoring one as a new version."""

from __future__ import annotations

import pytest

from core.api import MissingPermissions, NotFound, TaskAction, VersionConflict
from core.client.task_history import restore_version
from core.service.base import Service
from tests.contract.builders import compute, mc_task

pytestmark = pytest.mark.contract


async def test_every_write_that_changes_the_task_is_a_version_with_its_author(service: Service) -> None:
    await service.upsert_task("default", mc_task(title="First"))
    await service.upsert_task("default", mc_task(title="First"))  # unchanged: no version
    await service.upsert_task("default", mc_task(title="Second"))
    author = (await service.info()).principal
    versions = await service.list_task_versions("default", "mc-1")
    assert [(v.version, v.title, v.author) for v in versions] == [(2, "Second", author), (1, "First", author)]
    assert versions[0].createdAt >= versions[1].createdAt
    first = await service.get_task_version("default", "mc-1", 1)
    assert (first.tenantId, first.taskId, first.version) == ("default", "mc-1", 1)
    assert first.definition == mc_task(title="First")


async def test_a_task_written_by_computing_feedback_has_its_versions_too(service: Service) -> None:
    await service.compute_feedback(compute(mc_task(title="Inline"), {"selectedIndex": 0}))
    await service.compute_feedback(compute(mc_task(title="Inline, changed"), {"selectedIndex": 0}))
    titles = [v.title for v in await service.list_task_versions("default", "mc-1")]
    assert titles == ["Inline, changed", "Inline"]


async def test_restoring_writes_the_old_version_as_a_new_one(service: Service) -> None:
    await service.upsert_task("default", mc_task(title="Original"))
    await service.upsert_task("default", mc_task(title="Worse"))
    old = await service.get_task_version("default", "mc-1", 1)
    restored = await restore_version(service, old, current_version=2)
    assert restored.action is TaskAction.UPDATED
    stored = await service.get_task("default", "mc-1")
    assert (stored.version, stored.definition.title) == (3, "Original")
    assert [v.title for v in await service.list_task_versions("default", "mc-1")] == [
        "Original",
        "Worse",
        "Original",
    ]


async def test_restoring_on_top_of_a_version_saved_meanwhile_is_refused(service: Service) -> None:
    await service.upsert_task("default", mc_task(title="Original"))
    await service.upsert_task("default", mc_task(title="Seen"))
    await service.upsert_task("default", mc_task(title="Saved meanwhile"))
    old = await service.get_task_version("default", "mc-1", 1)
    with pytest.raises(VersionConflict):
        await restore_version(service, old, current_version=2)
    assert (await service.get_task("default", "mc-1")).definition.title == "Saved meanwhile"


async def test_a_deleted_task_takes_its_history_along(service: Service) -> None:
    await service.upsert_task("default", mc_task(title="Old life"))
    await service.upsert_task("default", mc_task(title="Old life, changed"))
    await service.delete_task("default", "mc-1")
    with pytest.raises(NotFound):
        await service.list_task_versions("default", "mc-1")
    await service.upsert_task("default", mc_task(title="New life"))
    assert [(v.version, v.title) for v in await service.list_task_versions("default", "mc-1")] == [
        (1, "New life")
    ]


async def test_unknown_versions_and_foreign_tenants(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    with pytest.raises(NotFound):
        await service.get_task_version("default", "mc-1", 2)
    with pytest.raises(NotFound):
        await service.get_task_version("default", "no-such-task", 1)
    with pytest.raises(MissingPermissions):
        await service.list_task_versions("elsewhere", "mc-1")
    with pytest.raises(MissingPermissions):
        await service.get_task_version("elsewhere", "mc-1", 1)
