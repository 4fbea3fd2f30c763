"""Journeys of the tutor chat and the simulation: the reply streams into bubbles, the trace can be
rated, debug events reach the drawer, a session runs and its conversation gets feedback.
"""

from __future__ import annotations

import asyncio

from nicegui import ui
from nicegui.testing import User

from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import PATIENCE, SLOW


async def test_the_tutor_greets_and_replies_in_a_bubble(user: User) -> None:
    await user.open("/tutor")
    await user.should_see(ui.chat_message)
    greeting_bubbles = len(user.find(ui.chat_message).elements)
    user.find(marker="chat-input").type("What do I need to make the bulb light up?")
    user.find(marker="send").click()
    await _replied(user, greeting_bubbles + 2)
    await user.should_see(marker="thumb-up")


async def test_rating_the_reply_thanks_and_locks_the_thumbs(user: User) -> None:
    await user.open("/tutor")
    user.find(marker="chat-input").type("Hello")
    user.find(marker="send").click()
    await user.should_see(marker="thumb-up", retries=SLOW)
    user.find(marker="thumb-up").click()
    await user.should_see("Thanks: the rating of this reply is saved", retries=SLOW)
    assert not user.find(marker="thumb-down").elements.pop().enabled


async def test_debug_mode_fills_the_debug_drawer(user: User) -> None:
    await user.open("/tutor")
    user.find("Debug mode").click()
    user.find(marker="chat-input").type("Hello")
    user.find(marker="send").click()
    await user.should_see(marker="debug-entry", retries=SLOW)


async def test_a_new_tutor_can_be_set_up(user: User) -> None:
    await user.open("/tutor")
    user.find("New tutor").click()
    with user.scope(marker="dialog"):
        user.find("Id").type("water-coach")
        user.find("Name").type("Water coach")
        user.find("Opening messages (one a line)").type("Ask me about the water cycle.")
        user.find("Create").click()
    await user.should_see("Ask me about the water cycle.", retries=SLOW)


async def test_a_simulation_session_runs_and_gets_feedback(user: User) -> None:
    await user.open("/simulation?task=sim-customer-objections-en")
    await user.should_see("Selling a till system to a careful customer")
    user.find("Start session").click()
    await user.should_see(marker="chat-input", retries=SLOW)
    bubbles = len(user.find(ui.chat_message).elements)
    user.find(marker="chat-input").type("I understand your worry about the price. What matters most to you?")
    user.find(marker="send").click()
    await _replied(user, bubbles + 2)
    finish = user.find("Finish and get feedback")
    finish.click()
    finish.click()  # a double click judges the conversation once
    await user.should_see("Feedback on the conversation", retries=SLOW)
    await user.should_see(marker="marked-answer")
    service = LocalService(harness.runtime, local_principal("default"))
    assert len(await service.list_interactions("default", "sim-customer-objections-en")) == 1


async def test_the_settings_check_the_health_of_the_service(user: User) -> None:
    await user.open("/settings")
    user.find("Check health").click()
    await user.should_see("Service: OK (embedded service)", retries=SLOW)
    await user.should_see("Tutor chat: answered", retries=SLOW)


async def test_a_remote_needs_a_web_address(user: User) -> None:
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type("feedback.example.org")
    user.find("Save and check").click()
    await user.should_see("The base URL must start with http:// or https://", retries=SLOW)


async def _replied(user: User, bubbles: int) -> None:
    """Wait until the conversation holds ``bubbles`` bubbles and the reply stream has ended."""
    for _ in range(int(PATIENCE / 0.05)):  # the first reply waits for the text models to load
        if len(user.find(ui.chat_message).elements) >= bubbles and not _typing(user):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no reply: the conversation has {len(user.find(ui.chat_message).elements)} bubbles")


def _typing(user: User) -> bool:
    """Whether the typing indicator shows (the user simulation finds only visible elements)."""
    try:
        user.find(marker="typing")
    except AssertionError:
        return False
    return True


async def test_switching_to_a_remote_service_shows_its_tasks(user: User, live_server) -> None:
    token = await live_server.token()
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type(live_server.base_url)
    user.find("Bearer token").type(token)
    user.find("Save and check").click()
    await user.should_see(f"Service: OK ({live_server.base_url})", retries=SLOW)
    await user.should_see("as test on tenant default")  # the remote's principal, named by its token
    await user.open("/")  # the library now comes from the remote (which shares the test's database)
    await user.should_see("The water cycle")
    await user.open("/settings")
    user.find("Embedded service (this machine's database)").click()
    user.find("Save and check").click()
    await user.should_see("Service: OK (embedded service)", retries=SLOW)
    await user.should_see("as local user on tenant default")


async def test_the_learners_message_is_shown_as_typed_not_as_markdown(user: User) -> None:
    await user.open("/tutor")
    await user.should_see(ui.chat_message)
    typed = "# 2 * 3 = *six*"
    user.find(marker="chat-input").type(typed)
    user.find(marker="send").click()
    await user.should_see(marker="learner-text", retries=SLOW)
    [shown] = user.find(marker="learner-text").elements
    assert isinstance(shown, ui.label) and shown.text == typed


async def test_starting_again_asks_before_a_conversation_is_left(user: User) -> None:
    await user.open("/simulation?task=sim-customer-objections-en")
    user.find("Start session").click()
    await user.should_see(marker="chat-input", retries=SLOW)
    bubbles = len(user.find(ui.chat_message).elements)
    user.find(marker="chat-input").type("Thank you for your time. What matters most to you?")
    user.find(marker="send").click()
    await _replied(user, bubbles + 2)
    user.find("Start session").click()
    await user.should_see("Start a new session?", retries=SLOW)
    user.find("Cancel").click()
    await user.should_see("Thank you for your time. What matters most to you?")  # still there


async def test_a_tutor_grounded_in_its_task_shows_that_task(user: User) -> None:
    await user.open("/tutor?tutor=tutor-bulb-circuit-en")
    await user.should_see(ui.chat_message)
    [grounding] = user.find(marker="grounding").elements
    assert grounding.value == "ff-bulb-circuit-en"
    await user.should_see("Making a bulb light up")  # the task's title, not "No task"
