"""Shared fixtures: settings on a fresh SQLite file, a runtime, a real uvicorn server, tokens.

The tests' own httpx clients pass ``verify=tls_context()`` (core.http), although they speak plain
HTTP to 127.0.0.1: a client given no context builds one from certifi's bundle, 20–35 ms of CPU,
and the suite makes hundreds.

PostgreSQL runs where FEEDBACK_STUDIO_TEST_POSTGRES_URL names a server: each test that asks for
it gets a database of its own, created and dropped around it.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import uvicorn

from core.auth import ALL_PERMISSIONS, Permission, local_principal, new_token
from core.config import Settings
from core.engine.text.preload import preload_in_background
from core.service.local import LocalService
from core.service.runtime import Runtime
from core.store import principals
from core.store.db import Database

os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="feedback-studio-tests-")
"""The suite keeps nothing in the user's own data directory (platformdirs reads this variable on
Linux): the web app's browser storage, its session secret and a default database go to a folder of
this run, so two runs at once (two checkouts, CI beside a developer) do not delete each other's
files, which made a web test fail at teardown."""
os.environ["FEEDBACK_STUDIO_UI_LANGUAGE"] = "en"
"""The suite reads the apps in English whatever the machine's locale; tests of another language
choose it themselves."""
POSTGRES_URL = os.environ.get("FEEDBACK_STUDIO_TEST_POSTGRES_URL")
SLOW_FOLDERS = ("hardening",)
"""Whole folders of slow tests: real processes killed and restarted, idle connections, fuzzing."""


def is_slow(item: pytest.Item) -> bool:
    """What `make test-fast` leaves out, by what the test needs rather than by a time measured:

    - a real browser (`browser`: Chromium driven by Playwright, seconds per journey);
    - a PostgreSQL server (`postgres`: a database created and dropped per test);
    - the hardening folder (processes killed and restarted, idle connections, fuzzing);
    - a Python process of its own (`process`: the command as a user starts it, every import paid
      again, about 1.5 s of CPU a start; the same commands run in-process in the fast set);
    - a whole-screen SVG snapshot (`snap_compare`: a journey to the screen, then the SVG drawn and
      compared; the journeys themselves are tested in the fast set without the picture);
    - a long journey through the terminal app (`journey`: several screens, 3 s of CPU or more on
      the 2-core machine); a shorter test of the fast set visits each of those screens.

    `make test` runs everything; README.md (Tests) and docs/performance.md have the numbers.
    """
    return (
        item.path.parent.name in SLOW_FOLDERS
        or item.get_closest_marker("browser") is not None
        or item.get_closest_marker("process") is not None
        or item.get_closest_marker("journey") is not None
        or "postgres" in item.keywords
        or "snap_compare" in getattr(item, "fixturenames", ())
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`slow` marks what `make test-fast` leaves out (see ``is_slow``)."""
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)


FROZEN_GROWTH_BEFORE_A_FULL_COLLECTION = 1_000_000
"""Objects frozen since the last full collection that make the next test start with one."""
_frozen_since_full_collection = 0


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """What exists before a test starts is frozen (``gc.freeze``): the collector no longer walks it.

    The suite's heap grows to over a million objects (every module of the apps, Textual's style
    caches, the sentence encoder), and a full collection walks all of them: NiceGUI's user
    simulation asks for two per test and Python starts others by itself, which made the collector
    about half of the CPU time of the terminal and web app tests. Frozen, it walks only what the
    running test made, and it still collects that test's garbage as before. What earlier tests
    left in cycles (a finished app's widget tree) is frozen with the rest, so once the frozen
    part has grown by ``FROZEN_GROWTH_BEFORE_A_FULL_COLLECTION`` objects, everything is unfrozen
    and collected once: memory stays below what the suite took before (never collecting it made
    the terminal app's tests slower, not faster), and tests that leave little garbage rarely pay.

    The growth is counted in the young generations, the objects about to be frozen, and not with
    ``gc.get_freeze_count()``, which walks the whole frozen part (20 ms for two million objects,
    before every test).
    """
    global _frozen_since_full_collection
    _frozen_since_full_collection += sum(len(gc.get_objects(generation)) for generation in range(3))
    if _frozen_since_full_collection > FROZEN_GROWTH_BEFORE_A_FULL_COLLECTION:
        gc.unfreeze()
        gc.collect()
        _frozen_since_full_collection = 0
    gc.freeze()


_RESERVED: dict[int, socket.socket] = {}
"""Ports handed out by ``free_port``, still bound, until a ``ServerThread`` listens on them."""


def free_port(*, reserve: bool = True) -> int:
    """A free port of 127.0.0.1, by default still bound, so nothing else takes it, until a
    ``ServerThread`` serves on it. (Closing the socket here and binding again later raced: another
    server sometimes got the same port in between, and the first failed to start.) A port no
    server takes stays bound and refuses connections, as a test of an unreachable server wants.

    ``reserve=False`` releases it at once, for a server in another process, which binds it itself.
    """
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    if reserve:
        _RESERVED[port] = s
    else:
        s.close()
    return port


def sqlite_url(tmp_path) -> str:
    """A database file in ``tmp_path`` that does not exist yet: the first start creates its schema."""
    return f"sqlite+aiosqlite:///{tmp_path / 'studio.sqlite3'}"


def migrated_sqlite_url(tmp_path) -> str:
    """Like ``sqlite_url``, but the file is there already, with the newest schema and nothing in it
    (a file the test put there before is left as it is, as ``sqlite_url`` would find it).

    Running the migrations costs about 0.2 s, and hundreds of tests start on an empty store: each
    gets a copy of one database migrated once per test process. (The migrations themselves are
    tested where that is the subject: tests/core/store, the first start of the CLI and the apps.)
    """
    path = tmp_path / "studio.sqlite3"
    if not path.exists():
        shutil.copy(_migrated_template(), path)
    return f"sqlite+aiosqlite:///{path}"


@cache
def _migrated_template() -> Path:
    path = Path(tempfile.mkdtemp(prefix="feedback-studio-template-")) / "studio.sqlite3"

    async def migrate() -> None:
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await db.migrate()
        finally:
            await db.aclose()

    # in a thread of its own: the callers may be running an event loop (an async fixture)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, migrate()).result()
    return path


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        database_url=migrated_sqlite_url(tmp_path), seed_demo=False, public_base_url="http://studio.test"
    )


@pytest.fixture
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    rt = await Runtime.open(settings)
    yield rt
    await rt.aclose()


@pytest.fixture
def service(runtime: Runtime) -> LocalService:
    """The embedded service as the local UIs use it: every permission on the default tenant."""
    return LocalService(runtime, local_principal(runtime.settings.default_tenant))


async def create_token(database_url: str, tenant: str, *permissions: Permission, name: str = "test") -> str:
    """A bearer token for a new principal with the given permissions on one tenant."""
    db = Database(database_url)
    token = new_token("fs")
    try:
        granted = frozenset(permissions or ALL_PERMISSIONS) | {Permission.ACCESS}
        await db.run_write(lambda c: principals.create_principal(c, name, tenant, granted, token))
    finally:
        await db.aclose()
    return token


async def create_webhook_token(database_url: str, tenant: str) -> str:
    db = Database(database_url)
    token = new_token("wh")
    try:
        await db.run_write(lambda c: principals.create_webhook_token(c, tenant, token))
    finally:
        await db.aclose()
    return token


@dataclass
class LiveServer:
    base_url: str
    settings: Settings

    async def token(self, tenant: str = "default", *permissions: Permission) -> str:
        return await create_token(self.settings.database_url, tenant, *permissions)

    async def webhook_token(self, tenant: str = "default") -> str:
        return await create_webhook_token(self.settings.database_url, tenant)


class ServerThread:
    """uvicorn serving an ASGI app on 127.0.0.1 in a thread of its own (its own event loop)."""

    def __init__(self, app, port: int) -> None:
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        sockets = [_RESERVED.pop(port)] if port in _RESERVED else None
        self.thread = threading.Thread(target=self.server.run, args=(sockets,), daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(tmp_path) -> Iterator[LiveServer]:
    """The API served by uvicorn on 127.0.0.1 over a fresh SQLite database."""
    yield from _serve(tmp_path)


@pytest.fixture(scope="module")
def module_live_server(tmp_path_factory) -> Iterator[LiveServer]:
    """One live server for a whole module of tests that do not disturb each other."""
    yield from _serve(tmp_path_factory.mktemp("server"))


def _serve(tmp_path) -> Iterator[LiveServer]:
    from core.server.app import create_app

    port = free_port()
    settings = Settings(
        database_url=migrated_sqlite_url(tmp_path),
        seed_demo=False,
        port=port,
        public_base_url=f"http://127.0.0.1:{port}",
    )
    with ServerThread(create_app(settings), port):
        # The text models are the process's, loaded once by the thread the first runtime started
        # (core.engine.text.preload); the first chat or freeform judgement of a worker would wait for
        # them on the server's loop, which on a loaded machine took longer than the clients' 5 or
        # 10 s timeouts. The tests are about what the server answers, not how soon a process starts.
        preload_in_background().join()
        yield LiveServer(f"http://127.0.0.1:{port}", settings)


@pytest.fixture
def text_models_loaded() -> None:
    """The process's text models loaded (core.engine.text.preload) before a test that times a
    remote's deadline in an app of this process. The app's first runtime starts loading them; the
    lemma dictionaries' second of pure Python, stretched on a loaded machine, holds the app's loop
    past its deadline, and a remote that answers in milliseconds is said not to answer."""
    preload_in_background().join()


def _postgres_admin(sql: str) -> None:
    import asyncpg

    async def execute() -> None:
        connection = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(execute())


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (skips without FEEDBACK_STUDIO_TEST_POSTGRES_URL)."""
    if not POSTGRES_URL:
        pytest.skip("FEEDBACK_STUDIO_TEST_POSTGRES_URL is not set: no PostgreSQL server to test against")
    name = f"fs_test_{uuid.uuid4().hex[:12]}"
    _postgres_admin(f'CREATE DATABASE "{name}"')
    yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    _postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request, tmp_path) -> str:
    """Store tests take this to run on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    return request.getfixturevalue("postgres_url")
