"""End-to-end journey of the Versions tab in Debian's Chromium (issue 24, item 3): edit a task,
compare the two versions side by side, restore the first as the newest. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import pytest

from tests.webui.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_edit_a_task_compare_its_versions_and_restore_the_first(page) -> None:
    page.goto("/tasks/default/mc-photosynthesis-en")
    page.get_by_role("tab", name="Edit").click()
    title = page.get_by_label("Title")
    before = title.input_value()
    title.fill("Gases of a leaf")
    page.get_by_role("button", name="Save task").click()
    page.get_by_text("mc-photosynthesis-en · version 2").wait_for()

    page.get_by_role("tab", name="Versions").click()
    page.get_by_text("Version 1 (left) compared with version 2 (right)").wait_for()
    changed = page.locator("td.fs-diff-changed")
    assert changed.all_inner_texts() == [f"title: '{before}'", "title: Gases of a leaf"]
    assert page.locator("td", has_text="local user").count() == 1  # the edit's author; the demo's is "demo"
    page.screenshot(path=str(ARTIFACTS / "versions-diff.png"), full_page=True)

    page.get_by_role("button", name="Restore version 1").click()
    page.get_by_text("It is saved as version 3; no version is lost.").wait_for()
    page.get_by_role("button", name="Restore", exact=True).click()
    page.get_by_text("mc-photosynthesis-en · version 3").wait_for()
    page.get_by_text("Version 1 is the task's newest version again.").wait_for()
    page.get_by_text("Version 2 (left) compared with version 3 (right)").wait_for()  # still on the tab
    assert page.locator(".text-xl", has_text=before).count() == 1  # the header shows the restored title
