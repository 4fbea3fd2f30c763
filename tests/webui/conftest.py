"""Fixtures of the web app's tests: the `user` simulation over a fresh database, and a real server.

The `user` fixture is NiceGUI's own, pointed at tests/webui/user_app.py; the database it uses is
chosen through the environment, as `feedback-studio web` would read it.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from nicegui import Client
from nicegui.testing.general import nicegui_reset_globals
from nicegui.testing.user import User
from nicegui.testing.user_simulation import user_simulation

from core.config import Settings
from core.engine.text.preload import preload_in_background
from core.service.runtime import Runtime
from tests.conftest import ServerThread, free_port, sqlite_url
from tests.webui import harness
from tests.webui.helpers import SLOW
from tests.webui.paced_llm import paced_llm

USER_APP = Path(__file__).with_name("user_app.py")


@pytest.fixture(scope="session")
def seeded_database(tmp_path_factory) -> Path:
    """A migrated database with the demo tasks, made once per run; each test works on a copy."""
    path = tmp_path_factory.mktemp("seeded") / "studio.sqlite3"

    async def make() -> None:
        await (
            await Runtime.open(Settings(database_url=f"sqlite+aiosqlite:///{path}", seed_demo=True))
        ).aclose()

    asyncio.run(make())
    return path


@pytest.fixture
def web_env(tmp_path, monkeypatch, seeded_database: Path) -> Settings:
    """Settings of the web app under test, exported as the command line would export them."""
    shutil.copy(seeded_database, tmp_path / "studio.sqlite3")
    # the browsers' storage (webui.login) of this test alone: in the user's data directory it was
    # shared by every test process on the machine, and one process's cleanup removed a file
    # another was writing (FileNotFoundError of a storage-user-….json.tmp, logged as an ERROR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("FEEDBACK_STUDIO_DATABASE_URL", sqlite_url(tmp_path))
    monkeypatch.setenv("FEEDBACK_STUDIO_SEED_DEMO", "true")
    monkeypatch.setenv("FEEDBACK_STUDIO_PUBLIC_BASE_URL", "http://studio.test")
    return Settings()


@pytest.fixture
async def user(web_env: Settings, caplog: pytest.LogCaptureFixture) -> AsyncIterator[User]:
    """NiceGUI's simulated user on the web app, with the demo tasks seeded."""
    harness.runtime = await Runtime.open(web_env)
    try:
        async with user_simulation(main_file=USER_APP) as simulated:
            # patient by default: NiceGUI's `should_see` looks 3 times in 0.3 s, which a page still
            # loading on a busy machine outlasts (a new-task page at a load average of 14); it
            # returns as soon as the text is there, so patience costs nothing when it is
            simulated.should_see = partial(simulated.should_see, retries=SLOW)  # type: ignore[method-assign]
            yield simulated
            stop_outboxes()
    finally:
        await harness.runtime.aclose()
        harness.runtime = None
    # the teardown too: an app that does not shut down cleanly logs it there
    records = caplog.get_records("call") + caplog.get_records("teardown")
    errors = [r for r in records if r.levelname == "ERROR"]
    if errors:
        pytest.fail(f"unexpected ERROR logs: {[r.getMessage() for r in errors]}", pytrace=False)


def stop_outboxes() -> None:
    """Stop each page's outbox loop before the app shuts down.

    Shutting down, NiceGUI cancels its tasks and waits 2 s for them. An outbox loop waits for its
    next update in ``asyncio.wait_for``, which on Python 3.11 loses a cancellation that comes as an
    update arrives (the page's last elements are deleted then): the loop then ran on until the 2 s
    were over, an idle pause of 2 s after one web test in four and an error in the log. Stopped,
    the loop ends at its next turn whether or not the cancellation reached it.
    """
    for client in Client.instances.values():
        client.outbox.stop()


@dataclass
class WebServer:
    base_url: str
    settings: Settings


@pytest.fixture(scope="module")
def web_server(tmp_path_factory) -> Iterator[WebServer]:
    """`feedback-studio web` as the command serves it (uvicorn, 127.0.0.1), the demo tasks seeded.

    The tutor is the LLM engine on a local paced server, so a reply visibly streams in.
    """
    port = free_port()
    with paced_llm() as llm_url:
        settings = Settings(
            database_url=sqlite_url(tmp_path_factory.mktemp("web")),
            seed_demo=True,
            port=port,
            public_base_url=f"http://127.0.0.1:{port}",
            tutor_engine="llm",
            llm_base_url=llm_url,
            llm_model="paced",
        )
        with nicegui_reset_globals():
            from webui.main import create_web_app

            with ServerThread(create_web_app(settings), port):
                # as every live server of the tests: the first reply or judgement would otherwise
                # wait for the text models, seconds on a loaded machine (tests/conftest.py)
                preload_in_background().join()
                yield WebServer(f"http://127.0.0.1:{port}", settings)


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "webui"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium is not at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, web_server: WebServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh laptop-sized tab on the web server; its last state is kept as a screenshot artefact."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=web_server.base_url)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
