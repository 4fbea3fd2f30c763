"""Group commit for SQLite: write jobs of many requests run in one transaction on a dedicated thread.

Through SQLAlchemy's async layer and aiosqlite, every statement, cursor, BEGIN and COMMIT is a
round trip between the event loop and aiosqlite's thread: about twenty for one feedback, which
cost ten times the feedback's own computation. A job here is a plain function of a sqlite3
connection that does its reads and writes synchronously, so a request costs one hand-over to
this thread, and jobs that arrive while a transaction runs are committed together in the next
one (group commit). Each job runs under its own SAVEPOINT: a job that raises leaves nothing
behind and does not disturb the others of its batch. A job's result is delivered only after the
COMMIT that made its writes durable.

The writer shares the Database's asyncio write lock with the SQLAlchemy sessions, so the process
still has one writer at a time and never meets its own lock in SQLite's busy handler.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
Job = Callable[[sqlite3.Connection], Any]
PRAGMAS = ("busy_timeout=30000", "journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON")
"""Every connection's settings, the SQLAlchemy engine's (core.store.db) too. The busy timeout comes
first: switching a new database to WAL takes a lock that a concurrent opener may hold."""


class SqliteWriter:
    def __init__(self, path: str, lock: asyncio.Lock) -> None:
        self._path = path
        self._lock = lock
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._connection: sqlite3.Connection | None = None
        self._pending: list[tuple[Job, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run `job` in a write transaction; its result once that transaction is committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((job, future))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        """Hand the waiting jobs to the thread, batch after batch, until none are left."""
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                async with self._lock:
                    try:
                        outcomes = await loop.run_in_executor(
                            self._thread, self._transaction, [job for job, _ in batch]
                        )
                    except BaseException as exc:  # the transaction itself failed: nothing is stored
                        outcomes = [(False, exc)] * len(batch)
                for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():  # its caller went away (cancelled); the work is stored anyway
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:
            self._flusher = None

    def _transaction(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        connection = self._connect()
        outcomes: list[tuple[bool, Any]] = []
        connection.execute("BEGIN IMMEDIATE")
        try:
            for job in jobs:
                connection.execute("SAVEPOINT job")
                try:
                    outcomes.append((True, job(connection)))
                except Exception as exc:
                    connection.execute("ROLLBACK TO job")
                    outcomes.append((False, exc))
                connection.execute("RELEASE job")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return outcomes

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self._path, isolation_level=None)  # BEGIN is ours
            for pragma in PRAGMAS:
                connection.execute(f"PRAGMA {pragma}")
            self._connection = connection
        return self._connection

    async def aclose(self) -> None:
        """Finish the jobs already handed over, then close the connection and end the thread."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        if self._connection is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._connection.close)
            self._connection = None
        self._thread.shutdown(wait=True)
