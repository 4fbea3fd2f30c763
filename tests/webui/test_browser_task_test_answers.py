"""End-to-end journey of gold answers, the teacher's verdict and the Test answers tab in Debian's
Chromium (issue 24, item 2): keep a judged answer as a test answer, override its verdict in the
history, then edit and delete the test answer. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from tests.webui.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_keep_override_edit_and_delete_a_test_answer(page) -> None:
    page.goto("/tasks/default/mc-photosynthesis-en")
    page.get_by_role("radio", name="Oxygen").click()
    page.get_by_role("button", name="Get feedback").click()
    page.get_by_text("Oxygen is what plants give off during photosynthesis").wait_for()
    page.get_by_role("button", name="PARTIAL").click()
    page.get_by_role("button", name="Keep as test answer").click()
    page.get_by_text("expecting PARTIAL; the engine says WRONG").wait_for()

    page.get_by_role("tab", name="History").click()
    page.get_by_text("Answers (1)").wait_for()
    page.locator(".q-item", has_text="Oxygen").first.click()
    dialog = page.locator(".q-dialog")
    dialog.get_by_text("No teacher's verdict").wait_for()
    dialog.get_by_role("button", name="CORRECT").first.click()  # the teacher's (the gold bar's is below)
    dialog.get_by_label("Why (optional)").fill("a gas of photosynthesis after all")
    dialog.get_by_role("button", name="Set the teacher's verdict").click()
    dialog.get_by_text("by local user on").wait_for()
    dialog.get_by_text("“a gas of photosynthesis after all”").wait_for()
    page.screenshot(path=str(ARTIFACTS / "teacher-verdict.png"), full_page=True)
    dialog.get_by_role("button", name="Close").click()
    page.get_by_text("The teacher's verdict").first.wait_for(state="detached")
    assert page.locator(".q-item .q-badge", has_text="CORRECT").count() == 1  # the teacher's, on its row

    page.get_by_role("tab", name="Test answers").click()
    page.get_by_role("button", name="Edit").click()
    dialog.get_by_label("Label").fill("oxygen")
    dialog.get_by_label("It must get").click()
    page.get_by_role("option", name="WRONG").click()
    dialog.get_by_role("button", name="Save").click()
    page.get_by_text("Test answer “oxygen” saved.").wait_for()
    page.screenshot(path=str(ARTIFACTS / "test-answers.png"), full_page=True)

    page.get_by_role("button", name="Delete").click()
    page.get_by_text("Delete the test answer “oxygen”?").wait_for()
    page.locator(".q-dialog").get_by_role("button", name="Delete").click()
    page.get_by_text("No test answers yet").wait_for()
