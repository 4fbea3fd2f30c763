"""The learner's view of a task (the authors' learner preview, and the pages of learner mode)."""

from __future__ import annotations

import httpx
import pytest
from nicegui import ui
from nicegui.testing import User
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from core.auth import local_principal
from core.http import tls_context
from core.service.local import LocalService
from tests.conftest import ServerThread, free_port
from tests.webui import harness
from tests.webui.helpers import SLOW
from webui.pages.learner import LearnersOnly


async def test_a_learner_answers_and_reads_the_feedback_a_learner_should_see(user: User) -> None:
    await user.open("/learn/default/mc-photosynthesis-en")
    await user.should_see("Which gas does a plant take in from the air to build sugar during photosynthesis?")
    with user:
        user.find(ui.radio).elements.pop().value = 0  # oxygen
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    await user.should_see("Oxygen is what plants give off during photosynthesis")
    await user.should_not_see("Sample solution")  # the answer is not handed over
    await user.should_not_see("This should be")  # nor the authors' gold-answer bar
    service = LocalService(harness.runtime, local_principal("default"))
    [record] = await service.list_interactions("default", "mc-photosynthesis-en")
    assert record.userId.startswith("learner-")


async def test_a_learner_reads_the_hint_of_a_missing_concept_never_its_name(user: User) -> None:
    await user.open("/learn/default/ff-bulb-circuit-en")
    user.find(marker="answer").type("I connect the bulb with a single wire to the battery.")
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    await user.should_see("What happens inside the bulb when a current passes through it?")  # the hint
    await user.should_see("A single wire suffices")  # the misconception the answer shows is named
    await user.should_not_see("Current heats the filament")  # the missing concepts are not
    await user.should_not_see("Closed circuit")


async def test_a_learner_chats_with_the_tutor_of_the_task_beside_it(user: User) -> None:
    await user.open("/learn/default/ff-bulb-circuit-en")
    await user.should_see("Ask the tutor…")


async def test_the_task_page_opens_the_learner_preview(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    await user.should_see("Preview as learner")


@pytest.fixture
def learner_mode_url():
    async def page(request):
        return PlainTextResponse(f"page {request.url.path}")

    app = Starlette(
        routes=[Route("/{path:path}", page)],
        middleware=[Middleware(LearnersOnly)],
    )
    port = free_port()
    with ServerThread(app, port):
        yield f"http://127.0.0.1:{port}"


async def test_learner_mode_serves_only_the_learners_pages(learner_mode_url) -> None:
    async with httpx.AsyncClient(verify=tls_context(), base_url=learner_mode_url) as browser:
        home = await browser.get("/")
        assert home.status_code == 307 and home.headers["location"] == "/learn"
        assert (await browser.get("/learn/default/t1")).text == "page /learn/default/t1"
        for authoring in ("/settings", "/tasks/default/t1", "/new/FREEFORM_TEXT", "/tutor", "/simulation"):
            refused = await browser.get(authoring)
            assert refused.status_code == 404 and "only shows its tasks to learners" in refused.text
