"""Helpers of the terminal app's tests: waiting for workers, reading what the user sees."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widget import Widget

from tui.app import FeedbackStudioApp
from tui.dialogs.new_task import NewTaskScreen
from tui.screens.library import LibraryScreen

SIZE = (120, 40)


async def wait_until(pilot: Pilot, condition: Callable[[], object], within: float = 30.0) -> None:
    """Let the app run until ``condition()`` holds; workers report back asynchronously.

    ``within`` is generous: a loaded CI machine runs the app several times slower than a desk,
    and a condition that holds early costs no more than one short pause.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        await pilot.pause(0.02)


async def settle(pilot: Pilot, within: float = 10.0) -> None:
    """Let the workers finish and the screen catch up, before a snapshot or before the app exits.

    An app that exits cancels its running workers, and a worker cancelled inside a database call
    leaves its connection to be closed later, from whatever event loop then runs (a later test's):
    the service of this test must be quiet before it is closed.
    """
    await asyncio.wait_for(pilot.app.workers.wait_for_complete(), within)
    await pilot.wait_for_scheduled_animations()


def library_loaded(app: FeedbackStudioApp) -> bool:
    library = app.screen_stack[0]
    return isinstance(library, LibraryScreen) and library._loaded


def notifications(app: FeedbackStudioApp) -> list[tuple[str, str]]:
    """(title, message) of the notifications shown so far."""
    return [(n.title, n.message) for n in app._notifications]


async def notified(pilot: Pilot, title: str, message: str | None = None) -> tuple[str, str]:
    """The notification titled ``title`` (saying ``message``, if given), once the app shows it.

    ``notify`` posts a message that the app handles in its turn, so the notification is not there
    yet when the code that raised it returns: wait for it rather than look at once.
    """

    def shown() -> tuple[str, str] | None:
        return next(
            ((t, m) for t, m in notifications(pilot.app) if t == title and message in (None, m)), None
        )

    await wait_until(pilot, shown)
    found = shown()
    assert found is not None
    return found


async def click(pilot: Pilot, widget: Widget) -> None:
    """Click ``widget`` as a user would: once it has its place on screen and nothing lies over it.

    A widget just mounted has no region until the next layout (the click would land elsewhere),
    and a loading indicator may still cover the area it was mounted in.
    """

    def reachable() -> bool:
        region = widget.region
        return bool(region) and pilot.app.get_widget_at(*region.offset)[0] is widget

    await wait_until(pilot, reachable)
    assert await pilot.click(widget), f"the click did not reach {widget!r}"


def footer_keys(app: FeedbackStudioApp) -> list[str]:
    """What the footer of the current screen lists: the description of each key shown."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    return [key.description for key in app.screen.query_one(Footer).query(FooterKey)]


def text_of(widget) -> str:
    """The plain text a Static or Label shows."""
    content = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


async def open_task(pilot: Pilot, task_id: str):
    """Open a task from the library as a user would: move the cursor to its row and press enter."""
    from textual.widgets import DataTable

    from tui.screens.task import TaskScreen

    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index(task_id))
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen) and app.screen.definition is not None)
    await pilot.pause()
    return app.screen


async def new_task_editor(pilot: Pilot, task_type):
    """Press n in the library, pick the type, and return the editor that opens."""
    from textual.widgets import OptionList

    from core.api import TaskType
    from tui.screens.editor import EditorScreen

    app = pilot.app
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(app.screen, NewTaskScreen))
    app.screen.query_one(OptionList).highlighted = list(TaskType).index(task_type)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    await pilot.pause()
    return app.screen


async def burst(pilot: Pilot, *keys: str) -> None:
    """Type ``keys`` as a fast typist or a paste does: every key is queued before the app handles
    the first (``pilot.press`` waits for the app after each key, which hides what a burst does)."""
    import unicodedata

    from textual import events
    from textual.keys import _character_to_key, _get_unicode_name_from_key

    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(name))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(name, char)
        event.set_sender(pilot.app)
        driver.send_message(event)
    await pilot.pause()


def screen_text(app: FeedbackStudioApp) -> str:
    """The terminal's cells as text, one line a row: what the user reads on the screen now."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
