"""End-to-end journey of the web app's language in Debian's Chromium (issue 24, item 1): German is
chosen in Settings, the library and a task page then speak it and write numbers and dates its way,
and English comes back the same way. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.webui.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

GERMAN_DATE = re.compile(r"\d\d\.\d\d\.\d\d, \d\d:\d\d · ")
"""Babel's short German date and time, "25.11.26, 14:03" (English writes "11/25/26, 2:03 PM")."""


def choose_language(page, current: str, chosen: str) -> None:
    page.goto("/settings")
    page.get_by_label(current).click()
    page.get_by_role("option", name=chosen).click()
    page.wait_for_load_state()  # the choice reloads the page in the new language


def test_german_is_chosen_in_settings_and_the_pages_speak_and_write_it(page, browser, web_server) -> None:
    choose_language(page, "Language", "Deutsch")
    page.get_by_text("Darstellung").wait_for()  # Settings itself, at once
    other = browser.new_context(base_url=web_server.base_url)  # the choice is this browser's alone
    try:
        elsewhere = other.new_page()
        elsewhere.goto("/")
        elsewhere.get_by_role("button", name="New task").wait_for()
    finally:
        other.close()

    page.goto("/")
    page.get_by_role("button", name="Neue Aufgabe").wait_for()
    page.get_by_placeholder("Nach Titel oder Kennung filtern").wait_for()

    page.goto("/tasks/default/ff-bulb-circuit-en")
    page.get_by_text(
        "On the table lie a bulb, a battery and two wires."
    ).wait_for()  # the task stays as written
    page.get_by_label("Antwort").fill("The circuit must be closed.")
    page.get_by_role("button", name="Feedback erhalten").click()
    points = page.get_by_text(re.compile(r" Punkte$"))
    points.wait_for()
    assert points.inner_text() == "0,5 / 1 Punkte"  # a decimal comma
    page.get_by_role("tab", name="Verlauf").click()
    row = page.locator(".q-item", has_text="The circuit must be closed.")
    row.wait_for()
    assert GERMAN_DATE.search(row.inner_text()) and "Fassung 1" in row.inner_text()
    page.wait_for_timeout(1200)  # the charts' bars grow in
    page.screenshot(path=str(ARTIFACTS / "language-german-history.png"), full_page=True)

    page.goto("/")
    card = page.locator(".q-card", has_text="ff-bulb-circuit-en")
    assert "1 Antwort" in card.inner_text()  # the answer just given, counted in German

    choose_language(page, "Sprache", "English")
    page.get_by_text("Appearance").wait_for()
    page.goto("/")
    page.get_by_role("button", name="New task").wait_for()
