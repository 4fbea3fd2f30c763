"""End-to-end journeys in Debian's Chromium against the web app served by uvicorn: create a task
and answer it, chat while the reply streams in, run a simulation, retest after an edit.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import expect

from core.http import tls_context
from tests.conftest import create_token, free_port
from tests.webui.conftest import ARTIFACTS
from tests.webui.paced_llm import REPLY
from tests.webui.test_theme import contrast
from webui.theme import DARK_CARD

pytestmark = pytest.mark.browser


def test_create_a_task_answer_it_and_see_the_evidence_highlighted(page) -> None:
    page.goto("/")
    page.get_by_role("button", name="New task").click()
    page.locator(".q-menu").get_by_text("Free text").click()
    page.wait_for_url("**/new/FREEFORM_TEXT")
    page.get_by_label("Id").fill("ff-e2e-circuit")
    page.get_by_label("Title").fill("Why the bulb lights")
    page.get_by_label("Problem statement").fill("Explain why the bulb lights up.")
    # a new task opens on the example of its type: the author rewrites its sample solution and
    # turns its first aspect into the concept of this task
    page.get_by_label("Sample solution", exact=True).first.fill(  # not "Remove this sample solution"
        "The circuit is closed, so a current flows through the filament."
    )
    page.get_by_label("Name").first.fill("Closed circuit")
    cues = page.get_by_label("Cues: phrasings that show it").first
    cues.fill("closed circuit")
    cues.press("Enter")
    page.get_by_role("button", name="Save task").click()

    page.wait_for_url("**/tasks/default/ff-e2e-circuit")
    page.get_by_label("Answer").fill(
        "It lights up in a closed circuit: current flows & the <b>filament</b> glows."
    )
    page.get_by_role("button", name="Get feedback").click()

    marks = page.locator("mark.fs-mark")
    marks.first.wait_for()
    assert marks.all_inner_texts() == ["closed circuit"]
    assert "& the <b>filament</b> glows" in page.locator(".fs-answer").inner_text()  # shown as typed: escaped
    page.screenshot(path=str(ARTIFACTS / "freeform-feedback.png"), full_page=True)


def test_chat_with_the_tutor_and_watch_the_reply_stream_in_to_the_end(page) -> None:
    page.goto("/")
    page.locator(".q-drawer a", has_text="Tutor chat").click()
    page.wait_for_url("**/tutor")
    page.get_by_role("button", name="New tutor").click()
    page.get_by_label("Id", exact=True).fill("circuit-llm")
    page.get_by_label("Name").fill("Circuit coach (language model)")
    page.get_by_label("Engine").click()
    page.locator(".q-menu").get_by_text("Language model").click()
    page.get_by_label("Opening messages (one a line)").fill("Hello! Tell me what you see.")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/tutor?tutor=circuit-llm")
    chat = page.locator("[data-testid=chat]")
    chat.get_by_text("Hello! Tell me what you see.").wait_for()
    page.evaluate(
        """() => {
            window.__lengths = [];
            const chat = document.querySelector('[data-testid=chat]');
            new MutationObserver(() => window.__lengths.push(chat.innerText.length))
                .observe(chat, {subtree: true, childList: true, characterData: true});
        }"""
    )
    page.get_by_placeholder("Ask the tutor…").fill("Why does my bulb stay dark?")
    page.get_by_placeholder("Ask the tutor…").press("Enter")
    # While the reply streams, nothing that would cut it takes input: the message box, Send, Restart.
    chat.get_by_text("Good question!").wait_for()
    locked = [page.get_by_placeholder("Ask the tutor…"), page.get_by_role("button", name="Restart")]
    for element in locked:
        expect(element).to_be_disabled()
    page.get_by_role("button", name="Good reply").wait_for()  # TRACE: the stream has ended
    for element in locked:
        expect(element).to_be_enabled()

    first, second = (part.strip() for part in REPLY.split("\n\n"))
    bubbles = chat.locator(".q-message-text-content").all_inner_texts()
    assert [b.strip() for b in bubbles[-2:]] == [first, second]  # a blank line is a BOUNDARY: two bubbles
    lengths = page.evaluate("window.__lengths")
    # The first change is the learner's own message; every later one is the reply growing
    # (16 words, 60 ms apart): a reply sent whole would make one or two.
    reply_growth = set(lengths[1:])
    assert len(reply_growth) >= 5, f"the reply arrived in too few pieces: {lengths}"

    page.get_by_role("button", name="Good reply").click()
    page.get_by_text("Thanks: the rating of this reply is saved").wait_for()
    page.screenshot(path=str(ARTIFACTS / "tutor-chat.png"), full_page=True)


def test_run_a_simulation_and_get_feedback_on_the_conversation(page) -> None:
    page.goto("/simulation?task=sim-customer-objections-en")
    page.get_by_role("button", name="Start session").click()
    message = page.get_by_placeholder(re.compile("^Answer "))
    message.fill("I understand the price worries you. What matters most for your shop?")
    message.press("Enter")
    page.get_by_role("button", name="Good reply").wait_for()
    page.get_by_role("button", name="Finish and get feedback").click()
    page.get_by_text("Feedback on the conversation").wait_for()
    page.locator(".fs-answer").wait_for()
    page.screenshot(path=str(ARTIFACTS / "simulation-feedback.png"), full_page=True)


def test_the_library_fits_a_phone_in_dark_mode(browser, web_server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=web_server.base_url)
    phone = context.new_page()
    phone.goto("/")
    phone.locator("[data-testid=library]").wait_for()
    phone.get_by_role("button", name="Dark mode").click()
    phone.locator("body.body--dark").wait_for()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    # What the user reads: a task title and a language badge, in the colours the browser computed.
    for selector in ("[data-testid=library] a.text-primary", "[data-testid=library] .text-secondary"):
        color = phone.locator(selector).first.evaluate("e => getComputedStyle(e).color")
        assert contrast(rgb_hex(color), DARK_CARD) >= 4.5, f"{selector} is {color} on {DARK_CARD}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "library-phone-dark.png"), full_page=True)
    context.close()


def rgb_hex(css: str) -> str:
    """'rgb(165, 180, 252)' as '#a5b4fc'."""
    return "#" + "".join(f"{int(c):02x}" for c in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


def federal_city(correct: int, bern_aspect: str) -> dict:
    cities = {"Bern": bern_aspect, "Zurich": "Picks the biggest city", "Geneva": "Picks the UN city"}
    return {
        "id": "mc-federal-city",
        "type": "MULTIPLE_CHOICE",
        "title": "Federal city",
        "problemStatement": "Which city is the federal city of Switzerland?",
        "options": [
            {"content": city, "correct": i == correct, "aspects": [{"name": aspect}]}
            for i, (city, aspect) in enumerate(cities.items())
        ],
    }


def test_the_retest_shows_what_an_edit_changed_in_light_and_dark(page, web_server) -> None:
    """Answers and test answers go in through the API; the edit moves the correct option and
    renames an aspect, so the table shows flipped verdicts, points, aspects and failures."""
    with ThreadPoolExecutor(1) as thread:  # the test runs inside Playwright's event loop
        token = thread.submit(asyncio.run, create_token(web_server.settings.database_url, "default")).result()
    with httpx.Client(
        verify=tls_context(), base_url=web_server.base_url, headers={"Authorization": f"Bearer {token}"}
    ) as api:
        api.post("/tenants/default/tasks", json=federal_city(0, "Knows the federal city")).raise_for_status()
        tests = [
            {"label": "bern", "answer": {"selectedIndex": 0}, "expected": {"verdict": "CORRECT"}},
            {"label": "geneva", "answer": {"selectedIndex": 2}, "expected": {"verdict": "WRONG"}},
        ]
        api.put("/tenants/default/tasks/mc-federal-city/test-answers", json={"answers": tests})
        for index in (0, 1, 0, 2):
            answer = {"userId": "learner", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": index}}
            api.post("/tasks/mc-federal-city/feedback/compute", json=answer).raise_for_status()
        api.post("/tenants/default/tasks", json=federal_city(1, "Thinks Bern is the capital"))
        untried = federal_city(0, "Knows the federal city") | {"id": "mc-untried", "title": "Untried"}
        api.post("/tenants/default/tasks", json=untried).raise_for_status()

    page.goto("/tasks/default/mc-federal-city")
    page.get_by_role("tab", name="Retest").click()
    page.get_by_text("expected CORRECT, got WRONG").wait_for()
    # Zurich's flip; the earlier Bern and Geneva are the test answers' rows
    assert page.get_by_role("button", name=re.compile(r"Accept new feedback \(1\)")).is_enabled()
    settled_screenshot(page, "retest-light.png")
    page.get_by_role("button", name="Dark mode").click()
    page.locator("body.body--dark").wait_for()
    settled_screenshot(page, "retest-dark.png")

    page.goto("/tasks/default/mc-untried")
    page.get_by_role("tab", name="Retest").click()
    page.get_by_text("Nothing to retest yet").wait_for()
    settled_screenshot(page, "retest-empty-dark.png")


def settled_screenshot(page, name: str) -> None:
    """A screenshot without the pointer's hover and tooltip, once the tab indicator has slid home."""
    page.mouse.move(0, 600)
    page.wait_for_function(
        "() => ['', 'none'].includes(document.querySelector('.q-tab--active .q-tab__indicator').style.transform)"
    )
    page.screenshot(path=str(ARTIFACTS / name), full_page=True, animations="disabled")


def test_leaving_the_editor_with_unsaved_edits_asks_first(page) -> None:
    page.goto("/tasks/default/mc-photosynthesis-en")
    page.get_by_role("tab", name="Edit").click()
    page.get_by_label("Title").fill("An edit nobody saved")
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer)
    page.evaluate("window.location.assign('/')")  # as a link to the library does
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]
    assert page.get_by_label("Title").input_value() == "An edit nobody saved"  # still there

    page.get_by_role("button", name="Save task").click()
    page.get_by_text("mc-photosynthesis-en · version 2").wait_for()  # saved; the page shows the new version
    page.get_by_text("Task updated").wait_for()  # and says so, though the save reloaded the page
    page.evaluate("window.location.assign('/')")
    page.wait_for_url(re.compile(r"/$"))
    assert asked == ["beforeunload"]  # saved: leaving asks nothing


def test_ctrl_enter_in_a_free_text_answer_gets_the_feedback(page) -> None:
    page.goto("/tasks/default/ff-bulb-circuit-en")
    answer = page.get_by_label("Answer")
    answer.fill("The circuit must be closed so that the current flows through the filament.")
    answer.press("Control+Enter")
    page.get_by_text("Detected aspects").wait_for()  # the feedback is there, without the button


@contextmanager
def api(web_server) -> Iterator[httpx.Client]:
    """The web server's own API, to read what is stored (the test runs inside Playwright's loop)."""
    with ThreadPoolExecutor(1) as thread:
        token = thread.submit(asyncio.run, create_token(web_server.settings.database_url, "default")).result()
    with httpx.Client(
        verify=tls_context(), base_url=web_server.base_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        yield client


def stored(client: httpx.Client, task_id: str) -> dict:
    response = client.get(f"/tenants/default/tasks/{task_id}")
    response.raise_for_status()
    return response.json()


def test_an_id_clash_on_new_duplicate_or_edit_replaces_nothing(page, web_server) -> None:
    with api(web_server) as client:
        before = stored(client, "blanks-water-cycle-en")

        page.goto("/new/FREEFORM_TEXT")  # a new task under a taken id
        page.get_by_label("Id", exact=True).fill("blanks-water-cycle-en")
        page.get_by_label("Problem statement").fill("Explain the water cycle.")
        page.get_by_role("button", name="Save task").click()
        page.get_by_text("already exists").first.wait_for()
        assert stored(client, "blanks-water-cycle-en") == before

        page.goto("/")  # a copy under a taken id
        page.locator("[data-testid=library]").wait_for()
        page.get_by_role("button", name="Duplicate").first.click()
        page.get_by_label("Id of the copy").fill("blanks-water-cycle-en")
        page.get_by_role("button", name="Create copy").click()
        page.get_by_text("already exists").first.wait_for()
        assert stored(client, "blanks-water-cycle-en") == before

        page.goto("/tasks/default/mc-photosynthesis-en")  # the editor of a stored task renames nothing
        page.get_by_role("tab", name="Edit").click()
        expect(page.get_by_label("Id", exact=True)).not_to_be_editable()  # a copy takes a new id


def test_a_double_click_sends_once(page, web_server) -> None:
    with api(web_server) as client:
        tried = len(client.get("/tenants/default/tasks/ff-bulb-circuit-en/interactions").json())
        page.goto("/tasks/default/ff-bulb-circuit-en")
        page.get_by_label("Answer").fill("The circuit is closed, so a current flows.")
        page.get_by_role("button", name="Get feedback").dblclick()
        page.get_by_text("Detected aspects").wait_for()
        page.wait_for_timeout(500)  # a second interaction would be on its way by now
        assert len(client.get("/tenants/default/tasks/ff-bulb-circuit-en/interactions").json()) == tried + 1

        page.goto("/")
        page.locator("[data-testid=library]").wait_for()
        page.locator("[data-testid=library] .q-card").filter(has_text="ff-bulb-circuit-en").get_by_role(
            "button", name="Duplicate"
        ).click()
        page.get_by_label("Id of the copy").fill("ff-bulb-circuit-twice")
        page.get_by_role("button", name="Create copy").dblclick()
        page.get_by_text("Duplicated as ff-bulb-circuit-twice").wait_for()
        page.wait_for_timeout(500)
        assert not page.get_by_text("already exists").count()  # no second copy tried, no error
        ids = [t["taskId"] for t in client.get("/tenants/default/tasks").json()]
        assert ids.count("ff-bulb-circuit-twice") == 1


def test_a_remote_that_is_down_is_reported_within_5_s_and_not_saved(page) -> None:
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    page.goto("/settings")
    page.get_by_text("Remote service of the API").click()
    page.get_by_label("Base URL").fill(down)
    started = time.monotonic()
    page.get_by_role("button", name="Save and check").click()
    page.get_by_text("Not saved:").wait_for(timeout=5_000)
    assert time.monotonic() - started < 5
    assert page.get_by_text("Connected to").count() == 0
    page.goto("/")  # the library still comes from the embedded service
    page.get_by_text("The water cycle").wait_for()
