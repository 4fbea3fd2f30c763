"""Learners on phones (issue 46, item 9): a page that lost its connection is kept for half a
minute with a patient heartbeat, and what a learner typed survives even a reload of the page,
which is what NiceGUI does when a page comes back too late."""

from __future__ import annotations

import pytest
from nicegui import app, core

from webui.main import RECONNECT_SECONDS

pytestmark = pytest.mark.browser

TASK = "ff-bulb-circuit-en"


def test_pages_wait_for_a_phone_longer_than_nicegui_does(web_server) -> None:
    assert app.config.reconnect_timeout == RECONNECT_SECONDS >= 20  # NiceGUI's default: 3 s
    assert core.sio.eio.ping_timeout >= 10  # a pong may take 10 s (was 2 s)


def test_what_a_learner_typed_survives_a_reload_and_is_sent(page, web_server) -> None:
    page.goto(f"/learn/default/{TASK}")
    answer = page.get_by_label("Answer")
    answer.fill("The circuit must be closed so that the current flows through the filament.")
    question = page.get_by_label("Message to the tutor")
    question.fill("Why does the filament glow?")
    page.wait_for_timeout(1200)  # kept twice a second

    page.reload()  # as NiceGUI reloads a page that was away past the reconnect time

    page.get_by_label("Answer").wait_for()
    page.wait_for_function(
        "() => [...document.querySelectorAll('textarea, input')].some(f => f.value.startsWith('The circuit must'))"
    )
    assert page.get_by_label("Answer").input_value().startswith("The circuit must be closed")
    assert page.get_by_label("Message to the tutor").input_value() == "Why does the filament glow?"
    page.get_by_role("button", name="Get feedback").click()  # the server has the answer put back
    page.get_by_text("Rate this feedback").wait_for()
    page.get_by_label("Message to the tutor").press("Enter")
    page.get_by_role("button", name="Good reply").wait_for()  # the question, too
    assert page.get_by_label("Message to the tutor").input_value() == ""
