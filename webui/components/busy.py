"""One click, one request: what sends something is busy until its result is in.

A button that sends spins while its request is on its way (Quasar's loading state, which takes
no clicks) and comes back with the result or the error notification. A click that reaches the
server before the spinner reached the browser is ignored here: the handlers of one page run one
at a time, so the second click finds the first one's mark; the second click of a double click is
not even sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from nicegui import ui
from nicegui.elements.mixins.disableable_element import DisableableElement

DOUBLE_CLICK_SECONDS = 0.6
"""Clicks this soon after a click are a double click: the browser does not send them. A quick
answer can come back between the two clicks of a double click, and the second would send again."""


class Sender:
    """Runs ``action`` for a click of ``button`` (or a key, see :meth:`keys`), unless the previous
    one's action still runs."""

    def __init__(self, button: ui.button, action: Callable[[], Awaitable[Any]]) -> None:
        self.button, self.action = button, action
        self.finished = -DOUBLE_CLICK_SECONDS
        """When the last action ended (the event loop's clock)."""
        button.on("click", self.send, [], throttle=DOUBLE_CLICK_SECONDS, trailing_events=False)

    def keys(self, element: ui.element, *events: str) -> None:
        """Let ``events`` of ``element`` (``keydown.ctrl.enter``) send as a click does, guarded
        alike: the browser sends no second press within the double-click time, and a press that
        comes that soon after the last action ended is the second of a double press, not a new
        answer (a quick answer is back before the second key of Ctrl+Enter twice)."""
        for event in events:
            element.on(event, self._key, [], throttle=DOUBLE_CLICK_SECONDS, trailing_events=False)

    async def _key(self) -> None:
        if asyncio.get_running_loop().time() - self.finished < DOUBLE_CLICK_SECONDS:
            return
        await self.send()

    async def send(self) -> None:
        button = self.button
        if "loading" in button.props:
            return
        button.props("loading")
        try:
            await self.action()
        finally:
            self.finished = asyncio.get_running_loop().time()
            if not button.is_deleted:  # a dialog closed by the action takes its buttons with it
                button.props(remove="loading")


def sends(button: ui.button, action: Callable[[], Awaitable[Any]]) -> ui.button:
    """Let a click of ``button`` run ``action`` unless the previous click's action still runs."""
    Sender(button, action)
    return button


@contextmanager
def locked(*elements: DisableableElement) -> Iterator[None]:
    """Disable ``elements`` while the block runs: inputs that would cut a streaming reply."""
    enabled = [element.enabled for element in elements]
    for element in elements:
        element.disable()
    try:
        yield
    finally:
        for element, was_enabled in zip(elements, enabled, strict=True):
            if not element.is_deleted:
                element.set_enabled(was_enabled)
