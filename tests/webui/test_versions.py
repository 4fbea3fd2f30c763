"""Journeys of the Versions tab (issue 24, item 3): two versions of a task side by side, another
one picked for the left, and an old version restored as the newest."""

from __future__ import annotations

import pytest
from nicegui import ui
from nicegui.testing import User

from core.api import MultipleChoiceTask, TaskAction
from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW, count

TASK = "mc-photosynthesis-en"


@pytest.fixture
def service() -> LocalService:
    return LocalService(harness.runtime, local_principal("default"))


async def retitled(service: LocalService, title: str) -> MultipleChoiceTask:
    task = (await service.get_task("default", TASK)).definition.model_copy(update={"title": title})
    assert (await service.upsert_task("default", task)).action is TaskAction.UPDATED
    return task


def cells(user: User, marker: str) -> list[str]:
    """The texts of the element with the marker, in order."""
    [element] = user.find(marker=marker).elements
    return [label.text for label in element.descendants() if isinstance(label, ui.label)]


async def test_a_task_of_one_version_says_what_will_be_listed(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}")
    user.find("Versions").click()
    await user.should_see("This is the only version", retries=SLOW)
    assert cells(user, "version-1")[2] == "demo"
    await user.should_not_see(marker="restore")


async def test_two_versions_side_by_side_and_the_old_one_restored(user: User, service: LocalService) -> None:
    original = (await service.get_task("default", TASK)).definition.title
    await retitled(service, "Gases of a leaf")
    await user.open(f"/tasks/default/{TASK}")
    user.find("Versions").click()
    await user.should_see("Version 1 (left) compared with version 2 (right)", retries=SLOW)
    assert cells(user, "version-2")[2] == "local user"
    assert cells(user, "diff-changed") == [
        f"title: '{original}'",
        "title: Gases of a leaf",
    ]  # YAML quotes ": "

    user.find(marker="restore").click()
    with user.scope(marker="dialog"):
        await user.should_see("It is saved as version 3; no version is lost.")
        user.find(kind=ui.button, content="Restore").click()
    await user.should_see("Version 2 (left) compared with version 3 (right)", retries=SLOW)  # reopened here
    await user.should_see(f"{TASK} · version 3")
    await user.should_see("Version 1 is the task's newest version again.")
    assert [v.title for v in await service.list_task_versions("default", TASK)] == [
        original,
        "Gases of a leaf",
        original,
    ]


async def test_compare_puts_an_older_version_on_the_left(user: User, service: LocalService) -> None:
    await retitled(service, "Second")
    await retitled(service, "Third")
    await user.open(f"/tasks/default/{TASK}")
    user.find("Versions").click()
    await user.should_see("Version 2 (left) compared with version 3 (right)", retries=SLOW)
    user.find(marker="compare-1").click()
    await user.should_see("Version 1 (left) compared with version 3 (right)", retries=SLOW)
    assert count(user, "compare-3") == 0  # the newest is always on the right


async def test_a_restore_on_top_of_an_unseen_save_is_refused(user: User, service: LocalService) -> None:
    await retitled(service, "Seen")
    await user.open(f"/tasks/default/{TASK}")
    user.find("Versions").click()
    await user.should_see("Version 1 (left) compared with version 2 (right)", retries=SLOW)
    await retitled(service, "Saved elsewhere meanwhile")
    user.find(marker="restore").click()
    with user.scope(marker="dialog"):
        user.find(kind=ui.button, content="Restore").click()
    await user.should_see("changed since you opened it", retries=SLOW)
    assert (await service.get_task("default", TASK)).definition.title == "Saved elsewhere meanwhile"
