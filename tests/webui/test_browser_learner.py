"""End-to-end journey of the learner preview in Debian's Chromium (issue 24, item 4): from a
fill-in-the-blanks task's header to the task as a learner sees it, answered in the gaps inside the
text, with the feedback a learner reads (no sample solution, interaction id or author tools).
Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from tests.webui.browser_api import interactions
from tests.webui.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

TASK = "blanks-water-cycle-en"


def test_a_learner_preview_is_answered_in_its_gaps_and_shows_the_learners_feedback(page, web_server) -> None:
    page.goto(f"/tasks/default/{TASK}")
    page.get_by_role("button", name="Preview as learner").click()
    page.wait_for_url(f"**/learn/default/{TASK}")

    answers = {1: "evaporates", 2: "smoke", 3: "rain", 4: "100"}
    for number, answer in answers.items():
        page.get_by_role("textbox", name=f"gap {number}").fill(answer)
    form = page.locator(".q-card").first
    assert form.inner_text().startswith("The sun heats the sea and water")  # the gaps sit in the text
    page.get_by_role("button", name="Get feedback").click()

    page.get_by_text("3 / 4 points").wait_for()
    page.get_by_text("When vapour cools it turns back into tiny drops of liquid water").wait_for()
    page.get_by_text("Rate this feedback").wait_for()  # a learner rates it
    for author_only in ("interaction ", "Sample solution", "This should be", "Keep as test answer"):
        assert page.get_by_text(author_only).count() == 0, author_only
    assert page.get_by_role("tab").count() == 0  # no Edit, History … tabs
    page.screenshot(path=str(ARTIFACTS / "learner-preview-feedback.png"), full_page=True)

    [stored] = interactions(web_server, TASK)
    assert stored["userId"].startswith("learner-")  # not the author's own tries
    assert [blank["content"] for blank in stored["answer"]["blanks"]] == list(answers.values())
    assert stored["verdict"] == "PARTIAL"
