"""How screens call the service: in a worker, behind a loading indicator, errors as notifications.

Every service call runs inside ``async with service_call(...)`` in an ``@work`` method; the worker
then posts a message with what it got (the Posting style), so handlers only touch widgets.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Protocol, cast

from textual.dom import DOMNode
from textual.widget import Widget

from core.api import ServiceError, ServiceInfo
from core.client.deadlines import failure_words
from core.client.library import TaskLibrary
from core.config import Settings
from core.service.base import Service
from tui.i18n import _

log = logging.getLogger(__name__)


class StudioApp(Protocol):
    """What screens and widgets use of the app (FeedbackStudioApp provides it): the connection,
    its service and its task library. Where to go next they ask by messages (tui.navigation)."""

    settings: Settings | None
    info: ServiceInfo | None
    connections: int
    """Counts the connections made; a screen remembers the one it was opened on."""

    @property
    def tenant_id(self) -> str: ...

    @property
    def extensions(self) -> bool: ...

    async def ready(self) -> Service: ...

    async def library(self) -> TaskLibrary: ...

    async def reconnect(self, settings: Settings) -> bool: ...

    def unsaved_edits(self) -> str | None: ...

    def hold_keys(self) -> None: ...

    def release_keys(self, *, discard: bool = False) -> None: ...


def studio(node: DOMNode) -> StudioApp:
    """The app of ``node``, typed by what widgets use of it rather than by the App class."""
    return cast(StudioApp, node.app)


@asynccontextmanager
async def service_call(
    node: DOMNode, doing: str, *, busy: Widget | None = None, raising: tuple[type[ServiceError], ...] = ()
) -> AsyncIterator[None]:
    """Show ``busy`` as loading while the block runs; a ServiceError becomes a notification.

    The notification carries the API's message verbatim (authors act on it), titled with what
    failed and the error type; the block is abandoned, so nothing after the failing call runs.
    Any other exception is a fault of the (embedded) service: it is logged and notified too,
    rather than ending the app with the author's unsaved edits. Errors of the ``raising`` types
    are the caller's to handle (a save conflict asks the author what to do).
    """
    if busy is not None:
        busy.loading = True
    try:
        yield
    except ServiceError as exc:
        if isinstance(exc, raising):
            raise
        node.app.notify(
            failure_words(exc, _) or exc.message,
            title=_("{action} failed · {type}").format(action=doing, type=exc.type.value),
            severity="error",
            timeout=10,
            markup=False,
        )
    except Exception as exc:  # a fault inside the embedded service: keep the app and the author's work
        log.exception("%s failed unexpectedly", doing)
        message = f"{type(exc).__name__}: {exc}"
        node.app.notify(
            message,
            title=_("{action} failed unexpectedly").format(action=doing),
            severity="error",
            timeout=10,
            markup=False,
        )
    finally:
        if busy is not None and busy.is_attached:  # the screen may be gone (the app quit meanwhile)
            busy.loading = False


def in_flight(node: DOMNode, *groups: str) -> bool:
    """Whether a worker of ``node`` in one of ``groups`` still runs: an action that sends
    something is not started again until its result is in (a second press would send it twice)."""
    return any(w.node is node and w.group in groups and not w.is_finished for w in node.workers)
