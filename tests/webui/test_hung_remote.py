"""A remote that hangs (stopped with SIGSTOP, not dead) never freezes the studio: each page and
each button says within its deadline that the remote does not answer, and the rest goes on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest
from nicegui.testing import User
from nicegui.testing.general import nicegui_reset_globals

from core.client.deadlines import CALL_SECONDS, CONNECT_SECONDS, SLOW_CALLS, STREAM_SECONDS
from core.config import Settings
from core.http import tls_context
from tests.conftest import ServerThread, free_port, sqlite_url
from tests.webui.helpers import SLOW
from tests.webui.hung_remote import HungRemote, serve_process

pytestmark = [pytest.mark.process, pytest.mark.usefixtures("text_models_loaded")]

SLACK = 5.0
"""What a loaded machine (two test workers and the remote's process on two cores) may add."""


@pytest.fixture(scope="module")
def remote(tmp_path_factory) -> Iterator[HungRemote]:
    with serve_process(tmp_path_factory.mktemp("remote")) as running:
        yield running


@pytest.fixture
def web_on_remote(tmp_path, remote: HungRemote) -> Iterator[str]:
    """`feedback-studio web --remote URL --token T` served by uvicorn on 127.0.0.1."""
    port = free_port()
    settings = Settings(
        database_url=sqlite_url(tmp_path),
        seed_demo=False,
        port=port,
        public_base_url=f"http://127.0.0.1:{port}",
        remote_url=remote.base_url,
        token=remote.token,
    )
    with nicegui_reset_globals():
        from webui.main import create_web_app

        with ServerThread(create_web_app(settings), port):
            yield f"http://127.0.0.1:{port}"


async def test_every_page_says_the_remote_does_not_answer_and_one_stuck_page_blocks_no_other(
    remote: HungRemote, web_on_remote: str
) -> None:
    pages = [
        "/",
        "/tasks/default/ff-bulb-circuit-en",
        "/new/FREEFORM_TEXT",
        "/tutor",
        "/simulation",
        "/learn/default/ff-bulb-circuit-en",
    ]
    async with httpx.AsyncClient(verify=tls_context(), base_url=web_on_remote, timeout=60) as browser:

        async def timed(path: str) -> tuple[float, httpx.Response]:
            started = time.monotonic()
            response = await browser.get(path)
            return time.monotonic() - started, response

        with remote.hung():
            stuck = [asyncio.create_task(timed(path)) for path in pages]
            await asyncio.sleep(0.5)  # the pages above now wait for the remote
            took, settings = await timed("/settings")
            assert settings.status_code == 200 and "Save and check" in settings.text
            assert took < 3, f"the settings page waited {took:.1f} s for the others"  # blocked: 4.5 s
            for path, (took, response) in zip(pages, await asyncio.gather(*stuck), strict=True):
                assert response.status_code == 200, (path, response.status_code)
                assert "does not answer" in response.text, path
                assert "response_timeout" not in response.text, path
                assert took < CONNECT_SECONDS + CALL_SECONDS + SLACK, (path, took)


async def connect_to(user: User, remote: HungRemote) -> None:
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type(remote.base_url)
    user.find("Bearer token").type(remote.token)
    user.find("Save and check").click()
    await user.should_see(f"Service: OK ({remote.base_url})", retries=SLOW)


async def test_save_and_check_reports_a_hung_remote_within_5_seconds(user: User, remote: HungRemote) -> None:
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type(remote.base_url)
    user.find("Bearer token").type(remote.token)
    with remote.hung():
        started = time.monotonic()
        user.find("Save and check").click()
        await user.should_see("Not saved: the server at", retries=SLOW)
        assert time.monotonic() - started < CONNECT_SECONDS + SLACK
        await user.should_see("does not answer")


async def test_get_feedback_and_the_health_check_report_a_remote_that_stopped_answering(
    user: User, remote: HungRemote
) -> None:
    await connect_to(user, remote)
    await user.open("/tasks/default/ff-bulb-circuit-en")
    await user.should_see("Making a bulb light up")
    user.find(marker="answer").type("Close the circuit.")
    with remote.hung():
        started = time.monotonic()
        user.find("Get feedback").click()
        await user.should_see("Feedback failed: the server at", retries=SLOW)
        assert time.monotonic() - started < SLOW_CALLS["compute_feedback_for_task"] + SLACK
        await user.should_see("does not answer")
        await user.should_see("Making a bulb light up")  # the page is still there

        await user.open("/settings")
        started = time.monotonic()
        user.find("Check health").click()
        await user.should_see("Service: the server at", retries=SLOW)
        await user.should_see("Identity: the server at", retries=SLOW)
        await user.should_see("Tutor chat: the server at", retries=SLOW)
        assert time.monotonic() - started < SLOW_CALLS["healthcheck_chat"] + SLACK


async def test_a_tutor_reply_from_a_remote_that_stopped_answering_fails_in_place(
    user: User, remote: HungRemote
) -> None:
    await connect_to(user, remote)
    await user.open("/tutor")
    await user.should_see("Ask the tutor…", retries=SLOW)
    with remote.hung():
        started = time.monotonic()
        user.find(marker="chat-input").type("Does the bulb need both wires?")
        user.find(marker="send").click()
        await user.should_see("The reply failed: ", retries=int((STREAM_SECONDS + SLACK + 5) / 0.1))
        assert time.monotonic() - started < STREAM_SECONDS + SLACK
        [box] = user.find(marker="chat-input").elements
        assert box.enabled  # the conversation goes on
