"""The terminal app on a remote that stopped answering (its process stopped with SIGSTOP: the port
takes connections and nothing comes back): every page says so within the remote's deadline
(core.client.deadlines), and the app answers keys meanwhile.

The remote is `feedback-studio serve` in a process of its own on 127.0.0.1 (tests/webui/hung_remote.py).
Nothing here is timed: each message is waited for, bounded by the deadline and what a loaded
machine adds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import DataTable, Input

from core.client.deadlines import CALL_SECONDS, CONNECT_SECONDS
from core.config import Settings
from tests.tui.helpers import SIZE, library_loaded, screen_text, settle, wait_until
from tests.webui.hung_remote import HungRemote, serve_process
from tui.app import FeedbackStudioApp

pytestmark = [pytest.mark.process, pytest.mark.usefixtures("text_models_loaded")]

SLACK = 5.0
"""What a loaded machine (two test workers and the remote's process on two cores) may add."""
BOUND = CALL_SECONDS + SLACK
TASK = "ff-bulb-circuit-en"


@pytest.fixture(scope="module")
def remote(tmp_path_factory) -> Iterator[HungRemote]:
    with serve_process(tmp_path_factory.mktemp("remote")) as running:
        yield running


def telling(app: FeedbackStudioApp) -> FeedbackStudioApp:
    """``app``, keeping every notification it shows in ``app.told`` (one shown goes after its
    time-out, so the app's own list cannot be counted on)."""
    app.told = []  # type: ignore[attr-defined]
    notify = app.notify

    def recorded(message, *args, **kwargs):
        app.told.append(str(message))  # type: ignore[attr-defined]
        return notify(message, *args, **kwargs)

    app.notify = recorded  # type: ignore[method-assign]
    return app


def said(app, before: int) -> list[str]:
    """What the app told since its first ``before`` notifications that says the remote does not answer."""
    return [message for message in app.told[before:] if "does not answer" in message]


async def says_it_does_not_answer(pilot, before: int) -> None:
    try:
        await wait_until(pilot, lambda: said(pilot.app, before), within=BOUND)
    except AssertionError:
        shown = "\n".join(line.rstrip() for line in screen_text(pilot.app).splitlines() if line.strip())
        workers = [(w.name, w.state.name) for w in pilot.app.workers]
        raise AssertionError(f"no word of the stopped remote: {pilot.app.told}, {workers}\n{shown}") from None


async def test_every_page_says_a_stopped_remote_does_not_answer_and_keys_still_work(
    remote: HungRemote, tmp_path
) -> None:
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'unused.sqlite3'}",
        remote_url=remote.base_url,
        token=remote.token,
    )
    app = telling(FeedbackStudioApp(settings))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app), within=CONNECT_SECONDS + BOUND)
        table = app.screen.query_one(DataTable)
        await wait_until(pilot, lambda: table.row_count > 0)
        with remote.hung():
            # a task, opened
            before = len(app.told)
            table.focus()
            table.move_cursor(row=table.get_row_index(TASK))
            await pilot.press("enter")
            await says_it_does_not_answer(pilot, before)
            while len(app.screen_stack) > 1:
                await pilot.press("escape")
                await pilot.pause()

            # the library, reloaded
            before = len(app.told)
            await pilot.press("r")
            # keys while the reload waits: the filter takes them at once
            await pilot.press("slash", "b", "u", "l", "b")
            field = app.screen.query_one("#filter", Input)
            await wait_until(pilot, lambda: field.value == "bulb", within=SLACK)
            await says_it_does_not_answer(pilot, before)
            await pilot.press("escape")

            # the tutor chat
            before = len(app.told)
            await pilot.press("f3")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ChatScreen")
            await says_it_does_not_answer(pilot, before)
            await pilot.press("escape")

            # connection and health: the check of the service
            await pilot.press("f2")
            await wait_until(
                pilot, lambda: type(app.screen).__name__ == "ConnectionScreen" and app.screen.is_mounted
            )
            before = len(app.told)
            await pilot.click("#check-api")
            await pilot.press("f1")  # the app answers a key while the check waits
            await wait_until(pilot, lambda: app.screen.query("HelpPanel"), within=SLACK)
            await says_it_does_not_answer(pilot, before)
            await pilot.press("escape")
        await settle(pilot, within=BOUND)
