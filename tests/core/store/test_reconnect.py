"""PostgreSQL's pool: connections kept under load, and those the server dropped found by a ping
only after idling, else by the write.

The pool does not ping on every checkout (a round trip per request): a connection used a moment
ago is used as it is, and one the server dropped meanwhile fails its first statement, after which
the write runs again on a new connection. One idle for a while is pinged first.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy import Connection, event, text

from core.store import db as db_module
from core.store.db import Database
from tests.conftest import POSTGRES_URL


def answer(connection: Connection) -> int:
    return connection.execute(text("SELECT 42")).scalar_one()


async def drop_connections(url: str) -> int:
    """Terminate the server side of every connection to the database of `url`."""
    admin = await asyncpg.connect((POSTGRES_URL or "").replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1",
            url.rsplit("/", 1)[1],
        )
    finally:
        await admin.close()


@pytest.fixture
async def database(postgres_url, monkeypatch):
    """The Database of a fresh PostgreSQL database, counting the pool's pings."""
    database = Database(postgres_url)
    pings = []
    ping = database.engine.dialect.do_ping
    monkeypatch.setattr(database.engine.dialect, "do_ping", lambda c: pings.append(1) or ping(c))
    monkeypatch.setattr(db_module, "IDLE_PING_SECONDS", 0.3)
    yield database, pings
    await database.aclose()


async def test_writes_one_after_another_are_not_pinged(database):
    database, pings = database
    assert [await database.run_write(answer) for _ in range(5)] == [42] * 5
    assert pings == []


async def test_a_connection_dropped_under_use_fails_its_write_once_and_the_write_is_run_again(database):
    database, pings = database
    await database.run_write(answer)
    assert await drop_connections(database.url) == 1
    assert await database.run_write(answer) == 42
    assert pings == []


async def test_a_connection_dropped_while_idle_is_found_by_a_ping(database, caplog):
    database, pings = database
    await database.run_write(answer)
    assert await drop_connections(database.url) == 1
    await asyncio.sleep(0.4)
    assert await database.run_write(answer) == 42
    assert pings == [1]
    assert "runs again" not in caplog.text  # the ping found it, not the write


async def slow_read(database: Database) -> int:
    return await database.run_read(lambda c: c.execute(text("SELECT 42 FROM pg_sleep(0.02)")).scalar_one())


async def test_more_requests_at_once_than_the_pool_holds_wait_for_its_connections_and_keep_them(database):
    """A process never opens more than POOL_SIZE connections, and keeps those it opened: with
    overflow connections, every request beyond the pool's size opened a connection (TCP, TLS
    attempt, authentication, statements prepared anew) and closed it again on return
    (docs/performance.md)."""
    database, _ = database
    opened: list[int] = []
    event.listen(database.engine.sync_engine, "connect", lambda *_: opened.append(1))
    burst = db_module.POOL_SIZE * 2
    assert await asyncio.gather(*(slow_read(database) for _ in range(burst))) == [42] * burst
    assert len(opened) == db_module.POOL_SIZE
    assert await asyncio.gather(*(slow_read(database) for _ in range(burst))) == [42] * burst
    assert len(opened) == db_module.POOL_SIZE  # the second burst found them all in the pool
