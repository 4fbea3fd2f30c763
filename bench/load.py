"""Mixed traffic at 64 connections against one and against two server processes on PostgreSQL.

The mix, in a fixed cycle of ten requests: feedback compute of every task type (multiple choice,
multiple responses, fill-in blanks, in-text choices, freeform, simulation transcript) with the
task sent along, two task upserts (an unchanged or updated id, a new id) and two tutor chats in
conversations of eight turns. `feedback-studio serve` and `serve --workers 2` each run in their
own process tree over a fresh PostgreSQL database; the load comes from this process. Prints
requests/s, p50/p99 and errors (which must be 0), overall and per kind of request.

    .venv/bin/python bench/load.py [--seconds 60] [--connections 64] [--postgres URL]

PostgreSQL comes from --postgres, else FEEDBACK_STUDIO_TEST_POSTGRES_URL (a server and a database
to administer it from, e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/test); without either,
the benchmark says so and skips.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg
import httpx
from harness import ROOT, LoadResult, bench_headers, free_port, machine, run_load, server_process, table

TUTOR = "tutor-bulb-circuit-en"
TYPES = {
    "MultipleChoiceTask": "MULTIPLE_CHOICE",
    "MultipleResponsesTask": "MULTIPLE_RESPONSES",
    "InTextFillInBlanksTask": "IN_TEXT_FILL_IN_BLANKS",
    "InTextChoicesTask": "IN_TEXT_CHOICES",
    "FreeformTextTask": "FREEFORM_TEXT",
    "SimulationTask": "SIMULATION",
}
TASKS = [
    "mc-photosynthesis-en",
    "mr-renewable-energy-en",
    "blanks-water-cycle-en",
    "choices-english-tenses-en",
    "ff-bulb-circuit-en",
    "sim-customer-objections-en",
]
TURNS_PER_CONVERSATION = 8
WARMUP = 100
ENV = {"FEEDBACK_STUDIO_SEED_DEMO": "false", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"}

Send = Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]]


def asset(kind: str, name: str) -> dict[str, Any]:
    return json.loads((ROOT / "assets" / kind / f"{name}.json").read_text())


def answer_for(task: dict[str, Any]) -> dict[str, Any]:
    """A partly right answer of the task's type, so the engines do their whole work."""
    kind = task["type"]
    if kind == "MultipleChoiceTask":
        return {"selectedIndex": 1}
    if kind == "MultipleResponsesTask":
        return {"selected": [i % 2 == 0 for i in range(len(task["options"]))]}
    if kind == "InTextFillInBlanksTask":
        return {
            "blanks": [{"content": b["acceptedAnswers"][0]} for b in task["blanks"][:-1]] + [{"content": "?"}]
        }
    if kind == "InTextChoicesTask":
        return {"choices": [{"content": c["options"][0]} for c in task["choices"]]}
    if kind == "FreeformTextTask":
        return {"content": "The bulb lights up when the circuit is closed, so the current flows through it."}
    return {
        "messages": [
            {"role": "assistant", "content": task["initialMessage"]},
            {"role": "user", "content": "It saves you time every evening and costs less than a repair."},
        ]
    }


def compute(task: dict[str, Any]) -> Send:
    body = {
        "userId": "load",
        "taskType": TYPES[task["type"]],
        "taskDefinition": task,
        "answer": answer_for(task),
    }
    return lambda client, _: client.post("/feedback/compute", json=body)


def upsert_known(client: httpx.AsyncClient, n: int) -> Awaitable[httpx.Response]:
    """Eight ids whose title flips every 80 requests: mostly UNCHANGED, sometimes UPDATED."""
    task = {
        **asset("tasks", "mc-photosynthesis-en"),
        "id": f"load-mc-{n % 8}",
        "title": f"Leaves {n // 80 % 2}",
    }
    return client.post("/tenants/default/tasks", json=task)


def upsert_new(client: httpx.AsyncClient, _: int) -> Awaitable[httpx.Response]:
    task = {**asset("tasks", "mc-photosynthesis-en"), "id": f"load-new-{uuid.uuid4().hex}"}
    return client.post("/tenants/default/tasks", json=task)


def chat(client: httpx.AsyncClient, n: int) -> Awaitable[httpx.Response]:
    body = {
        "tutorId": TUTOR,
        "conversationId": f"load-{n // TURNS_PER_CONVERSATION}",
        "messages": [{"role": "user", "content": "I think the current has to go round the circuit."}],
    }
    return client.post("/tutor/chat", json=body)


class Mix:
    """The cycle of requests; times each kind apart so that the table can show them one by one."""

    def __init__(self) -> None:
        computes = [
            (f"compute {TYPES[t['type']]}", compute(t)) for t in map(lambda n: asset("tasks", n), TASKS)
        ]
        upserts = [("upsert, known id", upsert_known), ("upsert, new id", upsert_new)]
        self.cycle = itertools.cycle([*computes, *upserts, ("chat", chat), ("chat", chat)])
        self.counters: dict[str, Iterator[int]] = defaultdict(itertools.count)
        self.samples: dict[str, list[tuple[float, int]]] = defaultdict(list)

    async def call(self, client: httpx.AsyncClient) -> httpx.Response:
        kind, send = next(self.cycle)
        started = time.perf_counter()
        response = await send(client, next(self.counters[kind]))
        self.samples[kind].append(((time.perf_counter() - started) * 1000, response.status_code))
        if response.status_code != 200:
            print(f"  {kind}: {response.status_code} {response.text[:300]}", file=sys.stderr)
        return response

    def by_kind(self, total: LoadResult) -> list[LoadResult]:
        return [
            LoadResult(
                f"  {kind}",
                total.concurrency,
                len(samples),
                total.seconds,
                [ms for ms, _ in samples],
                sum(status != 200 for _, status in samples),
            )
            for kind, samples in self.samples.items()
        ]


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new PostgreSQL database on the server of admin_url, dropped afterwards."""
    plain = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"fs_load_{uuid.uuid4().hex[:10]}"

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(plain)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def prepare(base_url: str, headers: dict[str, str], mix: Mix) -> None:
    """The tutor and its task, then a warm-up of the whole mix (imports, caches, connections)."""
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:
        tutor = asset("tutors", TUTOR)
        (await client.post("/tenants/default/tasks", json=asset("tasks", tutor["taskId"]))).raise_for_status()
        (await client.put(f"/tenants/default/tutors/{TUTOR}", json=tutor)).raise_for_status()
        for _ in range(WARMUP):
            await mix.call(client)
    mix.samples.clear()


def measure(admin_url: str, workers: int, connections: int, seconds: float) -> list[LoadResult]:
    with fresh_database(admin_url) as database:
        headers = bench_headers(database)
        port = free_port()
        command = [sys.executable, "-m", "core.cli", "serve", "--database", database, "--port", str(port)]
        with server_process([*command, "--workers", str(workers)], port, ENV) as base_url:
            mix = Mix()
            asyncio.run(prepare(base_url, headers, mix))
            name = f"mixed, {workers} process{'es' if workers > 1 else ''}"
            total = asyncio.run(
                run_load(name, mix.call, base_url, connections, 0, warmup=0, headers=headers, seconds=seconds)
            )
    return [total, *mix.by_kind(total)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="duration of each run (default 60)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--postgres", default=os.environ.get("FEEDBACK_STUDIO_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    if not args.postgres:
        print("skipped: no PostgreSQL (pass --postgres URL or set FEEDBACK_STUDIO_TEST_POSTGRES_URL)")
        return 0
    results = [
        row for workers in (1, 2) for row in measure(args.postgres, workers, args.connections, args.seconds)
    ]
    print(f"Mixed load on PostgreSQL, {args.seconds:g} s per run, {args.connections} connections")
    print(f"Machine: {machine()}\n")
    print(table(results))
    errors = sum(r.errors for r in results if not r.name.startswith(" "))
    print(f"\nerrors: {errors} (must be 0)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
