"""The store's one writer: the write jobs of concurrent requests share a transaction (group commit).

A job is a plain function of a synchronous SQLAlchemy connection (every store function is one).
GroupCommit queues the jobs; those that arrive while a batch commits form the next batch, and each
job's result is delivered only after the COMMIT that made its writes durable. A job that raises
leaves nothing behind and does not disturb the rest of its batch. SqliteWriter commits a batch on
a SQLite file, on the event loop; ServerWriter on PostgreSQL. docs/architecture.md (The store)
tells which runs where and why.

Two things a batch does for all its jobs at once, so that a job costs little more than its own
statements:

- rows nothing reads back in the transaction (every feedback's interaction) are handed to
  insert_at_commit and inserted by one executemany per table just before the COMMIT;
- what a job reads first (a Prefetching job: a feedback's task revision) is read for every job of
  the batch in one statement. The store function that changes such a value drops it
  (invalidate), so a later job of the batch reads it anew; callers never see this cache.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import stamina
from sqlalchemy import Connection, Executable, create_engine, event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import StaticPool

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
Job = Callable[[Connection], Any]
"""A write transaction's work: a plain function of a SQLAlchemy connection (core.store's functions)."""
BUSY_TIMEOUT_MS = 30000
PRAGMAS = (f"busy_timeout={BUSY_TIMEOUT_MS}", "journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON")
"""Every connection's settings (apply_pragmas), the SQLAlchemy engine's (core.store.db) too."""
CHECKPOINT_EVERY = 1000
"""Committed jobs between two checkpoints (SQLite's automatic one comes after about 1000 pages)."""
WAL_LIMIT_PAGES = 16384
"""Beyond this (64 MB of 4 KB pages) the log starts over, making writers wait (on the thread) for
the checkpoint (see SqliteWriter.checkpoint): at 3,000 feedbacks a second about once every ten
seconds."""

DEFERRED = "feedback_studio.deferred_inserts"
"""The key, in the writer's connection.info, of the rows its batch inserts before COMMIT."""
PREFETCHED = "feedback_studio.prefetched"
"""The key, in connection.info, of what the batch's Prefetching jobs read (by their `many`, then key)."""


@dataclass(frozen=True, slots=True)
class Prefetching(Generic[K, V, T]):
    """A job that starts from the value of `key`: `many(connection, keys)` reads the values of many
    keys in one statement (None where nothing is stored), and the writer reads those of all the
    Prefetching jobs of a batch at once. `then(connection, value)` is the job's work. Outside a
    batch that read it (a job alone, an in-memory database) the value is read when the job runs."""

    many: Callable[[Connection, Sequence[K]], dict[K, V]]
    key: K
    then: Callable[[Connection, V], T]

    def __call__(self, connection: Connection) -> T:
        known = _known(connection, self.many)
        value = known[self.key] if self.key in known else self.many(connection, [self.key])[self.key]
        return self.then(connection, value)


def _known(connection: Connection, many: Callable[..., dict[Any, Any]]) -> dict[Any, Any]:
    """The values the batch read with `many`, by key (empty outside a batch that read them)."""
    known: dict[Any, dict[Any, Any]] | None = connection.info.get(PREFETCHED)
    return known.get(many, {}) if known else {}


def invalidate(connection: Connection, many: Callable[..., dict[Any, Any]], key: Hashable) -> None:
    """What `key` names changes in this transaction: the batch's later jobs read it anew. Called
    by the store function that makes the change (core.store.tasks), never by its callers."""
    _known(connection, many).pop(key, None)


def _prefetch(connection: Connection, jobs: Sequence[Job]) -> None:
    """Make the batch's Prefetching reads, one statement per kind of read."""
    keys: dict[Any, dict[Hashable, None]] = {}
    for job in jobs:
        if isinstance(job, Prefetching):
            keys.setdefault(job.many, {})[job.key] = None
    connection.info[PREFETCHED] = {many: many(connection, list(wanted)) for many, wanted in keys.items()}


log = logging.getLogger(__name__)


def insert_at_commit(connection: Connection, statement: Executable, values: dict[str, Any]) -> None:
    """Insert a row in the job's transaction; on the writer, with its batch's other rows of the
    same statement, just before the COMMIT (so the job must not read the row back). A job that
    fails inserts none of its rows."""
    deferred = connection.info.get(DEFERRED)
    if deferred is None:
        connection.execute(statement, values)
    else:
        deferred.append((statement, values))


def apply_pragmas(connection: Any) -> None:
    """PRAGMAS on a new DBAPI connection (sqlite3's, or SQLAlchemy's adapter of aiosqlite).

    Switching a brand-new database to WAL takes its exclusive lock, and where waiting could
    deadlock with another connection opening it at the same moment (`serve --workers N` on a new
    file), SQLite answers "database is locked" at once, busy timeout or not: such a statement is
    tried again for a few seconds.
    """
    cursor = connection.cursor()
    try:
        for pragma in PRAGMAS:
            _execute_while_locked(cursor, f"PRAGMA {pragma}")
    finally:
        cursor.close()


def _locked(error: Exception) -> bool:
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


@stamina.retry(on=_locked, attempts=50, timeout=10.0, wait_initial=0.01, wait_max=0.2)
def _execute_while_locked(cursor: Any, sql: str) -> None:
    cursor.execute(sql)


def _on_connect(dbapi_connection: Any, _record: Any) -> None:
    apply_pragmas(dbapi_connection)


def _outcome(connection: Connection, job: Job) -> tuple[bool, Any]:
    """The job's result or exception; a failed job's deferred rows are dropped."""
    deferred = connection.info[DEFERRED]
    mark = len(deferred)
    try:
        return True, job(connection)
    except Exception as exc:
        del deferred[mark:]
        return False, exc


def _insert_deferred(connection: Connection) -> None:
    """The rows the jobs handed to insert_at_commit: one executemany per statement."""
    deferred: list[tuple[Executable, dict[str, Any]]] = connection.info[DEFERRED]
    by_statement: dict[Executable, list[dict[str, Any]]] = {}
    for statement, values in deferred:
        by_statement.setdefault(statement, []).append(values)
    deferred.clear()
    for statement, rows in by_statement.items():
        connection.execute(statement, rows)


def _with_deferred(job: Job) -> Job:
    """`job`, then the rows it deferred: a job that runs alone (or under its own SAVEPOINT) fails
    if they do."""

    def run(connection: Connection) -> Any:
        result = job(connection)
        _insert_deferred(connection)
        return result

    return run


class _WroteThenFailed(Exception):
    """A job of a batch raised after it had changed rows: the batch is run again with SAVEPOINTs."""


def _undone_if_failed(connection: Connection, driver: sqlite3.Connection, job: Job) -> tuple[bool, Any]:
    """The job's outcome; raises _WroteThenFailed if it failed after changing rows, which only a
    rollback undoes. (total_changes counts the rows changed by this connection's statements; a
    statement that fails changes none. `driver` is the pysqlite connection under `connection`.)"""
    before = driver.total_changes
    outcome = _outcome(connection, job)
    if not outcome[0] and driver.total_changes != before:
        raise _WroteThenFailed
    return outcome


def _in_savepoint(connection: Connection, job: Job) -> tuple[bool, Any]:
    """The job's outcome, its deferred rows inserted; if it raised, whatever it wrote is undone."""
    driver = _driver(connection)
    driver.execute("SAVEPOINT job")
    outcome = _outcome(connection, _with_deferred(job))
    if not outcome[0]:
        driver.execute("ROLLBACK TO job")
    driver.execute("RELEASE job")
    return outcome


def _driver(connection: Connection) -> sqlite3.Connection:
    """The pysqlite connection under `connection`: the writer's own transaction statements (BEGIN,
    SAVEPOINT, COMMIT) go straight to it, sparing SQLAlchemy's execution machinery (a quarter of a
    job's statements). SQLAlchemy types it as any DB-API connection (or None once closed); the
    writer's engine is pysqlite's, so it is sqlite3's."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


class GroupCommit:
    """The queue of write jobs: a batch is every job that arrived while the previous one committed;
    each job's result or exception is delivered once its batch is over (_commit's outcomes)."""

    def __init__(self, lock: asyncio.Lock) -> None:
        self._lock = lock
        self._pending: list[tuple[Job, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, job: Callable[[Connection], T]) -> T:
        """Run `job` in a write transaction; its result once that transaction is committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((job, future))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        """Commit the waiting jobs, batch after batch, until none are left."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                jobs = [job for job, _ in batch]
                async with self._lock:
                    try:
                        outcomes = await self._commit(jobs)
                    except Exception as exc:  # the transaction itself failed: nothing is stored
                        outcomes = [(False, exc)] * len(batch)
                for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():  # its caller went away (cancelled); the work is stored anyway
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
                self._after_commit(len(batch))
        finally:
            self._flusher = None

    async def _commit(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """Each job's outcome (ok, result or exception), its writes committed if ok."""
        raise NotImplementedError

    def _after_commit(self, jobs: int) -> None:
        """Called after every batch with its number of jobs."""

    async def aclose(self) -> None:
        """Finish the jobs handed over."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)


class SqliteWriter(GroupCommit):
    def __init__(self, path: str, lock: asyncio.Lock, *, json_serializer: Callable[[Any], str]) -> None:
        super().__init__(lock)
        self._path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        # One connection, used by one batch at a time (from the loop, or the thread when waiting);
        # BEGIN, SAVEPOINT and COMMIT are ours, so SQLAlchemy's own transaction handling is off.
        self._engine = create_engine(
            f"sqlite:///{path}",
            poolclass=StaticPool,
            isolation_level="AUTOCOMMIT",
            connect_args={"check_same_thread": False},
            json_serializer=json_serializer,
        )
        event.listen(self._engine, "connect", _on_connect)
        self._connection: Connection | None = None
        self._checkpoint_connection: sqlite3.Connection | None = None
        self._since_checkpoint = 0
        self._checkpoint: asyncio.Future[None] | None = None

    async def _commit(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        connection = self._connect()
        try:
            _driver(connection).execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # another process writes: wait for it off the loop
            return await asyncio.get_running_loop().run_in_executor(self._thread, self._waiting, jobs)
        return self._transaction(connection, jobs)

    def _waiting(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        connection = self._connect()
        driver = _driver(connection)
        driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            driver.execute("BEGIN IMMEDIATE")
            return self._transaction(connection, jobs)
        finally:
            driver.execute("PRAGMA busy_timeout=0")

    @staticmethod
    def _transaction(connection: Connection, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """Run the jobs in the transaction just begun, and commit it.

        Beside others, the Prefetching jobs' reads are made first, for all of them at once. They
        stay good when the batch starts over from its SAVEPOINT (that undoes only what jobs wrote,
        and a job that changed a value dropped it).

        A job that raises leaves nothing behind: alone in its batch, its transaction is rolled
        back; beside others, it either changed no rows (the usual failure, which needs no undoing)
        or the batch starts over from its one SAVEPOINT, every job then under a SAVEPOINT of its
        own. The same happens when inserting the batch's deferred rows fails, which the jobs'
        own SAVEPOINTs then lay at the door of the job that deferred the failing row. Jobs are
        plain functions of the database that change rows (no schema), and their results are
        delivered only after the COMMIT, so running them again is safe.
        """
        driver = _driver(connection)
        connection.info[DEFERRED].clear()
        try:
            if len(jobs) == 1:
                outcomes = [_outcome(connection, _with_deferred(jobs[0]))]
            else:
                _prefetch(connection, jobs)
                driver.execute("SAVEPOINT batch")
                try:
                    outcomes = [_undone_if_failed(connection, driver, job) for job in jobs]
                    _insert_deferred(connection)
                except Exception:  # _WroteThenFailed, or a deferred row was refused
                    driver.execute("ROLLBACK TO batch")  # keeps the transaction, and its lock
                    connection.info[DEFERRED].clear()
                    outcomes = [_in_savepoint(connection, job) for job in jobs]
            driver.execute("COMMIT" if any(ok for ok, _ in outcomes) else "ROLLBACK")
        except BaseException:
            if driver.in_transaction:
                driver.execute("ROLLBACK")
            raise
        finally:
            connection.info.pop(PREFETCHED, None)
        return outcomes

    def _connect(self) -> Connection:
        if self._connection is None:
            self._connection = self._engine.connect()
            self._connection.info[DEFERRED] = []
            self._connection.exec_driver_sql("PRAGMA busy_timeout=0")
            self._connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        return self._connection

    def _after_commit(self, jobs: int) -> None:
        """Start a checkpoint once enough has been written since the last one."""
        self._since_checkpoint += jobs
        if self._since_checkpoint < CHECKPOINT_EVERY or self._checkpoint is not None:
            return
        self._since_checkpoint = 0
        self._checkpoint = asyncio.ensure_future(self.checkpoint())
        self._checkpoint.add_done_callback(self._checkpoint_done)

    async def checkpoint(self) -> None:
        """Copy the log into the database, on the thread.

        PASSIVE copies what it can without waiting for (or blocking) readers and writers. The log
        starts over only once a checkpoint has copied all of it, which never happens while writes
        keep coming; when it has grown past WAL_LIMIT_PAGES, a RESTART checkpoint holds new writers
        back (they wait on the thread, not on the event loop) until it has, and the next write
        starts the log over from the beginning of its file. The file keeps its size (about the
        limit) and is written over: emptying it as well (TRUNCATE) held the writers twice as long,
        25 against 45-50 ms, which set the p99 of every write-heavy route (docs/performance.md).
        """
        await asyncio.get_running_loop().run_in_executor(self._thread, self._checkpoint_now)

    def _checkpoint_now(self) -> None:
        if self._checkpoint_connection is None:
            self._checkpoint_connection = sqlite3.connect(self._path, isolation_level=None)
            apply_pragmas(self._checkpoint_connection)
        _, pages, _ = self._checkpoint_connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if pages > WAL_LIMIT_PAGES:
            self._checkpoint_connection.execute("PRAGMA wal_checkpoint(RESTART)")

    def _checkpoint_done(self, done: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("WAL checkpoint failed (retried after the next writes): %s", done.exception())

    async def aclose(self) -> None:
        """Finish the jobs handed over, then close the connections and end the thread."""
        await super().aclose()
        if self._checkpoint is not None:
            await asyncio.shield(self._checkpoint)
        loop = asyncio.get_running_loop()
        if self._checkpoint_connection is not None:
            await loop.run_in_executor(self._thread, self._checkpoint_connection.close)
            self._checkpoint_connection = None
        self._thread.shutdown(wait=True)
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._engine.dispose()  # the last connection to close checkpoints the WAL


class _BatchRefused(Exception):
    """A job of a PostgreSQL batch, or the batch's deferred rows, raised: nothing was committed."""


class _CommitFailed(Exception):
    """The COMMIT of a PostgreSQL batch raised (its cause): it may have committed, so nothing runs again."""


def _all_or_nothing(connection: Connection, jobs: list[Job]) -> list[tuple[bool, Any]]:
    """Every job and the rows they deferred in one transaction, committed, the Prefetching jobs'
    reads made first for all of them at once; _BatchRefused if any of them raised (the transaction is then rolled
    back when the connection returns to the pool)."""
    connection.info[DEFERRED] = []
    try:
        transaction = connection.begin()
        _prefetch(connection, jobs)
        results = [job(connection) for job in jobs]
        _insert_deferred(connection)
    except Exception as exc:
        raise _BatchRefused from exc
    finally:  # the pooled connection also serves single jobs
        del connection.info[DEFERRED]
        connection.info.pop(PREFETCHED, None)
    try:
        transaction.commit()
    except Exception as exc:
        raise _CommitFailed from exc
    return [(True, result) for result in results]


class ServerWriter(GroupCommit):
    """PostgreSQL's writer: the jobs that arrive together run in one transaction on one pooled
    connection, so they share its BEGIN and COMMIT and their deferred rows are inserted by one
    executemany (each a round trip to the server, and through SQLAlchemy's greenlet layer).

    A failed statement aborts a PostgreSQL transaction, and unlike SQLite it does not tell whether
    a job that raised had written, so a batch is all or nothing: if any job raised (a missing task,
    a refused permission, a deadlock with another process), the batch is rolled back and every job
    runs again in a transaction of its own (`alone`, Database's path for single writes, which also
    runs a write again on a new connection when its pooled one turned out broken). A job alone in
    its batch takes that path at once. A failed COMMIT fails the whole batch: it may have
    committed, so it is not run again.
    """

    def __init__(self, engine: AsyncEngine, alone: Callable[[Job], Awaitable[Any]]) -> None:
        super().__init__(asyncio.Lock())
        self._engine = engine
        self._alone = alone

    async def _commit(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        if len(jobs) > 1:
            try:
                async with self._engine.connect() as connection:
                    return await connection.run_sync(_all_or_nothing, jobs)
            except _CommitFailed as failed:
                return [(False, failed.__cause__)] * len(jobs)
            except Exception:  # _BatchRefused, or no connection: each job on its own says why
                pass
        results = await asyncio.gather(*(self._alone(job) for job in jobs), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, Exception):
                raise result  # cancelled: not an outcome of the job
        return [(False, r) if isinstance(r, Exception) else (True, r) for r in results]
