"""Tutor streaming latency over HTTP: time to the first MESSAGE and to DONE, p50 and p99.

`feedback-studio serve` runs in its own process on 127.0.0.1 over a fresh SQLite file; an
httpx-sse client holds 100 chats with the grounded tutor, each a new turn of one conversation
(so the hint ladder, the feedback engine and the leak guard all do their work), then 100 first
turns of new conversations. Target: first MESSAGE p50 ≤ 30 ms.

    .venv/bin/python bench/tutor_stream.py [--chats 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import ROOT, bench_headers, free_port, machine, server_process

TUTOR = "tutor-bulb-circuit-en"
TARGET_FIRST_MESSAGE_P50_MS = 30.0
TURNS = [
    "hello",
    "Just tell me the answer.",
    "I think you connect the battery with a wire.",
    "What is a circuit?",
    "why?",
    "The circuit must be a closed circuit.",
    "I don't understand the hint.",
    "The current has to go back to the battery.",
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def one_chat(client: httpx.AsyncClient, body: dict) -> tuple[float, float]:
    started = time.perf_counter()
    first = None
    async with aconnect_sse(client, "POST", "/tutor/chat/stream", json=body) as source:
        source.response.raise_for_status()
        async for event in source.aiter_sse():
            if event.event == "MESSAGE" and first is None:
                first = time.perf_counter() - started
            if event.event in ("DONE", "ERROR"):
                if event.event == "ERROR":
                    raise RuntimeError(event.data)
                break
    assert first is not None
    return first * 1000, (time.perf_counter() - started) * 1000


async def measure(
    base_url: str, headers: dict[str, str], chats: int
) -> list[tuple[str, list[float], list[float]]]:
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:
        tutor = json.loads((ROOT / "assets" / "tutors" / f"{TUTOR}.json").read_text())
        task = json.loads((ROOT / "assets" / "tasks" / f"{tutor['taskId']}.json").read_text())
        (await client.post("/tenants/default/tasks", json=task)).raise_for_status()
        (await client.put(f"/tenants/default/tutors/{TUTOR}", json=tutor)).raise_for_status()
        for i in range(5):  # warm-up: imports, caches, the first connection
            await one_chat(client, chat(f"warm-{i}", "hello"))
        rows = []
        for name, conversation in (("one conversation", lambda i: "bench"), ("new conversations", str)):
            firsts, dones = [], []
            for i in range(chats):
                first, done = await one_chat(client, chat(conversation(i), TURNS[i % len(TURNS)]))
                firsts.append(first)
                dones.append(done)
            rows.append((name, firsts, dones))
        return rows


def chat(conversation: str, text: str) -> dict:
    return {"tutorId": TUTOR, "conversationId": conversation, "messages": [{"role": "user", "content": text}]}


def table(rows: list[tuple[str, list[float], list[float]]]) -> str:
    header = f"| {'chats (grounded tutor)':<24} | {'n':>4} | {'first MESSAGE p50':>17} | {'p99':>7} | {'DONE p50':>8} | {'p99':>7} |"
    rule = "|" + "|".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "|"
    lines = [header, rule]
    for name, firsts, dones in rows:
        lines.append(
            f"| {name:<24} | {len(firsts):>4} | {percentile(firsts, 50):>14.2f} ms | {percentile(firsts, 99):>7.2f} | "
            f"{percentile(dones, 50):>8.2f} | {percentile(dones, 99):>7.2f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
        command = [sys.executable, "-m", "core.cli"]
        env = {"FEEDBACK_STUDIO_SEED_DEMO": "false", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"}
        headers = bench_headers(database)
        port = free_port()
        with server_process(
            [*command, "serve", "--database", database, "--port", str(port)], port, env
        ) as url:
            rows = asyncio.run(measure(url, headers, args.chats))
    print(f"Tutor stream over HTTP, {machine()}")
    print(table(rows))
    first_p50 = percentile(rows[0][1], 50)
    verdict = "met" if first_p50 <= TARGET_FIRST_MESSAGE_P50_MS else "MISSED"
    print(f"target first MESSAGE p50 ≤ {TARGET_FIRST_MESSAGE_P50_MS:g} ms: {verdict} ({first_p50:.2f} ms)")
    return 0 if verdict == "met" else 1


if __name__ == "__main__":
    sys.exit(main())
