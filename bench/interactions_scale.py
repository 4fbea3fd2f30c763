"""Compute latency with 1,000 and with 1,000,000 stored interactions (target: ratio ≤ 1.5).

Every feedback computation stores an interaction, so a hosted service accumulates millions; the
hot path (one read of the task, one insert) must not slow down as they pile up. `serve` runs in
its own process over a fresh database per size (SQLite, and PostgreSQL where configured); the
interactions are copied in bulk with SQL from one real interaction of the measured task (the worst
case: they all belong to it); then multiple-choice compute is timed at concurrency 1, the two
sizes in alternating rounds.

    .venv/bin/python bench/interactions_scale.py [--requests 500] [--postgres URL]

PostgreSQL comes from --postgres, else FEEDBACK_STUDIO_TEST_POSTGRES_URL; without either only
SQLite runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx
from harness import LoadResult, bench_headers, free_port, machine, run_load, server_process, table
from load import ENV, asset, fresh_database

TARGET_RATIO = 1.5
SIZES = (1_000, 1_000_000)
CHUNK = 100_000
ROUNDS = 5
TASK = asset("tasks", "mc-photosynthesis-en")
BODY = {
    "userId": "scale",
    "taskType": "MULTIPLE_CHOICE",
    "taskDefinition": TASK,
    "answer": {"selectedIndex": 1},
}
COLUMNS = "tenant_id, task_id, task_version, user_id, principal_id, answer, feedback, learner_meta, verdict"

POSTGRES_COPY = f"""
INSERT INTO interactions (id, {COLUMNS}, created_at)
SELECT gen_random_uuid()::text, {COLUMNS}, created_at - make_interval(secs => g)
FROM interactions, generate_series(1, $2) AS g WHERE id = $1
"""
SQLITE_COPY = f"""
INSERT INTO interactions (id, {COLUMNS}, created_at)
WITH RECURSIVE seq(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM seq WHERE g < ?)
SELECT lower(hex(randomblob(16))), {COLUMNS}, created_at FROM interactions, seq WHERE id = ?
"""


async def copy_postgres(url: str, template: str, count: int) -> None:
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        for done in range(0, count, CHUNK):
            await connection.execute(POSTGRES_COPY, template, min(CHUNK, count - done))
        await connection.execute("VACUUM ANALYZE interactions")
        await connection.execute("CHECKPOINT")
    finally:
        await connection.close()


def copy_sqlite(url: str, template: str, count: int) -> None:
    connection = sqlite3.connect(url.split(":///", 1)[1], timeout=60)
    try:
        for done in range(0, count, CHUNK):
            with connection:
                connection.execute(SQLITE_COPY, (min(CHUNK, count - done), template))
        connection.execute("ANALYZE interactions")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def copy_interactions(url: str, template: str, count: int) -> None:
    """`count` copies of the template interaction, inserted by the database itself, then settled
    (statistics, vacuum, checkpoint) so that the timing sees the steady state, not the bulk load's
    aftermath."""
    if url.startswith("sqlite"):
        copy_sqlite(url, template, count)
    else:
        asyncio.run(copy_postgres(url, template, count))


async def first_interaction(base_url: str, headers: dict[str, str]) -> str:
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:
        response = await client.post("/feedback/compute", json=BODY)
        response.raise_for_status()
        return response.json()["metaData"]["interactionId"]


@contextmanager
def server_with(database: str, stored: int) -> Iterator[tuple[str, dict[str, str]]]:
    """A running server whose database holds `stored` interactions of the task; (URL, headers)."""
    headers = bench_headers(database)
    port = free_port()
    command = [sys.executable, "-m", "core.cli", "serve", "--database", database, "--port", str(port)]
    with server_process(command, port, ENV) as base_url:
        template = asyncio.run(first_interaction(base_url, headers))
        started = time.perf_counter()
        copy_interactions(database, template, stored - 1)
        print(f"{stored:,} interactions stored in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        yield base_url, headers


def measure(backend: str, databases: tuple[str, str], requests: int) -> list[LoadResult]:
    """Both sizes served at once and timed in alternating rounds, so that a change in the load of
    a shared machine falls on both alike."""
    call = lambda client: client.post("/feedback/compute", json=BODY)  # noqa: E731
    with server_with(databases[0], SIZES[0]) as small, server_with(databases[1], SIZES[1]) as large:
        rounds: dict[int, list[LoadResult]] = {size: [] for size in SIZES}
        for _ in range(ROUNDS):
            for size, (base_url, headers) in zip(SIZES, (small, large), strict=True):
                result = run_load("", call, base_url, 1, requests // ROUNDS, warmup=10, headers=headers)
                rounds[size].append(asyncio.run(result))
    return [
        LoadResult(
            f"{backend}, {size:,} stored",
            1,
            sum(r.requests for r in parts),
            sum(r.seconds for r in parts),
            [ms for r in parts for ms in r.latencies_ms],
            sum(r.errors for r in parts),
        )
        for size, parts in rounds.items()
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500, help="timed computes per size (default 500)")
    parser.add_argument("--postgres", default=os.environ.get("FEEDBACK_STUDIO_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    results: list[LoadResult] = []
    with tempfile.TemporaryDirectory() as folder:
        files = tuple(f"sqlite+aiosqlite:///{Path(folder) / f'scale-{size}.sqlite3'}" for size in SIZES)
        results += measure("SQLite", files, args.requests)
    if args.postgres:
        with fresh_database(args.postgres) as small, fresh_database(args.postgres) as large:
            results += measure("PostgreSQL", (small, large), args.requests)
    print(f"POST /feedback/compute (multiple choice) at concurrency 1, {args.requests} requests per size")
    print(f"Machine: {machine()}\n")
    print(table(results))
    print()
    worst = 0.0
    for small, large in zip(results[::2], results[1::2], strict=True):
        ratio = large.percentile(50) / small.percentile(50)
        worst = max(worst, ratio)
        backend = small.name.split(",")[0]
        print(
            f"{backend}: p50 with {SIZES[1]:,} / with {SIZES[0]:,} stored = {ratio:.2f} (target ≤ {TARGET_RATIO})"
        )
    if not args.postgres:
        print("PostgreSQL skipped: pass --postgres URL or set FEEDBACK_STUDIO_TEST_POSTGRES_URL")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
