"""The Versions tab (issue 24, item 3): an edited task shows its versions side by side, and an old
version is restored as the newest."""

from __future__ import annotations

import pytest
from textual.widgets import Button, DataTable, Select, Static

from core.api import TaskAction
from tests.tui.helpers import notifications, open_task, wait_until
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.task import TaskScreen
from tui.widgets.empty import EmptyState
from tui.widgets.versions import VersionsPanel

TASK = "ff-bulb-circuit-en"


async def open_versions(pilot, screen: TaskScreen) -> VersionsPanel:
    panel = screen.query_one(VersionsPanel)
    await pilot.click("#--content-tab-versions-tab")
    await wait_until(pilot, lambda: panel.versions and panel.definitions and not panel.loading)
    await wait_until(pilot, lambda: not panel.query_one("#versions-diff-area").loading)
    return panel


def diff_text(panel: VersionsPanel) -> str:
    """The diff as the terminal shows it."""
    from rich.console import Console

    console = Console(width=110, record=True)
    console.print(panel.query_one("#versions-diff", Static).content)
    return console.export_text()


async def retitled(studio, title: str) -> None:
    stored = await studio.get_task("default", TASK)
    task = stored.definition.model_copy(update={"title": title})
    assert (await studio.upsert_task("default", task)).action is TaskAction.UPDATED


async def test_a_task_with_one_version_says_edits_will_be_listed(pilot):
    panel = await open_versions(pilot, await open_task(pilot, TASK))
    assert panel.query_one(DataTable).row_count == 1
    assert "only version" in diff_text(panel)
    assert panel.query_one("#versions-restore", Button).disabled


async def test_two_versions_side_by_side_and_the_old_one_restored(pilot, studio):
    original = (await studio.get_task("default", TASK)).definition.title
    await retitled(studio, "Bulbs and wires")
    app = pilot.app
    screen = await open_task(pilot, TASK)
    panel = await open_versions(pilot, screen)

    table = panel.query_one(DataTable)
    assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ["2", "1"]
    assert str(table.get_row_at(0)[2]) == "local user"
    shown = diff_text(panel)
    assert f"title: {original}" in shown and "title: Bulbs and wires" in shown
    assert panel.query_one(EmptyState).display is False

    await pilot.click("#versions-restore")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: app.screen is screen and screen.version == 3)
    assert screen.definition.title == original
    assert ("Version restored", "Version 1 is the task's newest version again.") in notifications(app)
    versions = await studio.list_task_versions("default", TASK)
    assert [v.title for v in versions] == [original, "Bulbs and wires", original]
    reopened = screen.query_one(VersionsPanel)  # the tabs are new: the task was read anew
    await wait_until(pilot, lambda: [v.version for v in reopened.versions] == [3, 2, 1])
    assert screen.query_one("#task-tabs").active == "versions-tab"


async def test_choosing_an_older_row_compares_it_with_the_newest(pilot, studio):
    await retitled(studio, "Second")
    await retitled(studio, "Third")
    panel = await open_versions(pilot, await open_task(pilot, TASK))
    assert panel.query_one("#versions-old", Select).value == 2
    table = panel.query_one(DataTable)
    table.focus()
    table.move_cursor(row=2)  # version 1
    await pilot.press("enter")
    await wait_until(pilot, lambda: panel.query_one("#versions-old", Select).value == 1)
    await wait_until(
        pilot, lambda: str(panel.query_one("#versions-restore", Button).label) == "Restore version 1"
    )
    assert "title: Second" not in diff_text(panel)
    assert "title: Third" in diff_text(panel)


@pytest.mark.journey
async def test_a_restore_on_top_of_an_unseen_save_is_refused(pilot, studio):
    await retitled(studio, "Seen")
    app = pilot.app
    screen = await open_task(pilot, TASK)
    panel = await open_versions(pilot, screen)
    await retitled(studio, "Saved elsewhere meanwhile")
    await pilot.click("#versions-restore")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: any("changed since you opened it" in m for _, m in notifications(app)))
    assert (await studio.get_task("default", TASK)).definition.title == "Saved elsewhere meanwhile"
    assert panel.versions[0].version == 2
