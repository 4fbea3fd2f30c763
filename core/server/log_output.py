"""Where the server's log lines go and how they read: one line per record on standard error, the
format of :data:`LOG_FORMAT`, written in batches.

Every request writes a line (core.server.access_log), and a line written and flushed on its own
is a system call for every request (what that costs: docs/performance.md). Lines logged on the
event loop are therefore kept until the loop's current turn is over and then written together,
which under load is dozens of requests' lines in one write; the lines of one request, or of an
idle server, go out as soon as the loop turns. A warning or worse is written at once, with the
lines before it, and so is any line logged outside the event loop (a worker thread, start-up,
shutdown): what explains a failure is never held back. A process killed outright loses at most
the lines of the loop's current turn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TextIO

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class LogFormatter(logging.Formatter):
    """LOG_FORMAT's formatter, the text of the time's second made once a second rather than for
    every line (time.strftime was a third of what formatting an access-log line cost), and a line
    without an exception or stack put together directly rather than through logging's %-style
    machinery (every request writes one). The same text as logging.Formatter(LOG_FORMAT)'s."""

    _second: tuple[int, str] = (-1, "")

    def __init__(self) -> None:
        super().__init__(LOG_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        if record.exc_info or record.exc_text or record.stack_info:
            return super().format(record)
        record.message = record.getMessage()  # as logging.Formatter leaves them on the record
        record.asctime = self.formatTime(record)
        return f"{record.asctime} {record.levelname} {record.name} {record.message}"

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        cached, text = self._second
        if cached != second:
            text = time.strftime(self.default_time_format, self.converter(second))
            self._second = (second, text)  # one assignment: threads see the old pair or the new
        return f"{text},{int(record.msecs):03d}"  # logging's default_msec_format, "%s,%03d"


class TurnBatchingHandler(logging.StreamHandler[TextIO]):
    """A StreamHandler whose lines logged on an event loop are written once the loop's turn is
    over, all in one write (see the module's docstring)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(stream)
        self._pending: list[str] = []
        self._awaited: asyncio.AbstractEventLoop | None = None
        """The loop whose turn's end will write the pending lines (a loop closed before it did, as
        a test's may be, is not waited for: the next line on another loop arranges its own)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + self.terminator
        except Exception:  # as StreamHandler.emit: a record that cannot be formatted is reported
            self.handleError(record)
            return
        self._pending.append(line)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # not on an event loop: written now
        if loop is None or record.levelno >= logging.WARNING:
            self.flush()
        elif self._awaited is not loop:
            self._awaited = loop
            loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write the pending lines (Handler.handle holds the lock while emitting; the loop's call
        and logging's shutdown take it here)."""
        with self.lock:  # type: ignore[union-attr]  # created in Handler.__init__
            self._awaited = None
            if self._pending:
                self.stream.write("".join(self._pending))
                self._pending.clear()
            super().flush()


def server_handler(stream: TextIO | None = None) -> logging.Handler:
    """The handler the server logs through (standard error unless `stream` is given)."""
    handler = TurnBatchingHandler(stream)
    handler.setFormatter(LogFormatter())
    return handler
