"""Every page of the web app in German, French and Italian shows no English of its own: every
text, label, placeholder, hint, tooltip, accessible name and option on the page, and the
notifications, checked with tests/untranslated.py (a catalogue message left untranslated or
unmarked, NiceGUI's or pydantic's English).

The language is the app's default (FEEDBACK_STUDIO_UI_LANGUAGE), as a browser that chose none
gets it; Settings → Language changes it per browser (tests/webui/test_browser_language.py).
"""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable

import pytest
from nicegui import ui
from nicegui.testing import User

from core.client.i18n import translate
from tests.untranslated import demo_content, english_on_screen
from tests.webui.helpers import SLOW

LANGUAGES = ["de", "fr", "it"]
SHOWN_PROPS = (
    "aria-label",
    "hint",
    "title",
    "prefix",
    "suffix",
    "content",
    "innerHTML",
    "label",
    "placeholder",
)
ICON = re.compile(r"<(i|span)\b[^>]*(material|q-icon)[^>]*>[^<]*</\1>")
MC = "mc-photosynthesis-en"
FREEFORM = "ff-bulb-circuit-en"


@pytest.fixture
def language(request, monkeypatch) -> str:
    """The app's default language, set before the app starts (the `user` fixture starts it)."""
    monkeypatch.setenv("FEEDBACK_STUDIO_UI_LANGUAGE", request.param)
    return request.param


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def page_text(user: User) -> str:
    """What the page shows a reader: every visible element's text and shown properties (a
    label, a placeholder, an accessible name, a select's options), and the notifications."""
    lines: list[str] = []
    for element in user.current_layout.descendants():
        if not all(e.visible for e in (element, *element.ancestors())):
            continue
        if element._text:
            lines.append(str(element._text))
        for key in SHOWN_PROPS:
            for text in _texts(element._props.get(key)):
                text = ICON.sub(" ", text)  # an icon's ligature ("radio_button_checked") is no word
                lines.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
        if isinstance(element, ui.select | ui.toggle | ui.radio):
            lines.extend(_texts(element._props.get("options")))
    lines.extend(str(message) for message in user.notify.messages)
    return "\n".join(lines)


def assert_no_english(user: User, language: str, where: str) -> None:
    found = english_on_screen(page_text(user), language, demo_content())
    assert found == [], f"{where}: {found}\n{page_text(user)}"


async def _answered(user: User, language: str, task_id: str, answer: Callable[[User], object]) -> None:
    await user.open(f"/tasks/default/{task_id}")
    answer(user)
    user.find(translate(language, "Get feedback")).click()
    await user.should_see(marker="interaction-id", retries=SLOW)


def _choose_oxygen(user: User) -> None:
    user.find(ui.radio).elements.pop().value = 0


def _type_free_text(user: User) -> None:
    user.find(marker="answer").type("A single wire from the battery to the bulb is enough.")


PAGES: dict[str, Callable[[User, str], Awaitable[None]]] = {}


def page(name: str):
    def register(journey: Callable[[User, str], Awaitable[None]]):
        PAGES[name] = journey
        return journey

    return register


def opens(path: str, waits_for: str | None = None):
    async def journey(user: User, language: str) -> None:
        await user.open(path)
        if waits_for:
            await user.should_see(marker=waits_for, retries=SLOW)

    return journey


for name, path in {
    "library": "/",
    "settings": "/settings",
    "tutor": "/tutor",
    "simulation": "/simulation",
    "learner mode": "/learn",
    "learner's task": f"/learn/default/{MC}",
    "task": f"/tasks/default/{MC}",
    "task, history": f"/tasks/default/{MC}?tab=History",
    "task, retest": f"/tasks/default/{MC}?tab=Retest",
    "task, test answers": f"/tasks/default/{MC}?tab=Test answers",
    "task, versions": f"/tasks/default/{MC}?tab=Versions",
    "task, edit": f"/tasks/default/{FREEFORM}?tab=Edit",
    "free-text task, class sets": f"/tasks/default/{FREEFORM}?tab=Class sets",
    "simulation task": "/tasks/default/sim-customer-objections-en",
}.items():
    PAGES[name] = opens(path)

for type_name in (
    "FreeformTextTask",
    "InTextFillInBlanksTask",
    "InTextChoicesTask",
    "MultipleChoiceTask",
    "MultipleResponsesTask",
    "SimulationTask",
):
    PAGES[f"new task, {type_name}"] = opens(f"/new/{type_name}")


@page("multiple choice, feedback")
async def _mc_feedback(user: User, language: str) -> None:
    await _answered(user, language, MC, _choose_oxygen)


@page("free text, feedback")
async def _free_text_feedback(user: User, language: str) -> None:
    await _answered(user, language, FREEFORM, _type_free_text)


@page("new task with errors")
async def _new_task_with_errors(user: User, language: str) -> None:
    await user.open("/new/MultipleChoiceTask")
    user.find(kind=ui.input, content=translate(language, "Id")).clear().type("a/b")
    user.find(translate(language, "Save task")).click()
    await user.should_see(translate(language, "no “/”, and no space at the start"), retries=SLOW)


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
@pytest.mark.parametrize("name", list(PAGES))
async def test_every_page_speaks_the_language(language: str, user: User, name: str) -> None:
    await PAGES[name](user, language)
    await user.should_see(translate(language, "Library"), retries=SLOW)
    assert_no_english(user, language, name)
