"""The compute routes' own cost, in process: CPU time and instructions a request, beside the echo.

bench/realistic.py measures the served studio over sockets, on a machine whose neighbours move
its throughput by ±20 %. This bench calls the same application (`feedback-studio serve`'s,
core.server.process.serving_app, on a SQLite file, access log on at INFO into a file) as ASGI,
without sockets or an HTTP server, 32 requests at a time on uvloop, and counts what the process
spends a request: CPU time (user and system), and with --callgrind the instructions it executes
(valgrind's count, switched on only around the measured requests), which do not depend on the
machine's load at all. The echo (bench/echo_app.py) gets the same requests in the same way.

Rows: multiple choice and fill-in blanks on both compute routes, answers and user ids varied on
every request (drawn from a seeded generator, so every run judges the same answers), and
multiple choice by id once more with the access log off (its cost); then bench/realistic.py's
mixed workload, and each of its other kinds of request alone (task upserts, ratings, tutor chats
streamed to their end), to show what each costs; and its freeform row (200 answers by id), when
../shared/bench is there. The rows with tutor chats also give the chats' time to their last byte
(p50, p99) among the row's other requests, and the writes a chat's response came in: the mixed
row's is the chat's tail under load (docs/performance.md).

    .venv/bin/python bench/in_process.py [--requests 2000] [--rounds 3]
    .venv/bin/python bench/in_process.py --callgrind [--requests 300]   # needs valgrind
    .venv/bin/python bench/in_process.py --postgres postgresql+asyncpg://postgres@127.0.0.1:5432/test

With --postgres, a fresh database on that server instead of the SQLite file; the counts are then
this process's alone (not the database server's).

--profile ROW writes a cProfile of that row's requests (pstats file) for a look at where the time
goes (`python -m pstats FILE`); with --profile-file NAME.txt or .html, pyinstrument's instead.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from harness import fresh_database, server_log  # noqa: E402  (bench/ is on the path from here)

CONCURRENCY = 32
QUIET = "MC, by id, access log off"
"""The row whose requests run with the access log's level above INFO (the line's cost)."""
FREEFORM = "freeform by id, 200 answers"
"""bench/realistic.py's row: 200 learners' answers over 20 SciEntsBank questions, again and again
(the engine remembers their analyses and vectors, so the row shows what the service adds)."""
Request = tuple[str, str, dict[str, Any]]
ASGI = Callable[
    [dict[str, Any], Callable[[], Awaitable[dict[str, Any]]], Callable[[dict[str, Any]], Awaitable[None]]],
    Awaitable[None],
]


def _callgrind(command: str, label: str = "") -> None:
    """A command to valgrind's instruction counting of this process (a no-op outside it): `on`, or
    `dump` the counts since the last dump under `label` (the parent reads them in that order)."""
    if not os.environ.get("IN_PROCESS_CALLGRIND"):
        return
    if command == "dump":
        print(f"DUMP {label}", flush=True)
    option = "--instr=on" if command == "on" else "--dump"
    subprocess.run(["callgrind_control", option, str(os.getpid())], check=True, capture_output=True)


async def call(
    app: ASGI,
    method: str,
    path: str,
    body: bytes,
    headers: list[tuple[bytes, bytes]],
    answered: list[tuple[bytes, bytes]] | None = None,
    chunks: list[bytes] | None = None,
) -> int:
    """One request through the application as an ASGI server would make it; the status (and the
    response's headers into `answered`, its body's chunks into `chunks`, if given)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # the client stays connected
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            if answered is not None:
                answered.extend(message.get("headers", ()))
        elif chunks is not None and message["type"] == "http.response.body" and message.get("body"):
            chunks.append(message["body"])

    await app(scope, receive, send)
    return status


@dataclass
class Chats:
    """The tutor chats among a round's requests: each one's time to its last byte (ms) and the
    Server-Sent Events it was sent in (comments included)."""

    ms: list[float] = field(default_factory=list)
    events: list[int] = field(default_factory=list)


async def run_requests(
    app: ASGI, requests: list[Request], headers: list[tuple[bytes, bytes]], chats: Chats | None = None
) -> list[int]:
    """The requests, CONCURRENCY at a time; their statuses (and the chats' times into `chats`)."""
    encoded = [(method, path, json.dumps(body).encode()) for method, path, body in requests]
    statuses: list[int] = []
    position = 0

    async def worker() -> None:
        nonlocal position
        while position < len(encoded):
            method, path, body = encoded[position]
            position += 1
            if chats is None or not path.startswith("/tutor/chat"):
                statuses.append(await call(app, method, path, body, headers))
                continue
            started, chunks = time.perf_counter(), []
            statuses.append(await call(app, method, path, body, headers, chunks=chunks))
            chats.ms.append((time.perf_counter() - started) * 1000)
            chats.events.append(len(chunks))  # the server sends an event a body message

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return statuses


def rows(
    rng: random.Random, interaction_ids: list[str]
) -> tuple[dict[str, Callable[[int], list[Request]]], list[dict[str, Any]]]:
    """The rows (each makes a round's requests) and the tasks they need stored. The mixed
    workload's kinds of request have rows of their own (task upserts, ratings, tutor chats), and
    the mixed workload itself one; `interaction_ids` is filled with the interactions to rate once
    the tasks are stored."""
    import realistic

    realistic.rng = rng  # the answers and user ids drawn from this bench's seeded generator
    tasks = realistic.fifty_tasks()
    questions = realistic.freeform_questions() if realistic.FREEFORM_FILE.exists() else []
    mc = next(t for t in tasks if t["type"] == "MultipleChoiceTask")
    blanks = next(t for t in tasks if t["type"] == "InTextFillInBlanksTask")

    def only(kind: str, n: int) -> list[Request]:
        """The mixed workload's requests of one kind (by path)."""
        made: list[Request] = []
        while len(made) < n:
            made += [r for r in realistic.mixed(tasks, interaction_ids, 4 * n) if kind in r[1]]
        return made[:n]

    plan: dict[str, Callable[[int], list[Request]]] = {
        "MC, POST /feedback/compute": lambda n: realistic.compute_supplied(mc, n),
        "MC, by id": lambda n: [realistic.compute_by_id(mc) for _ in range(n)],
        "blanks, POST /feedback/compute": lambda n: realistic.compute_supplied(blanks, n),
        "blanks, by id": lambda n: [realistic.compute_by_id(blanks) for _ in range(n)],
        QUIET: lambda n: [realistic.compute_by_id(mc) for _ in range(n)],
        "task upserts (mixed's)": lambda n: only("/tenants/default/tasks", n),
        "ratings (mixed's)": lambda n: only("/end-user-rating", n),
        "tutor chats (mixed's)": lambda n: only("/tutor/chat/stream", n),
        "mixed": lambda n: realistic.mixed(tasks, interaction_ids, n),
    }
    if questions:  # the labelled data beside this checkout (../shared/bench)
        plan[FREEFORM] = lambda n: list(
            itertools.islice(itertools.cycle(realistic.freeform_requests(questions)), n)
        )
    return plan, tasks + [task for task, _ in questions]


async def measure(
    args: argparse.Namespace, database: str | None
) -> tuple[list[tuple[str, list[float], list[float]]], dict[str, Chats]]:
    """Per row: the studio's and the echo's cost a request in each round (µs of CPU, or
    instructions under callgrind, which the parent reads from valgrind's files); and the tutor
    chats of the rows that have them (their time to the last byte, among the row's other
    requests, and their events)."""
    import realistic
    from echo_app import app as echo

    from core.auth import parse_permissions
    from core.server.process import serving_app
    from core.service.tokens import create_token

    rng = random.Random(19)
    interaction_ids: list[str] = []
    plan, tasks = rows(rng, interaction_ids)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(
            FEEDBACK_STUDIO_DATABASE_URL=database or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}",
            FEEDBACK_STUDIO_SEED_DEMO="false",
            FEEDBACK_STUDIO_LOG_LEVEL="INFO",
        )
        app = serving_app()
        async with app.router.lifespan_context(app):
            runtime = app.state.runtime
            token = await create_token(runtime, "bench", "default", parse_permissions(["write"]))
            headers = [(b"authorization", f"Bearer {token}".encode())]
            tutor = realistic.asset("tutors", realistic.TUTOR)
            setup = [
                ("POST", "/tenants/default/tasks", task)
                for task in [realistic.asset("tasks", tutor["taskId"]), *tasks]
            ]
            setup.append(("PUT", f"/tenants/default/tutors/{realistic.TUTOR}", tutor))
            assert set(await run_requests(app, setup, headers)) == {200}
            for task in tasks:  # an interaction of each task, for the ratings to rate
                _, path, body = realistic.compute_by_id(task)
                answered: list[tuple[bytes, bytes]] = []
                assert await call(app, "POST", path, json.dumps(body).encode(), headers, answered) == 200
                interaction_ids.append(dict(answered)[b"x-interaction-id"].decode())
            for thread in threading.enumerate():  # the text models' loading (core.engine.text.preload)
                if thread.name == "text-models":
                    await asyncio.to_thread(thread.join)
            results = []
            chats: dict[str, Chats] = {}
            _callgrind("on")
            _callgrind("dump", "start")
            _callgrind("dump", "nothing")  # what a dump itself costs the measured stretch
            for name, make in plan.items():
                if args.row and name not in args.row:
                    continue
                logging.getLogger("feedback_studio.access").setLevel(
                    logging.WARNING if name == QUIET else logging.NOTSET
                )
                warm = make(200)
                await run_requests(app, warm, headers)
                await run_requests(echo, warm, [])
                studio_costs, echo_costs = [], []
                for _ in range(args.rounds):
                    requests = make(args.requests)
                    for target, target_headers, costs in (
                        (echo, [], echo_costs),
                        (app, headers, studio_costs),
                    ):
                        profile = (
                            profiler(args.profile_file) if args.profile == name and target is app else None
                        )
                        if profile is not None:
                            profile.start()
                        _callgrind("dump", "warm-up")
                        started = time.process_time()
                        statuses = await run_requests(
                            target,
                            requests,
                            target_headers,
                            chats.setdefault(name, Chats()) if target is app else None,
                        )
                        spent = time.process_time() - started
                        if profile is not None:
                            profile.stop()
                        bad = [s for s in statuses if s != 200]
                        if bad:
                            raise SystemExit(f"{name}: {len(bad)} answers not 200 (e.g. {bad[0]})")
                        costs.append(spent * 1e6 / len(requests))
                        _callgrind("dump", f"{name} {'echo' if target is echo else 'studio'}")
                results.append((name, studio_costs, echo_costs))
    return results, {name: times for name, times in chats.items() if times.ms}


class profiler:
    """cProfile into a pstats file, or, for a file ending in .txt or .html, pyinstrument's sampling
    profile (pip install pyinstrument; it distorts the calls' costs much less)."""

    def __init__(self, file: str) -> None:
        self.file = file
        if file.endswith((".txt", ".html")):
            from pyinstrument import Profiler

            self.sampler: Any = Profiler(interval=0.0002, async_mode="disabled")
        else:
            import cProfile

            self.sampler = cProfile.Profile()

    def start(self) -> None:
        self.sampler.start() if hasattr(self.sampler, "start") else self.sampler.enable()

    def stop(self) -> None:
        if hasattr(self.sampler, "enable"):
            self.sampler.disable()
            self.sampler.dump_stats(self.file)
            return
        self.sampler.stop()
        session = self.sampler.last_session
        from pyinstrument.renderers import ConsoleRenderer, HTMLRenderer

        renderer = (
            HTMLRenderer() if self.file.endswith(".html") else ConsoleRenderer(unicode=True, short_mode=False)
        )
        Path(self.file).write_text(renderer.render(session))
        session.save(self.file.rsplit(".", 1)[0] + ".pyisession")  # for other views of the samples


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="a row's requests per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true", help="count instructions under valgrind")
    parser.add_argument("--row", action="append", help="only the rows of these names (repeatable)")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="a fresh database on this PostgreSQL server instead of a SQLite file",
    )
    parser.add_argument("--callgrind-dir", help="keep valgrind's files there (callgrind_annotate)")
    parser.add_argument("--profile", metavar="ROW", help="cProfile that row's requests")
    parser.add_argument("--profile-file", default="in_process.pstats")
    args = parser.parse_args()
    import uvloop

    if args.callgrind and not os.environ.get("IN_PROCESS_CALLGRIND"):
        return under_callgrind(args)
    with ExitStack() as stack:
        database = stack.enter_context(fresh_database(args.postgres)) if args.postgres else None
        stack.enter_context(server_log())
        results, chats = uvloop.run(measure(args, database))
    print(
        f"In process, {CONCURRENCY} requests at a time, {args.rounds} rounds of {args.requests} requests a row"
    )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| row | CPU µs a request (rounds) | echo | ratio |")
    print("|---|---|---|---|")
    for name, studio, echo in results:
        print(
            f"| {name} | {median(studio):.0f} ({min(studio):.0f}–{max(studio):.0f}) | "
            f"{median(echo):.0f} | {median(studio) / median(echo):.2f} |"
        )
    if chats:
        print("\nTutor chats, streamed to their end among the row's other requests (all rounds):\n")
        print("| row | chats | p50 ms | p99 ms | events a chat (median) |")
        print("|---|---|---|---|---|")
        for name, times in chats.items():
            print(
                f"| {name} | {len(times.ms)} | {percentile(times.ms, 50):.1f} | "
                f"{percentile(times.ms, 99):.1f} | {median([float(n) for n in times.events]):.0f} |"
            )
    return 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def under_callgrind(args: argparse.Namespace) -> int:
    """Run this bench under valgrind and read each measured row's instruction count."""
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.callgrind_dir or scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=yes",
            "--instr-atstart=no",
            f"--callgrind-out-file={tmp}/callgrind.out",
            sys.executable,
            __file__,
            "--requests",
            str(args.requests),
            "--rounds",
            str(args.rounds),
            *(option for row in args.row or () for option in ("--row", row)),
            *(("--postgres", args.postgres) if args.postgres else ()),
        ]
        env = {**os.environ, "IN_PROCESS_CALLGRIND": "1"}
        output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
        labels = [line.split(" ", 1)[1] for line in output.splitlines() if line.startswith("DUMP ")]
        dumps = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        instructions = [
            int(
                next(line for line in dump.read_text().splitlines() if line.startswith("summary:")).split()[1]
            )
            for dump in dumps
        ]
    overhead = instructions[labels.index("nothing")]
    counts: dict[str, list[float]] = {}
    for label, count in zip(labels, instructions, strict=True):
        if label.endswith((" studio", " echo")):
            counts.setdefault(label, []).append((count - overhead) / args.requests / 1e6)
    print(
        f"In process under callgrind, {CONCURRENCY} requests at a time, {args.rounds} rounds of {args.requests}"
    )
    print("\n| row | M instructions a request (rounds) | echo | ratio |")
    print("|---|---|---|---|")
    for name in dict.fromkeys(label.rsplit(" ", 1)[0] for label in counts):
        studio, echo = counts[f"{name} studio"], counts[f"{name} echo"]
        print(
            f"| {name} | {median(studio):.3f} ({min(studio):.3f}–{max(studio):.3f}) | "
            f"{median(echo):.3f} | {median(studio) / median(echo):.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
