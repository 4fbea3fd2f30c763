"""The contract suite's fixture: one Service per parameter, `local` and `remote`, each on fresh data.

`local` is a LocalService in-process over its own SQLite file, acting as the local principal.
`remote` is a RemoteService against our server on 127.0.0.1 (uvicorn in a thread) over another
SQLite file, with a token holding every permission on the tenant `default`. Both therefore act
with the same rights on the same tenant, so every contract test expects the same outcome of both.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from core.auth import local_principal
from core.config import Settings
from core.service.base import Service
from core.service.local import LocalService
from core.service.remote import RemoteService
from core.service.runtime import Runtime
from tests.conftest import create_webhook_token, migrated_sqlite_url

TENANT = "default"


@dataclass
class Backend:
    kind: str
    service: Service
    database_url: str

    async def webhook_token(self) -> str:
        return await create_webhook_token(self.database_url, TENANT)


@asynccontextmanager
async def open_backend(kind: str, request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    if kind == "local":
        folder = request.getfixturevalue("tmp_path") / "local"  # the live server's file is tmp_path's
        folder.mkdir()
        settings = Settings(
            database_url=migrated_sqlite_url(folder), seed_demo=False, public_base_url="http://studio.test"
        )
        runtime = await Runtime.open(settings)
        service: Service = LocalService(runtime, local_principal(TENANT), owns_runtime=True)
        database_url = settings.database_url
    else:
        live = request.getfixturevalue("live_server")
        service = RemoteService(live.base_url, await live.token(TENANT), timeout=10)
        database_url = live.settings.database_url
    try:
        yield Backend(kind, service, database_url)
    finally:
        await service.aclose()


@pytest.fixture(params=["local", "remote"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    async with open_backend(request.param, request) as opened:
        yield opened


@pytest.fixture
async def pair(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Service, Service]]:
    """Both services side by side, each on its own fresh data, to compare their answers."""
    async with open_backend("local", request) as local, open_backend("remote", request) as remote:
        yield local.service, remote.service


@pytest.fixture
def service(backend: Backend) -> Service:
    """The Service under contract (shadows the LocalService-only fixture of tests/conftest.py)."""
    return backend.service
