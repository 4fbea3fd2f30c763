"""Small steps the `user` simulation lacks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from nicegui import ui
from nicegui.testing import User, UserInteraction

PATIENCE = 15.0
"""Seconds to wait for what the app does in the background, even on a loaded machine."""
SLOW = int(PATIENCE / 0.1)
"""``should_see`` retries (0.1 s apart) for as long: for what takes a computation to appear."""


def click_item(user: User, text: str) -> None:
    """Click the list or menu item showing ``text`` (the simulation clicks only the label itself);
    the same text elsewhere on the page (an option of the Try tab, say) is passed over."""
    items = [a for label in user.find(text).elements for a in label.ancestors() if isinstance(a, ui.item)]
    item = min(items, key=lambda i: i.id)
    UserInteraction(user, {item}, None).click()


async def eventually(condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition`` holds, e.g. after a refresh NiceGUI runs in the background.

    ``should_see`` gives up after a fixed number of short retries, which a loaded machine can
    outlast; this waits for the condition itself, up to a generous deadline.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"still not {what} after {PATIENCE:g} s")
        await asyncio.sleep(0.05)


def count(user: User, marker: str) -> int:
    """How many elements carry ``marker`` (0 rather than an error when there are none)."""
    try:
        return len(user.find(marker=marker).elements)
    except AssertionError:
        return 0
