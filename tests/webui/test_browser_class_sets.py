"""The class-set journey in Debian's Chromium (issue 44): import a class's answers on the task's
Class sets tab, grade five from the review order with the keys C, P and W, export the CSV, reload
the page (the set is read again from the store), audit it and delete it; in light and dark mode,
and once against a remote service. Screenshots go to test-artifacts/webui/."""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.assets import demo_tasks
from tests.contract.builders import CLASS_ANSWERS
from tests.webui.accessibility import audit
from tests.webui.conftest import ARTIFACTS, WebServer

pytestmark = pytest.mark.browser

TASK = "ff-bulb-circuit-en"
ANSWERS = CLASS_ANSWERS
KEYS = "wcpwc"


@pytest.fixture(params=["light", "dark"])
def mode_page(request: pytest.FixtureRequest, browser: Any, web_server: WebServer) -> Iterator[Any]:
    """A laptop-sized tab whose system colour scheme is light or dark: the pages follow it."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 860}, base_url=web_server.base_url, color_scheme=request.param
    )
    context.set_default_timeout(30_000)
    tab = context.new_page()
    tab.mode = request.param
    yield tab
    context.close()


def class_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["student", "answer"])
    writer.writerows([f"s{i}", a] for i, a in enumerate(ANSWERS))
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def settled(page: Any) -> None:
    """No notification on its way in or out: one measured in the middle of its fade has the page
    behind it showing through (4.4:1, even 1.0:1), which no reader ever sees for long."""
    page.locator(".q-notification").first.wait_for(state="detached", timeout=20_000)


def journey(page: Any, tmp_path: Path, label: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"/tasks/default/{TASK}?tab=Class%20sets")
    page.get_by_text("Import a class's answers").wait_for()
    page.locator(".q-uploader input[type=file]").set_input_files(str(class_file(tmp_path, f"{label}.csv")))
    page.get_by_text(f"{label}.csv: 10 answers · 1 repeat an earlier answer").wait_for()
    expect(page.get_by_label("Name of the set")).to_have_value(label)
    page.screenshot(path=str(ARTIFACTS / f"class-set-{label}-import.png"), full_page=True)
    found = audit(page, f"{label} import")
    page.get_by_role("button", name="Import and judge").click()
    page.get_by_text("10 answers · 10 judged · 0 graded by you").wait_for()
    page.get_by_text("alike answers").first.wait_for()  # grouped: the twins together
    page.locator(".q-expansion-item").filter(has_text="The bulb is magic.").first.click()  # its feedback
    page.get_by_text("Your grade:").wait_for()
    page.screenshot(path=str(ARTIFACTS / f"class-set-{label}-grouped.png"), full_page=True)
    settled(page)
    found += audit(page, f"{label} grouped")

    page.get_by_role("button", name="Review order").click()
    card = page.get_by_role("group", name="Answer to grade: keys C correct, P partly, W wrong")
    expect(card).to_be_focused()  # the keys work at once
    left = card.get_by_text(re.compile(r"To review: \d+ left"))
    for n, key in enumerate(KEYS, 1):
        before = left.inner_text()
        page.keyboard.press(key)
        expect(left).not_to_have_text(before)  # the next answer in the review order came up
        page.get_by_text(f"{n} graded by you").wait_for()
        page.get_by_text(re.compile(r"verdicts? changed")).wait_for()
        page.wait_for_timeout(700)  # a later key is a new grade, not the second of a double press
    page.screenshot(path=str(ARTIFACTS / f"class-set-{label}-review.png"), full_page=True)
    settled(page)
    found += audit(page, f"{label} review")
    assert found == [], "\n".join(found)  # contrast and a name on every control, light and dark

    with page.expect_download() as download:
        page.get_by_role("button", name="Export CSV").click()
    assert download.value.suggested_filename == f"{label}.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig"))))
    assert [r["answer"] for r in rows] == ANSWERS
    assert sum(r["graded_by"] == "AUTHOR" for r in rows) >= 5

    page.reload()  # reopened: the set as stored, grades and all
    page.get_by_text("10 answers · 10 judged · 5 graded by you").wait_for()
    page.get_by_text("graded by you", exact=True).first.wait_for()


def delete_set(page: Any, label: str) -> None:
    page.get_by_role("button", name="Delete").click()
    page.get_by_text(f"Delete the class set “{label}”?").wait_for()
    page.locator(".q-dialog").get_by_role("button", name="Delete").click()
    page.get_by_text(f"Class set “{label}” deleted.").wait_for()


def test_import_grade_with_keys_export_and_reopen(mode_page: Any, tmp_path: Path) -> None:
    page, label = mode_page, f"class-{mode_page.mode}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    journey(page, tmp_path, label)
    page.screenshot(path=str(ARTIFACTS / f"class-set-{label}-reopened.png"), full_page=True)
    page.get_by_role("link", name="Class sets of “Making a bulb light up”").click()
    page.get_by_role("link", name=label).wait_for()  # the tab lists the set
    page.get_by_text("10 answers · 10 judged · 5 graded by you").first.wait_for()
    page.screenshot(path=str(ARTIFACTS / f"class-set-{label}-listed.png"), full_page=True)
    assert (found := audit(page, f"{label} listed")) == [], "\n".join(found)
    page.get_by_role("button", name=f"Delete the class set “{label}”").click()
    page.locator(".q-dialog").get_by_role("button", name="Delete").click()
    page.get_by_text(f"Class set “{label}” deleted.").wait_for()
    page.get_by_role("link", name=label).wait_for(state="detached")


def test_the_same_against_a_remote_service(page: Any, live_server: Any, tmp_path: Path) -> None:
    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        token = thread.submit(asyncio.run, live_server.token()).result()
    task = next(t for t in demo_tasks() if t["id"] == TASK)
    stored = httpx.post(
        f"{live_server.base_url}/tenants/default/tasks",
        json=task,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert stored.status_code == 200, stored.text
    page.goto("/settings")
    page.get_by_text("Remote service of the API").click()
    page.get_by_label("Base URL").fill(live_server.base_url)
    page.get_by_label("Bearer token").fill(token)
    page.get_by_role("button", name="Save and check").click()
    page.get_by_text(f"Service: OK ({live_server.base_url})").wait_for()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    journey(page, tmp_path, "class-remote")
    page.screenshot(path=str(ARTIFACTS / "class-set-class-remote-reopened.png"), full_page=True)
    delete_set(page, "class-remote")
    sets = httpx.get(
        f"{live_server.base_url}/tenants/default/class-sets", headers={"Authorization": f"Bearer {token}"}
    )
    assert sets.status_code == 200 and sets.json() == [], sets.text
