"""Where a compute-by-id request's CPU goes, by taking one piece away at a time, in process.

    .venv/bin/python bench/compute_breakdown.py [--rounds 8] [--requests 1000]

bench/in_process.py says what a request costs; this says what of it is whose. It serves
`feedback-studio serve`'s application (core.server.process.serving_app, SQLite file, access log at
INFO into a file through serve's own handler) as ASGI, 32 requests at a time, and measures the event loop's CPU time per
request (time.thread_time: the requests and the store's writer both run on the loop) for
multiple choice and fill-in blanks by id, answers and user ids varied as in bench/realistic.py,
with:

- nothing taken away (the request as served);
- no engine: the task's first result is handed back for every answer (the engine's judgement and
  its result's JSON are gone; the interaction is still stored);
- no insert: the interaction's row is not written (the write job, its batch and commit stay);
- no service: the route gets a ready Feedback (what is left is the HTTP side: the middleware, FastAPI's
  routing, the token's dependency, the body's validation, the response);
- no access log: the access logger above INFO;
- the echo (bench/echo_app.py) with the same requests.

Variants alternate round by round, so a neighbour's load falls on all of them alike; the table
gives each one's least disturbed round (the minimum: another process's load only ever adds CPU
time, through the caches it evicts) and the difference to the request as served. The pieces are taken
away by replacing the functions named above for the duration of a round; this is a measurement,
not a way to serve.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import in_process  # noqa: E402  (bench/ is on the path from here)
import realistic  # noqa: E402
from harness import server_log  # noqa: E402

import core.service.feedback as feedback_service  # noqa: E402
from core.service.feedback import FeedbackOperations  # noqa: E402
from core.store import interactions  # noqa: E402

KINDS = {"multiple choice": "MultipleChoiceTask", "fill-in blanks": "InTextFillInBlanksTask"}


def variants() -> dict[str, Callable[[ExitStack], None]]:
    """Each variant enters its replacements into the round's ExitStack."""
    first_results: dict[str, Any] = {}
    first_feedback: dict[str, Any] = {}
    judge, serve = feedback_service.compute_result, FeedbackOperations.compute_feedback_for_task

    def remembered_result(task: Any, answer: Any, ctx: Any) -> Any:
        if task.id not in first_results:
            first_results[task.id] = judge(task, answer, ctx)
        return first_results[task.id]

    async def ready_feedback(self: FeedbackOperations, task_id: str, request: Any) -> Any:
        if task_id not in first_feedback:
            first_feedback[task_id] = await serve(self, task_id, request)
        return first_feedback[task_id]

    access = logging.getLogger("feedback_studio.access")
    return {
        "as served": lambda stack: None,
        "no engine": lambda stack: stack.enter_context(
            mock.patch.object(feedback_service, "compute_result", remembered_result)
        ),
        "no insert": lambda stack: stack.enter_context(
            mock.patch.object(interactions, "add_interaction", lambda connection, values: None)
        ),
        "no service": lambda stack: stack.enter_context(
            mock.patch.object(FeedbackOperations, "compute_feedback_for_task", ready_feedback)
        ),
        "no access log": lambda stack: (
            access.setLevel(logging.WARNING),
            stack.callback(access.setLevel, logging.NOTSET),
        ),
    }


async def breakdown(kind: str, rounds: int, count: int) -> dict[str, list[float]]:
    from echo_app import app as echo

    from core.auth import parse_permissions
    from core.server.process import serving_app
    from core.service.tokens import create_token

    realistic.rng = random.Random(19)
    task = next(t for t in realistic.fifty_tasks() if t["type"] == kind)
    costs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(
            FEEDBACK_STUDIO_DATABASE_URL=f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}",
            FEEDBACK_STUDIO_SEED_DEMO="false",
            FEEDBACK_STUDIO_LOG_LEVEL="INFO",
        )
        app = serving_app()
        async with app.router.lifespan_context(app):
            token = await create_token(app.state.runtime, "bench", "default", parse_permissions(["write"]))
            headers = [(b"authorization", f"Bearer {token}".encode())]
            stored = await in_process.run_requests(app, [("POST", "/tenants/default/tasks", task)], headers)
            assert stored == [200], stored
            for thread in threading.enumerate():  # the text models' loading, not to be measured
                if thread.name == "text-models":
                    await asyncio.to_thread(thread.join)
            requests = [realistic.compute_by_id(task) for _ in range(count)]
            await in_process.run_requests(app, requests, headers)  # warm-up
            plan = variants()
            for _ in range(rounds):
                for name, apply in plan.items():
                    with ExitStack() as stack:
                        apply(stack)
                        started = time.thread_time()
                        statuses = await in_process.run_requests(app, requests, headers)
                        costs.setdefault(name, []).append((time.thread_time() - started) * 1e6 / count)
                    if set(statuses) != {200}:
                        raise SystemExit(f"{name}: answers other than 200: {sorted(set(statuses))}")
                started = time.thread_time()
                await in_process.run_requests(echo, requests, [])
                costs.setdefault("echo", []).append((time.thread_time() - started) * 1e6 / count)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=1000, help="requests per variant and round")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| task type | variant | CPU µs a request (least disturbed round) | taken away |")
    print("|---|---|---|---|")
    for label, kind in KINDS.items():
        with server_log():
            costs = asyncio.run(breakdown(kind, args.rounds, args.requests))
        served = min(costs["as served"])
        for name, values in costs.items():
            saved = "" if name == "as served" else f"{served - min(values):.0f}"
            print(f"| {label} | {name} | {min(values):.0f} | {saved} |")


if __name__ == "__main__":
    main()
