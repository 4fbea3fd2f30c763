"""The process-wide state behind LocalService: settings, database, catalogue and engine caches.

One Runtime serves every principal of a process (the API's callers and the local UIs alike);
a LocalService is a cheap view of it for one principal. Nothing kept here is needed by another
process: caches are keyed by content hashes and revisions read from the database.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from functools import lru_cache, partial
from typing import Generic, TypeVar
from urllib.parse import quote

from sqlalchemy import Connection

from core.api import TaskBase, TutorUpsert, parse_task
from core.assets import demo_tasks, demo_tutors, load_catalogue
from core.config import Settings
from core.engine.base import GradedExample
from core.engine.messages import Catalogue
from core.engine.text.preload import preload_in_background
from core.service.base import Service
from core.store import conversations, principals, tasks
from core.store.db import Database
from core.store.task_history import DEMO_AUTHOR
from core.store.tasks import TaskRevision

log = logging.getLogger(__name__)
PRINCIPAL_TTL_SECONDS = 5.0
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """A small least-recently-used map of ``K`` to ``V``; enough for per-task data keyed by version.

    Thread-safe: while another process holds SQLite's write lock, the writer's jobs run on its
    thread (core.store.writer) and read the caches the event loop fills.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            return None

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)


class TimedCache(Generic[V]):
    """Values kept for `ttl` seconds, each computed by one caller however many ask at once.

    Without the single flight, every request in flight when an entry expires ran its own lookup:
    32 concurrent requests stalled together for a quarter of a second every few seconds.
    A computation that fails, or gives None, is not kept.
    """

    def __init__(self, ttl: float, size: int = 1024) -> None:
        self._ttl = ttl
        self._items: LruCache[Hashable, tuple[V, float]] = LruCache(size)
        """Each value with the monotonic time it expires at."""
        self._pending: dict[Hashable, asyncio.Future[V | None]] = {}

    def fresh(self, key: Hashable) -> V | None:
        """The value if it is kept and has not expired (no waiting, no coroutine: the usual case)."""
        entry = self._items.get(key)
        if entry is None:
            return None
        value, expires = entry
        return value if expires > time.monotonic() else None

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[V | None]]) -> V | None:
        if (value := self.fresh(key)) is not None:
            return value
        pending = self._pending.get(key)
        if pending is None:
            pending = self._pending[key] = asyncio.ensure_future(compute())
            pending.add_done_callback(lambda done: self._settle(key, done))
        return await asyncio.shield(pending)

    def _settle(self, key: Hashable, done: asyncio.Future[V | None]) -> None:
        del self._pending[key]
        if done.cancelled() or done.exception() is not None:
            return
        if (value := done.result()) is not None:
            self._items.put(key, (value, time.monotonic() + self._ttl))


@lru_cache(maxsize=4096)
def _path_segment(value: str) -> str:
    """A value percent-encoded as one segment of a URL path, remembered (every feedback links its
    task, and the same few tenants and tasks come again and again)."""
    return quote(value, safe="")


class Runtime:
    def __init__(self, settings: Settings, db: Database, catalogue: Catalogue) -> None:
        self.settings = settings
        self.db = db
        self.catalogue = catalogue
        self.graded_cache: LruCache[tuple[str, str, int], tuple[GradedExample, ...]] = LruCache()
        """A freeform task's graded answers by (tenant, task id, their count: the revision)."""
        self.task_cache: LruCache[tuple[str, str, str], TaskBase] = LruCache(1024)
        """Stored task definitions as models by (tenant, task id, content hash): compute by id
        parses a task once per revision, not once per answer."""
        self.revisions: LruCache[tuple[str, str], TaskRevision] = LruCache(4096)
        """Each task's revision by (tenant, task id) as the last read or write of this process found
        it: what the next answer is judged against, checked by the write that records it
        (core.service.feedback)."""
        self.callers: TimedCache[Service] = TimedCache(PRINCIPAL_TTL_SECONDS)
        """The API's callers by token hash: each the LocalService of the token's principal, built once
        per TTL rather than per request (core.server.deps); a revoked token or a changed grant is
        noticed within the TTL."""

    @classmethod
    async def open(cls, settings: Settings) -> Runtime:
        db = Database(settings.database_url)
        await db.migrate()
        runtime = cls(settings, db, load_catalogue())
        await db.run_write(
            partial(principals.ensure_tenant, tenant_id=settings.default_tenant, name="Default tenant")
        )
        if settings.seed_demo:
            await runtime.seed_demo_if_empty()
        # The freeform judge's encoder and lemma dictionaries load in the background (about 2 s),
        # after the store is ready, so the health check and the apps' first screens never wait.
        preload_in_background()
        return runtime

    async def text_models(self) -> None:
        """Wait, off the event loop, until the text models have loaded. A request that judges
        free text before the background load ends would otherwise load them itself, inside a job
        of the store's writer on the event loop, and hold every other request of the process
        (health checks, choice tasks) for the seconds that takes."""
        loading = preload_in_background()
        if loading.is_alive():
            await asyncio.to_thread(loading.join)

    def task_link(self, tenant_id: str, task_id: str) -> str:
        """The task's page in the web app; ids are percent-encoded ("Übung 1", "a?b" stay one link)."""
        return f"{self.settings.base_url}/tasks/{_path_segment(tenant_id)}/{_path_segment(task_id)}"

    async def seed_demo_if_empty(self, tenant_id: str | None = None) -> int:
        """Seed the demo tasks into a tenant that has none; returns how many were added."""
        tenant_id = tenant_id or self.settings.default_tenant
        if await self.db.run_read(partial(tasks.list_tasks, tenant_id=tenant_id, recent=0)):
            return 0
        return await self.seed_demo(tenant_id)

    async def seed_demo(self, tenant_id: str) -> int:
        """Add the demo tasks and their tutors to a tenant; returns the task count.

        Each tenant names its own tutors, so every tenant gets the demo tutors under their own ids;
        a tutor the tenant has already (perhaps changed since) is left as it is."""
        seeded = [parse_task(document) for document in demo_tasks()]
        tutors = {document["id"]: TutorUpsert.model_validate(document) for document in demo_tutors()}

        def seed(connection: Connection) -> None:
            principals.ensure_tenant(connection, tenant_id)
            for task in seeded:
                tasks.write_task(connection, tenant_id, task, author=DEMO_AUTHOR)
            for tutor_id, tutor in tutors.items():
                if conversations.read_tutor(connection, tenant_id, tutor_id) is None:
                    conversations.write_tutor(connection, tenant_id, tutor_id, tutor.to_wire())

        await self.db.run_write(seed)
        added = len(seeded)
        log.info("seeded %d demo tasks into tenant %s", added, tenant_id)
        return added

    async def aclose(self) -> None:
        await self.db.aclose()
