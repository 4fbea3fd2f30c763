"""End-to-end journey of a task's history in Debian's Chromium (issue 24, item 5): the answers
filtered by verdict (a teacher's verdict counting in place of the engine's) and by learner, then
exported as CSV, whose rows are the filtered ones and carry the teacher's verdict in its own
columns. Answers and the teacher's verdict go in through the API. Screenshots go to test-artifacts/."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.webui.browser_api import api_client
from tests.webui.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

TASK = "mc-photosynthesis-en"
ANSWERS = [("ada", 1), ("ada", 0), ("ben", 2)]
"""(learner, option): Carbon dioxide is CORRECT, Oxygen and Nitrogen are WRONG."""


def give_answers(web_server) -> str:
    """The answers, and a teacher's PARTIAL on ada's Oxygen; returns that interaction's id."""
    with api_client(web_server) as api:
        ids = []
        for learner, option in ANSWERS:
            answer = {"userId": learner, "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": option}}
            response = api.post(f"/tasks/{TASK}/feedback/compute", json=answer)
            response.raise_for_status()
            ids.append(response.json()["metaData"]["interactionId"])
        note = {"verdict": "PARTIAL", "note": "a gas of photosynthesis, half right"}
        api.put(f"/interactions/{ids[1]}/verdict-override", json=note).raise_for_status()
        return ids[1]


def choose_verdicts(page, *verdicts: str) -> None:
    page.get_by_label("Verdicts").click()
    for verdict in verdicts:
        page.get_by_role("option", name=verdict).click()
    page.keyboard.press("Escape")


def test_the_history_is_filtered_by_verdict_and_learner_and_exported_as_csv(page, web_server) -> None:
    overridden = give_answers(web_server)
    page.goto(f"/tasks/default/{TASK}?tab=History")
    page.get_by_text("Answers (3)").wait_for()

    choose_verdicts(page, "WRONG")  # ada's Oxygen is PARTIAL now: the teacher's verdict counts
    page.get_by_text("Answers (1 of 3)").wait_for()
    assert page.locator(".q-item", has_text="Nitrogen").count() == 1

    page.get_by_label("Learner").fill("ada")
    page.get_by_text("No answer matches").wait_for()
    page.get_by_text("Clear a filter to see more answers.").wait_for()

    choose_verdicts(page, "PARTIAL")  # WRONG and PARTIAL, by ada
    page.get_by_text("Answers (1 of 3)").wait_for()
    rows = page.locator(".q-tab-panel .q-list .q-item")
    assert rows.count() == 1 and "Oxygen" in rows.inner_text()
    page.mouse.move(0, 600)
    page.wait_for_timeout(1200)  # the charts' bars grow in
    page.screenshot(path=str(ARTIFACTS / "history-filtered.png"), full_page=True)

    with page.expect_download() as download:
        page.get_by_role("button", name="Export CSV").click()
    assert download.value.suggested_filename == f"{TASK}-history.csv"
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")  # with Excel's byte-order mark
    exported = list(csv.DictReader(io.StringIO(text)))
    assert [(row["interactionId"], row["userId"], row["verdict"]) for row in exported] == [
        (overridden, "ada", "WRONG")  # the engine's verdict stays in its column
    ]
    [row] = exported
    assert (row["teacherVerdict"], row["teacherNote"], row["teacherName"]) == (
        "PARTIAL",
        "a gas of photosynthesis, half right",
        "test",
    )
    assert row["teacherAt"]
