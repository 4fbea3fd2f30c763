"""The database: SQLite by default, PostgreSQL by URL; migrated on open. Every access is a job
(a plain function of a synchronous SQLAlchemy connection) run by Database.run_write or run_read:

- a SQLite file: the store's writer (core.store.writer.SqliteWriter) runs reads and writes, on
  the event loop, in batches (group commit);
- PostgreSQL: the writer (ServerWriter) runs writes in batches; a read runs on a pooled connection;
- an in-memory SQLite: each job in a transaction of its own on the database's one connection.

SQLite runs in WAL mode with synchronous=NORMAL: a committed transaction survives a crash of the
process (only a power loss may drop the last commits), and readers never wait for the writer.
Write transactions on SQLite begin IMMEDIATE, so that two writers queue on the lock instead of
failing when a read lock would have to be upgraded.
"""

from __future__ import annotations

import ast
import asyncio
import json
import logging
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    event,
    inspect,
    make_url,
    text,
)
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from core.api import ApiModel
from core.store.models import Base
from core.store.writer import GroupCommit, ServerWriter, SqliteWriter, apply_pragmas

if TYPE_CHECKING:
    from alembic.config import Config

T = TypeVar("T")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 0x46535F4D49475241  # "FS_MIGRA": the advisory lock key of schema migrations
POOL_SIZE = 30
"""PostgreSQL connections a process opens at most, and keeps: a request that finds them all in use
waits for one. (With overflow connections above a smaller pool, every request beyond the pool's
size opened a connection and closed it on return; docs/performance.md has what that cost.)"""
IDLE_PING_SECONDS = 1.0
"""A pooled PostgreSQL connection idle for longer than this is pinged before it is used."""

log = logging.getLogger(__name__)


def json_text(value: Any) -> str:
    """JSON columns take wire models as well as plain documents: a model is written as pydantic's
    JSON of it (a frozen one keeps it), not as json.dumps of its dump. None, which SQLAlchemy
    hands over for an absent document (an interaction's learner metadata, mostly), is the JSON
    null that json.dumps would write, without the call."""
    if value is None:
        return "null"
    return value.to_wire_json() if isinstance(value, ApiModel) else json.dumps(value)


def _sqlite_setup(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy, not the driver, emits BEGIN
        apply_pragmas(dbapi_connection)

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get("sqlite_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Database:
    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self._memory_lock = asyncio.Lock()
        self.writer: GroupCommit | None = None
        """The store's writer (run_write): a SQLite file's, or PostgreSQL's; an in-memory database,
        private to its one connection, has none."""
        if self.is_sqlite:
            file = make_url(url).database
            if file and file != ":memory:":
                Path(file).parent.mkdir(parents=True, exist_ok=True)
                self.writer = SqliteWriter(file, asyncio.Lock(), json_serializer=json_text)
            # Migrations (and an in-memory database's jobs) end every transaction themselves; the
            # pool's extra reset rollback would cost one more trip to the driver thread.
            self.engine = create_async_engine(
                url, echo=echo, pool_reset_on_return=None, json_serializer=json_text
            )
            _sqlite_setup(self.engine)
        else:
            self.engine = create_async_engine(
                url, echo=echo, pool_size=POOL_SIZE, max_overflow=0, json_serializer=json_text
            )
            _ping_when_idle(self.engine)
            self.writer = ServerWriter(self.engine, self._run_on_server)

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision, one process at a time.

        Every server process migrates as it starts, and `serve --workers N` starts them together:
        the migration holds a lock (PostgreSQL: an advisory lock for its transaction; SQLite:
        BEGIN IMMEDIATE), so one process creates the schema and the others then find it current.
        """
        engine = self.engine.execution_options(sqlite_immediate=True) if self.is_sqlite else self.engine
        async with engine.begin() as connection:
            if not self.is_sqlite:
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            await connection.run_sync(_upgrade)

    async def run_write(self, job: Callable[[Connection], T]) -> T:
        """`job(connection)` in a write transaction; its result once that transaction is committed.
        Whatever the job raises rolls back all it wrote. The job is a plain function of a
        synchronous connection (every store function is one), run by the store's writer (group
        commit, core.store.writer) or, on an in-memory SQLite, in a transaction of its own."""
        if self.writer is not None:
            return await self.writer.run(job)
        return await self._run_in_memory(job)

    async def run_read(self, job: Callable[[Connection], T]) -> T:
        """`job(connection)`, a plain function of a synchronous connection that only reads; its
        result. On a SQLite file the store's writer runs it beside the batch's other jobs, on the
        event loop (through the async driver every statement would be a hand-over to the driver's
        thread and back). On PostgreSQL it runs on a pooled connection of its own, not queued
        behind the writer's batches."""
        if self.is_sqlite:
            return await self.run_write(job)
        async with self.engine.connect() as connection:
            return await connection.run_sync(job)

    async def _run_in_memory(self, job: Callable[[Connection], T]) -> T:
        """An in-memory SQLite's jobs, one at a time on its one connection, each in a transaction
        of its own (the database lives and dies with the process: there is nothing to batch for)."""
        async with self._memory_lock, self.engine.begin() as connection:
            return await connection.run_sync(job)

    async def _run_on_server(self, job: Callable[[Connection], T]) -> T:
        """`job` in a transaction of its own on a pooled connection (PostgreSQL's writer runs a job
        so when it is alone in its batch, or its batch was refused); tried once more on a new connection if
        the first turned out broken before anything was committed (the database server restarted
        or dropped it while it sat in the pool). A failure of the COMMIT itself is not retried:
        the transaction may have been committed."""
        for attempt in (1, 2):
            ran = False
            try:
                async with self.engine.begin() as connection:
                    result = await connection.run_sync(job)
                    ran = True
                return result
            except DBAPIError as exc:
                if ran or not exc.connection_invalidated or attempt == 2:
                    raise
                log.warning("a pooled database connection was broken; the write runs again on a new one")
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        if self.writer is not None:
            await self.writer.aclose()
        await self.engine.dispose()


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Ping a pooled connection before use only if it sat idle for IDLE_PING_SECONDS or more.

    SQLAlchemy's pool_pre_ping pings on every checkout, a round trip to the server per request;
    under load connections return to the pool and leave it again within milliseconds, and one the
    server dropped meanwhile fails its first statement, which discards every connection of the pool
    older than that moment (a write is then retried, Database._run_on_server). What the ping still
    catches is a pool left alone across a restart or failover of the server: its first requests
    afterwards get new connections instead of errors.
    """

    @event.listens_for(engine.sync_engine.pool, "checkin")
    def _idle_from(_dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine.pool, "checkout")
    def _ping_if_idle(
        dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection
    ) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:  # the pool replaces the connection and checks out another
            raise DisconnectionError(f"a pooled connection failed its ping: {exc}") from exc


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def head_revisions() -> frozenset[str]:
    """The newest revisions of the migration scripts, read from their ``revision`` and
    ``down_revision`` assignments without loading Alembic (which costs a starting app 0.2 s), once
    a process: parsing the scripts took each opening of a database 8 ms (hundreds in the tests)."""
    revisions: set[str] = set()
    replaced: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        for node in ast.parse(script.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                target, assigned = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, assigned = node.target, node.value
            else:
                continue
            if not isinstance(target, ast.Name) or target.id not in ("revision", "down_revision"):
                continue
            value = ast.literal_eval(assigned)
            names = {value} if isinstance(value, str) else set(value or ())
            (revisions if target.id == "revision" else replaced).update(names)
    return frozenset(revisions - replaced)


def _is_current(connection: Connection) -> bool:
    """Whether the schema is at the newest revision already (the usual start: nothing to do)."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    stored = {row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))}
    return stored == head_revisions()


def _upgrade(connection: Connection) -> None:
    if _is_current(connection):
        return
    if not inspect(connection).get_table_names():
        _create_newest(connection)
        return
    from alembic import command

    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _create_newest(connection: Connection) -> None:
    """A new database: the newest schema made from the models in one step, marked with the head
    revisions as Alembic marks it. The first start of an app then loads no Alembic and runs no
    migration one by one (0.1 s of the terminal app's first start); the migrations make the same
    schema (tests/core/store/test_migrations.py compares them)."""
    Base.metadata.create_all(connection)
    version = Table(
        "alembic_version",
        MetaData(),
        Column("version_num", String(32), nullable=False),
        PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
    )
    version.create(connection)
    connection.execute(version.insert(), [{"version_num": head} for head in sorted(head_revisions())])
