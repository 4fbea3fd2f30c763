"""Contract: task upsert, delete, the list and read extensions, and the alpha aspects call."""

from __future__ import annotations

import pytest

from core.api import (
    AspectsComputeRequest,
    AspectType,
    InvalidParameter,
    MissingPermissions,
    MultipleChoiceTask,
    NotFound,
    TaskAction,
    VersionConflict,
    WrongTaskType,
)
from core.service.base import Service
from tests.contract.builders import blanks_task, compute, mc_task

pytestmark = pytest.mark.contract


async def test_upsert_creates_then_updates_then_leaves_unchanged(service: Service) -> None:
    created = await service.upsert_task("default", mc_task())
    assert (created.taskId, created.tenantId, created.action) == ("mc-1", "default", TaskAction.CREATED)
    assert created.taskLink.endswith("/tasks/default/mc-1")
    assert (await service.upsert_task("default", mc_task(title="Other"))).action is TaskAction.UPDATED
    assert (await service.upsert_task("default", mc_task(title="Other"))).action is TaskAction.UNCHANGED


async def test_the_enum_spelling_of_the_type_is_the_same_task(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    enum_spelt = MultipleChoiceTask.model_validate({**mc_task().model_dump(), "type": "MULTIPLE_CHOICE"})
    assert (await service.upsert_task("default", enum_spelt)).action is TaskAction.UNCHANGED
    assert (await service.get_task("default", "mc-1")).definition.type == "MultipleChoiceTask"


async def test_a_type_change_is_refused_by_upsert_and_by_compute(service: Service) -> None:
    await service.upsert_task("default", mc_task("shared-id"))
    with pytest.raises(WrongTaskType):
        await service.upsert_task("default", blanks_task("shared-id"))
    with pytest.raises(WrongTaskType):
        await service.compute_feedback(compute(blanks_task("shared-id"), {"blanks": [{"content": "100"}]}))
    assert (await service.get_task("default", "shared-id")).definition.type == "MultipleChoiceTask"


async def test_an_invalid_task_is_refused(service: Service) -> None:
    no_correct_option = MultipleChoiceTask.model_validate(
        {"id": "mc-bad", "problemStatement": "?", "options": [{"content": "a"}, {"content": "b"}]}
    )
    with pytest.raises(InvalidParameter):
        await service.upsert_task("default", no_correct_option)


async def test_delete_removes_the_task_and_a_second_delete_is_not_found(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    deleted = await service.delete_task("default", "mc-1")
    assert (deleted.taskId, deleted.tenantId) == ("mc-1", "default")
    assert deleted.message
    with pytest.raises(NotFound):
        await service.delete_task("default", "mc-1")
    with pytest.raises(NotFound):
        await service.get_task("default", "mc-1")
    assert (await service.upsert_task("default", mc_task())).action is TaskAction.CREATED


async def test_writing_in_a_tenant_without_access_is_refused(service: Service) -> None:
    with pytest.raises(MissingPermissions):
        await service.upsert_task("elsewhere", mc_task())
    with pytest.raises(MissingPermissions):
        await service.delete_task("elsewhere", "mc-1")
    with pytest.raises(MissingPermissions):
        await service.list_tasks("elsewhere")


async def test_list_and_read_tasks(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    await service.upsert_task("default", blanks_task())
    await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    listing = {summary.taskId: summary for summary in await service.list_tasks("default")}
    assert set(listing) == {"mc-1", "blanks-1"}
    assert listing["mc-1"].type == "MultipleChoiceTask"
    assert listing["mc-1"].interactionCount == 1
    assert listing["blanks-1"].interactionCount == 0
    stored = await service.get_task("default", "blanks-1")
    assert stored.definition == blanks_task()
    assert (stored.tenantId, stored.version) == ("default", 1)


async def test_aspects_are_suggested_for_a_task(service: Service) -> None:
    aspects = await service.compute_aspects(
        AspectsComputeRequest(tenantId="default", taskDefinition=mc_task())
    )
    assert {aspect.type for aspect in aspects} == {AspectType.CONCEPT, AspectType.MISCONCEPTION}
    assert all(aspect.name for aspect in aspects)


async def test_aspects_in_a_tenant_without_access_are_refused(service: Service) -> None:
    with pytest.raises(MissingPermissions):
        await service.compute_aspects(AspectsComputeRequest(tenantId="elsewhere", taskDefinition=mc_task()))


async def test_an_editor_saves_only_on_top_of_the_version_it_opened(service: Service) -> None:
    """Two editors of one task: the second save is refused instead of undoing the first."""
    await service.upsert_task("default", mc_task())
    opened = (await service.get_task("default", "mc-1")).version
    first = await service.upsert_task("default", mc_task(title="First author"), expected_version=opened)
    assert first.action is TaskAction.UPDATED
    with pytest.raises(VersionConflict, match="changed since you opened it"):
        await service.upsert_task("default", mc_task(title="Second author"), expected_version=opened)
    assert (await service.get_task("default", "mc-1")).definition.title == "First author"
    saving_again = await service.upsert_task(
        "default", mc_task(title="First author"), expected_version=opened
    )
    assert saving_again.action is TaskAction.UNCHANGED  # what is stored already is never a conflict


async def test_a_new_task_never_replaces_one_with_its_id(service: Service) -> None:
    await service.upsert_task("default", mc_task(title="Kept"))
    with pytest.raises(VersionConflict, match="already exists"):
        await service.upsert_task("default", mc_task(title="New"), expected_version=0)
    assert (await service.get_task("default", "mc-1")).definition.title == "Kept"
    created = await service.upsert_task("default", mc_task("mc-2", title="New"), expected_version=0)
    assert created.action is TaskAction.CREATED
