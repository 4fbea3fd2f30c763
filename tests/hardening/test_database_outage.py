"""A PostgreSQL database that goes away: 500 INTERNAL with a logged error id, then recovery.

The outage is what a failover or a restart of the database server looks like to the service:
every open connection is terminated and new ones are refused (ALLOW_CONNECTIONS false). While it
lasts, calls answer 500 INTERNAL whose message names an error id that is in the log; once the
database accepts connections again, the very next call succeeds (the pool pings and reconnects).

SQLite is not covered here: it is a file the server process holds open, so it cannot go away and
come back the way a database server does; its failure modes (disk full, file deleted) are losses
of the disk, not outages a service recovers from.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import httpx
import pytest

from core.http import tls_context
from tests.conftest import _postgres_admin
from tests.hardening.conftest import thread_server
from tests.server.helpers import bearer, compute_body, mc_task

BODY = compute_body(mc_task(), {"selectedIndex": 0})


@pytest.fixture
def database(postgres_url) -> Iterator[tuple[str, str]]:
    """(URL, name) of a fresh database whose connections the test can cut."""
    yield postgres_url, postgres_url.rsplit("/", 1)[1]


@pytest.fixture
def client(database) -> Iterator[httpx.Client]:
    """Synchronous: the test's own admin calls run an event loop of their own."""
    with thread_server(database[0]) as live:
        token = asyncio.run(live.token("default"))
        with httpx.Client(
            verify=tls_context(), base_url=live.base_url, headers=bearer(token), timeout=30
        ) as c:
            yield c


def set_outage(name: str, down: bool) -> None:
    if down:
        _postgres_admin(
            f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false; '
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )
    else:
        _postgres_admin(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')


def test_an_outage_answers_500_with_a_logged_error_id_and_the_service_recovers(client, database, caplog):
    assert client.post("/feedback/compute", json=BODY).status_code == 200

    set_outage(database[1], down=True)
    try:
        during = [client.post("/feedback/compute", json=BODY), client.get("/tenants/default/tasks")]
    finally:
        set_outage(database[1], down=False)

    for response in during:
        assert response.status_code == 500
        body = response.json()
        assert body["type"] == "INTERNAL"
        error_id = re.search(r"error id ([0-9a-f]+)", body["message"]).group(1)
        assert error_id in caplog.text

    after = client.post("/feedback/compute", json=BODY)
    assert after.status_code == 200, after.text
    listed = client.get("/tenants/default/tasks/mc-1/interactions").json()
    assert len(listed) == 2
