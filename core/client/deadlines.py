"""Deadlines of an app's calls to a remote: a server that hangs is reported, never waited for.

A remote that stops answering without closing its connections (a process stopped with SIGSTOP, a
machine frozen, a proxy that swallows requests) accepts the connection and then says nothing.
RemoteService gives every read its time-out and retries idempotent calls while the time-out
lasts, so one call could wait twice that; a page or a button waiting on it looked frozen. An app
wraps the remote it opens in ``bounded``: every call returns or fails within its deadline, with a
RemoteUnreachable that says the server does not answer. The tutor's stream is left to
RemoteService's own read time-out (the app opens the remote with ``STREAM_SECONDS``), as a reply
may take long to begin while the server keeps the stream alive every 15 s.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from core.client.i18n import N_
from core.config import Settings
from core.service import Service, connect

if TYPE_CHECKING:
    from core.service.remote import RemoteUnreachable

T = TypeVar("T")

CONNECT_SECONDS = 5.0
"""Opening a remote (connect: its info and health) answers within this, or the remote is not
taken; Settings' "Save and check" promises it."""
CALL_SECONDS = 5.0
"""Any other call to a remote answers within this: a page that reads the service says within it
that the remote does not answer."""
SLOW_CALLS = {
    "compute_feedback": 10.0,
    "compute_feedback_for_task": 10.0,
    "healthcheck_chat": 10.0,
    "retest": 20.0,
    "review_order": 20.0,
    "add_graded_answers": 20.0,
    "check_sample_solutions": 20.0,
    "create_class_set": 20.0,
    "add_class_set_answers": 20.0,
    "judge_class_set": 30.0,
    "class_set_answers": 30.0,
    "export_class_set": 120.0,
}
"""Calls that judge on the server get longer: one answer (a new task's model is built first) or a
model's round trip 10 s; many answers 20 s; a batch of a class set's answers, or a page of a set
that judges what it shows, 30 s; a class set's export, which judges and writes the feedback of up
to 5,000 answers, 120 s."""
STREAM_SECONDS = 20.0
"""The read time-out of an app's remote (RemoteService's ``timeout``): longer than the 15 s after
which a server of this API sends a keep-alive on a tutor stream, so a live stream is never cut."""


NOT_ANSWERING = N_(
    "the server at {where} does not answer: nothing came back within {seconds} s; "
    "check that it runs, or choose another connection in Settings"
)
"""What a user reads when a remote did not answer in time (the apps say it in their language)."""
WORDS = "client_words"
"""The attribute of a failure that carries the client's own words for it and their values."""


def not_answering(where: str, seconds: float) -> RemoteUnreachable:
    """The failure of a remote that did not answer in time, in the words a user reads; the
    words and their values ride along (``words``), so an app says them in its language."""
    from core.service.remote import RemoteUnreachable  # httpx and its kin only where a remote is used

    values = {"where": where, "seconds": f"{seconds:g}"}
    error = RemoteUnreachable(NOT_ANSWERING.format(**values))
    setattr(error, WORDS, (NOT_ANSWERING, values))  # an attribute RemoteUnreachable does not declare
    return error


def failure_words(error: Exception, translate: Callable[[str], str]) -> str | None:
    """A failure the client itself described (a remote that does not answer), in the language
    ``translate`` speaks; None for any other failure (the service's own message is shown)."""
    words = getattr(error, WORDS, None)
    if words is None:
        return None
    message, values = words
    return translate(message).format(**values)


async def within(seconds: float, where: str, call: Awaitable[T]) -> T:
    """``await call``, or RemoteUnreachable once ``seconds`` have passed (the call is cancelled)."""
    try:
        async with asyncio.timeout(seconds):
            return await call
    except TimeoutError:
        raise not_answering(where, seconds) from None


class _Bounded:
    """The Service ``service`` with a deadline on every coroutine method (see the module doc)."""

    def __init__(self, service: Service, where: str, seconds: float) -> None:
        self._service, self._where, self._seconds = service, where, seconds

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._service, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute  # the tutor's stream (an async generator) and plain attributes
        seconds = SLOW_CALLS.get(name, self._seconds)

        @functools.wraps(attribute)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await within(seconds, self._where, attribute(*args, **kwargs))

        return call


def bounded(service: Service, where: str, seconds: float = CALL_SECONDS) -> Service:
    """``service`` whose calls each answer within ``seconds`` (a few slow ones within
    ``SLOW_CALLS``), else fail with RemoteUnreachable naming ``where``."""
    return cast(Service, _Bounded(service, where, seconds))


async def open_remote(settings: Settings) -> Service:
    """The remote ``settings`` name, as both apps open it: it answers within ``CONNECT_SECONDS``,
    its reads time out after ``STREAM_SECONDS`` at most, and each call is bounded."""
    where = settings.remote_url or ""
    chosen = settings.model_copy(
        update={"remote_timeout_seconds": min(settings.remote_timeout_seconds, STREAM_SECONDS)}
    )
    return bounded(await within(CONNECT_SECONDS, where, connect(chosen)), where)
