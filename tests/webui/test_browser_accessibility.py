"""An axe audit of every page of the web app in Chromium, in light and dark mode: WCAG AA contrast
of every text and chip in the colours Chromium renders, a name on every control (a name of its own,
not its placeholder or the value it shows), and a focus ring that shows (issue 46, item 8).

Each page is audited in the states that bring colours and controls of their own: feedback with
its verdict, aspect chips and rating; the history's badges; the editor's lists; a chat with the
learner's own bubble. Screenshots of every state go to test-artifacts/webui/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.webui.accessibility import audit, focus_ring
from tests.webui.conftest import ARTIFACTS, WebServer
from webui.login import login_page

pytestmark = pytest.mark.browser

TASK = "ff-bulb-circuit-en"
GAPS_TASK = "blanks-water-cycle-en"  # 3 of 4 gaps right: PARTIAL
ANSWER = "The bulb glows because the battery uses up the current. The circuit is closed."


@pytest.fixture(params=["light", "dark"])
def mode_page(request: pytest.FixtureRequest, browser: Any, web_server: WebServer) -> Iterator[Any]:
    """A laptop-sized tab whose system colour scheme is light or dark: the pages follow it."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 860}, base_url=web_server.base_url, color_scheme=request.param
    )
    context.set_default_timeout(20_000)
    tab = context.new_page()
    tab.mode = request.param
    yield tab
    context.close()


class Audit:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.found: list[str] = []

    def __call__(self, state: str) -> None:
        self.found += audit(self.page, f"{self.page.mode} {state}")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"a11y-{self.page.mode}-{state}.png"), full_page=True)


def test_the_library_and_the_task_pages_pass_the_audit(mode_page) -> None:
    page, check = mode_page, Audit(mode_page)
    page.goto("/")
    page.get_by_text("Making a bulb light up").wait_for()
    check("library")

    page.goto(f"/tasks/default/{TASK}")
    page.get_by_label("Answer").fill(ANSWER)
    page.get_by_role("button", name="Get feedback").click()
    page.get_by_text("Rate this feedback").wait_for()  # a verdict, aspect chips, the rating
    check("task-try")
    for tab, shown in (
        ("History", "Verdicts over time"),
        ("Edit", "Save task"),
        ("Retest", None),
        ("Test answers", None),
        ("Versions", None),
    ):
        page.get_by_role("tab", name=tab).click()
        if shown:
            page.get_by_text(shown).first.wait_for()
        page.wait_for_timeout(1000)  # what the tab reads when first opened
        check(f"task-{tab.lower().replace(' ', '-')}")

    # a PARTIAL verdict (amber) in the feedback and in the history
    page.goto(f"/tasks/default/{GAPS_TASK}")
    for number, answer in {1: "evaporates", 2: "smoke", 3: "rain", 4: "100"}.items():
        page.get_by_role("textbox", name=f"gap {number}").fill(answer)
    page.get_by_role("button", name="Get feedback").click()
    page.get_by_text("3 / 4 points").wait_for()
    check("task-try-partial")
    page.get_by_role("tab", name="History").click()
    page.get_by_text("Verdicts over time").wait_for()
    page.wait_for_timeout(1000)
    check("task-history-partial")

    assert check.found == [], "\n".join(check.found)


def test_the_other_pages_pass_the_audit(mode_page) -> None:
    page, check = mode_page, Audit(mode_page)
    page.goto("/new/FREEFORM_TEXT")
    page.get_by_role("button", name="Save task").wait_for()
    check("new-task")

    page.goto("/tutor")
    page.get_by_placeholder("Ask the tutor…").fill("Why does my bulb stay dark?")
    page.get_by_placeholder("Ask the tutor…").press("Enter")
    page.get_by_role("button", name="Good reply").wait_for()  # the reply has streamed in
    check("tutor")

    page.goto("/simulation")
    page.get_by_role("button", name="Start session").wait_for()
    check("simulation")
    page.goto("/settings")
    page.get_by_text("Connection").first.wait_for()
    check("settings")

    page.goto(f"/learn/default/{TASK}")
    page.get_by_label("Answer").fill(ANSWER)
    page.get_by_role("button", name="Get feedback").click()
    page.get_by_text("Rate this feedback").wait_for()
    page.get_by_label("Message to the tutor").fill("Is one wire enough?")
    page.get_by_label("Message to the tutor").press("Enter")
    page.get_by_text("Is one wire enough?").wait_for()
    page.get_by_role("button", name="Good reply").wait_for()  # the reply has streamed in
    check("learner")

    page.goto("/no-such-page")
    page.get_by_text("404").first.wait_for()
    check("not-found")

    # the door's login page, as it answers a wrong token
    page.set_content(login_page(wrong=True, action="/").body.decode())
    check("login")

    assert check.found == [], "\n".join(check.found)


def test_the_focus_ring_shows_on_filled_and_flat_buttons_and_links(mode_page) -> None:
    """Tabbing through the library: every control the keyboard reaches shows a ring, filled
    buttons ("New task") and the header's buttons included."""
    page = mode_page
    page.goto("/")
    page.get_by_text("Making a bulb light up").wait_for()
    reached, bare = [], []
    for _ in range(20):
        page.keyboard.press("Tab")
        ring = focus_ring(page)
        reached.append(ring["text"])
        field = ring["tag"] == "INPUT"  # a field shows its focus by its border, as Quasar draws it
        if not field and ring["shadow"] == "none" and (ring["style"] == "none" or ring["width"] < 2):
            bare.append(ring)
    assert {"Menu", "Dark mode"} <= set(reached) and any("New task" in text for text in reached), reached
    assert bare == []
