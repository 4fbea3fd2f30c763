"""The feedback's small promises: one answer per double press of Ctrl+Enter, ids that tell the
answers apart, and a rating that says nothing until the user chooses a thumb."""

from __future__ import annotations

import asyncio

from nicegui import ui
from nicegui.testing import User

from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW, eventually
from webui.components.busy import DOUBLE_CLICK_SECONDS

TASK = "ff-bulb-circuit-en"
CHOICE = "mc-photosynthesis-en"


def service() -> LocalService:
    return LocalService(harness.runtime, local_principal("default"))


async def answers(task_id: str = TASK) -> int:
    return len(await service().list_interactions("default", task_id))


async def test_ctrl_enter_twice_in_quick_succession_stores_one_answer(user: User) -> None:
    await user.open(f"/tasks/default/{CHOICE}")  # judged at once: back before the second press
    with user:
        user.find(ui.radio).elements.pop().value = 1
    card = user.find(marker="answer-card")
    card.trigger("keydown.ctrl.enter")
    await user.should_see(marker="interaction-id", retries=SLOW)  # the answer is back, quickly
    card.trigger("keydown.ctrl.enter")  # the second press of the pair, well within 150 ms
    await asyncio.sleep(0.3)
    assert await answers(CHOICE) == 1
    await asyncio.sleep(DOUBLE_CLICK_SECONDS)
    card.trigger("keydown.meta.enter")  # a later press is a new answer
    for _ in range(int(15 / 0.05)):
        if await answers(CHOICE) == 2:
            break
        await asyncio.sleep(0.05)
    assert await answers(CHOICE) == 2


async def test_answers_given_within_a_minute_have_ids_that_tell_them_apart(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}")
    user.find(marker="answer").type("The circuit must be closed.")
    shown: list[str] = []
    for _ in range(3):
        user.find("Get feedback").click()
        await eventually(lambda: _label(user) not in (None, *shown), "a new answer's id shown")
        shown.append(str(_label(user)))
    assert len(set(shown)) == 3, shown
    ids = [r.interactionId for r in await service().list_interactions("default", TASK)]
    for label in shown:
        assert label.startswith("interaction ") and any(label.endswith(i.replace("-", "")[-8:]) for i in ids)


def _label(user: User) -> str | None:
    try:
        return user.find(marker="interaction-id").elements.pop().text
    except AssertionError:
        return None


async def test_a_rating_starts_with_no_thumb_and_is_not_sent_without_one(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}")
    user.find(marker="answer").type("The circuit must be closed.")
    user.find("Get feedback").click()
    await user.should_see("Rate this feedback", retries=SLOW)
    [thumb] = user.find(marker="rating-thumb").elements
    assert isinstance(thumb, ui.toggle)
    assert thumb.value is None  # neither Good nor Bad
    user.find(marker="send-rating").click()
    await user.should_see("Choose Good or Bad first", retries=SLOW)
    [record] = await service().list_interactions("default", TASK)
    assert record.rating is None
    with user:
        thumb.value = "BAD"
    user.find(marker="send-rating").click()
    await user.should_see("Thanks: the rating is saved", retries=SLOW)
    [record] = await service().list_interactions("default", TASK)
    assert record.rating is not None and record.rating.type.value == "BAD"
