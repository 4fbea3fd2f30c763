"""Durability: `feedback-studio serve` killed with SIGKILL under a write load, then restarted.

Every interaction the server answered with 200 before it died must still be there afterwards:
the server commits before it answers, SQLite runs in WAL with synchronous=NORMAL (a committed
transaction survives the death of the process) and PostgreSQL commits durably by default.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import create_token
from tests.hardening.conftest import ServeProcess
from tests.server.helpers import bearer, blanks_task, compute_body, mc_task

WRITERS = 16
LOAD_SECONDS = 1.5

BODIES = [
    compute_body(mc_task(), {"selectedIndex": 1}),
    compute_body(blanks_task(), {"blanks": [{"content": "100"}, {"content": "4"}]}),
]


@pytest.fixture
def serve(database_url) -> Iterator[ServeProcess]:
    process = ServeProcess(database_url)
    process.start()
    yield process
    process.stop()


async def write_until_killed(client: httpx.AsyncClient, acknowledged: list[str], worker: int) -> None:
    """Computes feedback until the connection breaks; keeps the ids the server answered with 200."""
    sent = worker
    while True:
        try:
            response = await client.post("/feedback/compute", json=BODIES[sent % len(BODIES)])
        except httpx.TransportError:
            return
        assert response.status_code == 200, response.text
        acknowledged.append(response.json()["metaData"]["interactionId"])
        sent += 1


async def test_every_acknowledged_interaction_survives_sigkill(serve, database_url):
    token = await create_token(database_url, "default")
    acknowledged: list[str] = []
    limits = httpx.Limits(max_connections=WRITERS)
    async with httpx.AsyncClient(base_url=serve.base_url, headers=bearer(token), limits=limits) as client:
        writers = [asyncio.create_task(write_until_killed(client, acknowledged, i)) for i in range(WRITERS)]
        await asyncio.sleep(LOAD_SECONDS)
        serve.kill()
        await asyncio.gather(*writers)
    assert len(acknowledged) > WRITERS

    serve.start()
    async with httpx.AsyncClient(base_url=serve.base_url, headers=bearer(token), limits=limits) as client:
        found = await asyncio.gather(*(client.get(f"/interactions/{i}") for i in acknowledged))
    missing = [i for i, response in zip(acknowledged, found, strict=True) if response.status_code != 200]
    assert missing == [], f"{len(missing)} of {len(acknowledged)} acknowledged interactions were lost"
