"""The server's log handler: lines logged on the event loop are written together once the loop's
turn is over; a warning, and any line logged off the loop, at once; nothing is lost or reordered."""

from __future__ import annotations

import asyncio
import io
import logging
import threading

from core.server.log_output import server_handler


class CountingStream(io.StringIO):
    """A stream that counts its writes (each one a system call for standard error)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def logger_into(stream: io.StringIO) -> tuple[logging.Logger, logging.Handler]:
    handler = server_handler(stream)
    log = logging.getLogger(f"test.log_output.{id(stream)}")
    log.propagate = False
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    return log, handler


def messages(stream: io.StringIO) -> list[str]:
    return [line.split(" ", 4)[-1] for line in stream.getvalue().splitlines()]


async def test_lines_logged_in_one_turn_of_the_loop_are_written_together_when_it_ends() -> None:
    stream = CountingStream()
    log, _ = logger_into(stream)
    for n in range(20):  # a turn of a busy loop: many requests end
        log.info("request %d", n)
    assert stream.writes == 0  # not one system call per line
    await asyncio.sleep(0)
    assert messages(stream) == [f"request {n}" for n in range(20)]
    assert stream.writes == 1


async def test_a_warning_is_written_at_once_after_the_lines_before_it() -> None:
    stream = CountingStream()
    log, _ = logger_into(stream)
    log.info("before")
    log.warning("what went wrong")
    assert messages(stream) == ["before", "what went wrong"]
    log.info("after")
    await asyncio.sleep(0)
    assert messages(stream) == ["before", "what went wrong", "after"]


async def test_a_line_from_another_thread_is_written_at_once_with_the_loops_lines_in_order() -> None:
    stream = CountingStream()
    log, _ = logger_into(stream)
    log.info("on the loop")
    worker = threading.Thread(target=log.info, args=("in a worker thread",))
    worker.start()
    worker.join()
    assert messages(stream) == ["on the loop", "in a worker thread"]


def test_a_line_outside_any_loop_is_written_at_once() -> None:
    stream = CountingStream()
    log, _ = logger_into(stream)
    log.info("starting")
    assert messages(stream) == ["starting"]
