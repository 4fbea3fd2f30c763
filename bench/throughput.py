"""Multiple-choice feedback over HTTP against a bare FastAPI JSON echo, served the same way.

Both run in uvicorn (one process, 127.0.0.1) started by this script; the load comes from this
process at concurrency 1 and 32. Prints requests/s, p50 and p99 of both and their ratio (with wrk:
the median of alternating rounds).
Targets (issue 2): ratio ≥ 0.5 and p99 ≤ 25 ms at concurrency 32.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from harness import (
    bench_headers,
    free_ports,
    have_wrk,
    machine,
    median,
    run_load,
    run_wrk,
    server_process,
    table,
)

TASK = {
    "id": "bench-mc",
    "type": "MultipleChoiceTask",
    "title": "Capital",
    "problemStatement": "Which city is the federal city of Switzerland?",
    "options": [{"content": "Bern", "correct": True}, {"content": "Zurich"}, {"content": "Geneva"}],
}
BODY = {
    "userId": "bench",
    "taskType": "MULTIPLE_CHOICE",
    "taskDefinition": TASK,
    "answer": {"selectedIndex": 1},
}
PLAN = [(1, 500), (32, 3000)]
"""(concurrency, requests) for the Python client; wrk runs WRK_SECONDS per row instead."""
WRK_SECONDS = 5
ROUNDS = 5
"""With wrk, echo and feedback are measured side by side this many times: the speed of a shared
host drifts by ±20 % over minutes, more than most changes this bench is meant to show, so the
ratio is taken within each round and the median round is the result (with 3 rounds, the ratio
of one build ranged from 0.39 to 0.63 between rounds on the 2-CPU VM of docs/performance.md)."""


def measure_with_wrk(echo_url: str, api_url: str, headers: dict[str, str]) -> list[list]:
    rounds = []
    for _ in range(ROUNDS):
        results = []
        for concurrency, _ in PLAN:
            results.append(
                run_wrk("bare FastAPI JSON echo", f"{echo_url}/echo", BODY, {}, concurrency, WRK_SECONDS)
            )
            results.append(
                run_wrk(
                    "POST /feedback/compute (MC)",
                    f"{api_url}/feedback/compute",
                    BODY,
                    headers,
                    concurrency,
                    WRK_SECONDS,
                )
            )
        rounds.append(results)
    return rounds


async def measure(echo_url: str, api_url: str, headers: dict[str, str]) -> list:
    """The fallback without wrk: a Python client, which shares the CPU with the servers it measures."""
    results = []
    for concurrency, requests in PLAN:
        results.append(
            await run_load(
                "bare FastAPI JSON echo",
                lambda c: c.post("/echo", json=BODY),
                echo_url,
                concurrency,
                requests,
            )
        )
        results.append(
            await run_load(
                "POST /feedback/compute (MC)",
                lambda c: c.post("/feedback/compute", json=BODY),
                api_url,
                concurrency,
                requests,
                headers=headers,
            )
        )
    return results


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        headers = bench_headers(database)
        echo_port, api_port = free_ports(2)
        uvicorn = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
        with (
            server_process(
                [*uvicorn, "--app-dir", "bench", "echo_app:app", "--port", str(echo_port)], echo_port
            ) as echo_url,
            server_process(
                [sys.executable, "-m", "core.cli", "serve", "--database", database, "--port", str(api_port)],
                api_port,
                env={"FEEDBACK_STUDIO_SEED_DEMO": "false", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"},
            ) as api_url,
        ):
            if have_wrk():
                client = f"wrk (Debian package), {ROUNDS} alternating rounds of {WRK_SECONDS} s a row"
                rounds = measure_with_wrk(echo_url, api_url, headers)
            else:
                client = "httpx in this process (install wrk for a client that leaves the CPU to the server)"
                rounds = [asyncio.run(measure(echo_url, api_url, headers))]
    print(f"Machine: {machine()}\nLoad generator: {client}\n")
    for number, results in enumerate(rounds, start=1):
        print(f"Round {number}\n{table(results)}\n")
    for row in range(0, len(rounds[0]), 2):
        echoes = [results[row] for results in rounds]
        feedbacks = [results[row + 1] for results in rounds]
        ratios = [api.throughput / echo.throughput for echo, api in zip(echoes, feedbacks, strict=True)]
        p99s = [api.percentile(99) for api in feedbacks]
        print(
            f"concurrency {feedbacks[0].concurrency:>2}: feedback/echo throughput ratio {median(ratios):.2f} "
            f"(rounds {min(ratios):.2f}–{max(ratios):.2f}), feedback p99 {median(p99s):.1f} ms "
            f"(rounds {min(p99s):.1f}–{max(p99s):.1f})"
        )


if __name__ == "__main__":
    main()
