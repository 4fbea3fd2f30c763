"""Every compute route under a realistic load, each row beside a bare echo of the same requests.

The studio (`feedback-studio serve`, access log on at INFO, into a file) and a bare FastAPI echo
(bench/echo_app.py) run in their own processes; wrk sends both the same requests, row by row, in
alternating rounds, and each row's ratio is taken within its round (the host's speed drifts more
over minutes than most changes show). Rows, at 32 connections:

- multiple choice and fill-in blanks on both compute routes, answers and user ids varied on every
  request (a result cache, had we one, would not serve them);
- freeform by id: 200 different answers over 20 tasks of a SciEntsBank file in
  ../shared/bench/data, beside what the engine alone judges per second in this process;
- a mixed workload: 80 % compute by id over 50 tasks of all six types, 10 % task upserts (some
  change a title), 5 % ratings, 5 % tutor chats streamed to their end;
- the same compute by id with the access log off (its cost);
- on PostgreSQL (FEEDBACK_STUDIO_TEST_POSTGRES_URL or --postgres) with `serve --workers 2`: multiple
  choice by id and the mixed workload.

Beside the ratios, every row gives the CPU time the server spent per request (user and system,
all its processes, from /proc) against the echo's: a measure that depends much less than
throughput on what else runs on the machine.

    .venv/bin/python bench/realistic.py [--rounds 3] [--seconds 5] [--postgres URL]

Needs wrk (`apt-get install wrk`). Targets (docs/performance.md): choice and blank rows ≥ 0.5× the
echo with p99 ≤ 25 ms; freeform by id ≥ 0.7× the engine alone; the mixed rows with 0 errors;
PostgreSQL with 2 workers not below SQLite with 1.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from harness import (
    ROOT,
    Request,
    WrkResult,
    bench_headers,
    free_ports,
    fresh_database,
    have_wrk,
    machine,
    median,
    run_wrk,
    server_process,
    table,
)

from core.api import parse_task_type

CONNECTIONS = 32
TUTOR = "tutor-bulb-circuit-en"
FREEFORM_FILE = ROOT.parent / "shared" / "bench" / "data" / "scientsbank-2way-unseen-answers.jsonl"
WORDS = [
    "the",
    "a",
    "current",
    "light",
    "energy",
    "water",
    "plants",
    "because",
    "so",
    "it",
    "heat",
    "flows",
    "circuit",
    "closed",
    "open",
]
rng = random.Random(19)


def asset(kind: str, name: str) -> dict[str, Any]:
    return json.loads((ROOT / "assets" / kind / f"{name}.json").read_text())


def demo_tasks() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((ROOT / "assets" / "tasks").glob("*.json"))]


def some_words(count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def varied_answer(task: dict[str, Any]) -> dict[str, Any]:
    """A random answer of the task's type: right, wrong or partly right."""
    kind = task["type"]
    if kind == "MultipleChoiceTask":
        return {"selectedIndex": rng.randrange(len(task["options"]))}
    if kind == "MultipleResponsesTask":
        return {"selected": [rng.random() < 0.5 for _ in task["options"]]}
    if kind == "InTextFillInBlanksTask":
        return {
            "blanks": [
                {"content": rng.choice([*b["acceptedAnswers"], some_words(1)])} for b in task["blanks"]
            ]
        }
    if kind == "InTextChoicesTask":
        return {"choices": [{"content": rng.choice(c["options"])} for c in task["choices"]]}
    if kind == "FreeformTextTask":
        solution = task["sampleSolutions"][0]["content"].split()
        start = rng.randrange(len(solution))
        return {"content": " ".join(solution[start : start + rng.randint(3, 12)]) + " " + some_words(4)}
    return {
        "messages": [
            {"role": "assistant", "content": task["initialMessage"]},
            {"role": "user", "content": f"I understand, {some_words(8)}."},
        ]
    }


def learner() -> str:
    return f"learner-{rng.randrange(10**6)}"


def compute_supplied(task: dict[str, Any], count: int) -> list[Request]:
    return [
        (
            "POST",
            "/feedback/compute",
            {
                "userId": learner(),
                "taskType": parse_task_type(task["type"]).value,
                "taskDefinition": task,
                "answer": varied_answer(task),
            },
        )
        for _ in range(count)
    ]


def compute_by_id(task: dict[str, Any]) -> Request:
    body = {
        "userId": learner(),
        "taskType": parse_task_type(task["type"]).value,
        "answer": varied_answer(task),
    }
    return "POST", f"/tasks/{task['id']}/feedback/compute", body


def fifty_tasks() -> list[dict[str, Any]]:
    """50 tasks of all six types: the demo tasks under numbered ids."""
    demos = demo_tasks()
    return [{**demos[n % len(demos)], "id": f"{demos[n % len(demos)]['id']}-{n}"} for n in range(50)]


def mixed(tasks: list[dict[str, Any]], interaction_ids: list[str], count: int = 2000) -> list[Request]:
    requests: list[Request] = []
    for n in range(count):
        draw = rng.random()
        task = rng.choice(tasks)
        if draw < 0.80:
            requests.append(compute_by_id(task))
        elif draw < 0.90:  # mostly as stored (UNCHANGED), sometimes a changed title (UPDATED)
            title = task.get("title", "") + (" (revised)" if rng.random() < 0.3 else "")
            requests.append(("POST", "/tenants/default/tasks", {**task, "title": title}))
        elif draw < 0.95:
            rating = {"type": rng.choice(["GOOD", "BAD"]), "message": some_words(5)}
            requests.append(("PUT", f"/interactions/{rng.choice(interaction_ids)}/end-user-rating", rating))
        else:
            chat = {
                "tutorId": TUTOR,
                "conversationId": f"bench-{n % 40}",
                "messages": [{"role": "user", "content": f"I think {some_words(6)}?"}],
            }
            requests.append(("POST", "/tutor/chat/stream", chat))
    return requests


def freeform_questions() -> list[tuple[dict[str, Any], list[str]]]:
    """20 SciEntsBank questions as tasks, each with 10 of its learners' answers (test, then train)."""
    from core.evaluation import read_questions, task_of

    chosen = []
    for question in read_questions(FREEFORM_FILE):
        answers = [item["answer"] for part in ("test", "train") for item in question.get(part, [])][:10]
        if len(answers) == 10:
            task = task_of(question).to_wire()
            chosen.append(({**task, "id": f"ff-{task['id']}"}, answers))
        if len(chosen) == 20:
            return chosen
    raise RuntimeError(f"{FREEFORM_FILE} has fewer than 20 questions with 10 answers")


UNIQUE = itertools.count()
"""Numbers that make an answer's text new to the server (and to its engine's memory of encodings)."""


def freeform_requests(questions: list[tuple[dict[str, Any], list[str]]], copies: int = 1) -> list[Request]:
    """The 200 answers; with copies > 1, each that many times, every copy made a text of its own
    ("… (answer 1234)"), so that no request repeats an earlier one, in this round or any other."""
    requests = [
        (
            "POST",
            f"/tasks/{task['id']}/feedback/compute",
            {"userId": learner(), "taskType": "FREEFORM_TEXT", "answer": {"content": content}},
        )
        for task, answers in questions
        for answer in answers
        for content in ([answer] if copies == 1 else [unique(answer) for _ in range(copies)])
    ]
    rng.shuffle(requests)
    return requests


def unique(answer: str) -> str:
    return f"{answer} (answer {next(UNIQUE)})"


def engine_alone(questions: list[tuple[dict[str, Any], list[str]]], *, fresh: bool) -> float:
    """Answers per second the freeform engine judges in this process, one after another.

    fresh: each answer made new (as in the row of unique answers), judged once; else the 200
    answers judged a second time, as the server meets them over and over in its row (the engine
    remembers the sentence vectors of what it has encoded).
    """
    from core.api import FreeformTextAnswer, parse_task
    from core.assets import load_catalogue
    from core.engine import compute_result
    from core.engine.base import EngineContext

    catalogue = load_catalogue()
    work = []
    for document, answers in questions:
        task = parse_task(document)
        ctx = EngineContext(catalogue=catalogue, graded=(), cache_key=("bench", task.id, "1"))
        compute_result(task, FreeformTextAnswer(content=unique(answers[0])), ctx)  # the task's own encodings
        work += [(task, FreeformTextAnswer(content=unique(a) if fresh else a), ctx) for a in answers]
    if not fresh:
        for task, answer, ctx in work:
            compute_result(task, answer, ctx)
    started = time.perf_counter()
    for task, answer, ctx in work:
        compute_result(task, answer, ctx)
    return len(work) / (time.perf_counter() - started)


def cpu_seconds(base_url: str) -> float:
    """CPU time (user and system) used so far by the server of `base_url`: the process started
    with its `--port` and all that process's descendants (uvicorn's workers)."""
    port = base_url.rsplit(":", 1)[1]
    ticks = 0
    for pid in _descendants(_started_with(["--port", port])):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _started_with(arguments: list[str]) -> list[int]:
    wanted = "\0".join(arguments).encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if re.fullmatch(r"\d+", entry.name):
            try:
                if wanted in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
    return pids


def _descendants(pids: list[int]) -> list[int]:
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            try:
                todo += [int(child) for child in task.read_text().split()]
            except FileNotFoundError:
                continue
    return found


@dataclass
class Measured:
    wrk: WrkResult
    cpu_us: float
    """The server's CPU time per request it answered."""


def measured(name: str, url: str, requests: list[Request], headers: dict[str, str], seconds: int) -> Measured:
    before = cpu_seconds(url)
    result = run_wrk(name, url, requests, headers, CONNECTIONS, seconds)
    done = result.throughput * result.seconds
    return Measured(result, (cpu_seconds(url) - before) * 1e6 / done if done else float("nan"))


def prepare(base_url: str, headers: dict[str, str], tasks: list[dict[str, Any]]) -> list[str]:
    """Store the tasks and the tutor, warm every route up; the interaction ids that ratings rate."""
    with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
        tutor = asset("tutors", TUTOR)
        for task in [asset("tasks", tutor["taskId"]), *tasks]:
            client.post("/tenants/default/tasks", json=task).raise_for_status()
        client.put(f"/tenants/default/tutors/{TUTOR}", json=tutor).raise_for_status()
        ids = []
        for task in tasks:
            method, path, body = compute_by_id(task)
            response = client.request(method, path, json=body)
            response.raise_for_status()
            ids.append(response.headers["X-Interaction-Id"])
        return ids


@contextmanager
def studio(
    database: str, port: int, log: Path, *, workers: int = 1, access_log: bool = True
) -> Iterator[str]:
    env = {
        "FEEDBACK_STUDIO_SEED_DEMO": "false",
        "FEEDBACK_STUDIO_LOG_LEVEL": "INFO" if access_log else "WARNING",
    }
    command = [sys.executable, "-m", "core.cli", "serve", "--database", database, "--port", str(port)]
    with server_process([*command, "--workers", str(workers)], port, env, log=log) as base_url:
        yield base_url


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5, help="per row and round (default 5)")
    parser.add_argument("--postgres", default=os.environ.get("FEEDBACK_STUDIO_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    if not have_wrk():
        print("skipped: wrk is not installed (apt-get install wrk)")
        return 0
    tasks = fifty_tasks()
    mc = next(t for t in tasks if t["type"] == "MultipleChoiceTask")
    blanks = next(t for t in tasks if t["type"] == "InTextFillInBlanksTask")
    questions = freeform_questions() if FREEFORM_FILE.exists() else []
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        sqlite = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        quiet = f"sqlite+aiosqlite:///{Path(tmp) / 'quiet.sqlite3'}"
        echo_port, api_port, quiet_port, pg_port = free_ports(4)
        uvicorn = [sys.executable, "-m", "uvicorn", "--log-level", "warning", "--no-access-log"]
        echo = stack.enter_context(
            server_process(
                [*uvicorn, "--app-dir", "bench", "echo_app:app", "--port", str(echo_port)], echo_port
            )
        )
        servers = {
            "sqlite": (
                stack.enter_context(studio(sqlite, api_port, Path(tmp) / "access.log")),
                bench_headers(sqlite),
            )
        }
        servers["quiet"] = (
            stack.enter_context(studio(quiet, quiet_port, Path(tmp) / "quiet.log", access_log=False)),
            bench_headers(quiet),
        )
        if args.postgres:
            database = stack.enter_context(fresh_database(args.postgres))
            headers = bench_headers(database)
            servers["pg"] = (
                stack.enter_context(studio(database, pg_port, Path(tmp) / "pg.log", workers=2)),
                headers,
            )
        all_tasks = [*tasks, *(task for task, _ in questions)]
        interaction_ids = {name: prepare(url, headers, all_tasks) for name, (url, headers) in servers.items()}
        plan: list[tuple[str, str, Callable[[], list[Request]]]] = [
            ("MC, POST /feedback/compute", "sqlite", lambda: compute_supplied(mc, 1000)),
            ("MC, by id", "sqlite", lambda: [compute_by_id(mc) for _ in range(1000)]),
            ("blanks, POST /feedback/compute", "sqlite", lambda: compute_supplied(blanks, 1000)),
            ("blanks, by id", "sqlite", lambda: [compute_by_id(blanks) for _ in range(1000)]),
            ("MC, by id, access log off", "quiet", lambda: [compute_by_id(mc) for _ in range(1000)]),
            ("mixed, SQLite, 1 process", "sqlite", lambda: mixed(tasks, interaction_ids["sqlite"])),
        ]
        if questions:
            plan += [
                ("freeform by id, 200 answers", "sqlite", lambda: freeform_requests(questions)),
                (
                    "freeform by id, every answer new",
                    "sqlite",
                    lambda: freeform_requests(questions, copies=25),
                ),
            ]
        if "pg" in servers:
            plan += [
                ("MC, by id, PostgreSQL, 2 workers", "pg", lambda: [compute_by_id(mc) for _ in range(1000)]),
                ("mixed, PostgreSQL, 2 workers", "pg", lambda: mixed(tasks, interaction_ids["pg"])),
            ]
        rounds = []
        for _ in range(args.rounds):
            results = []
            for name, server, make_requests in plan:
                url, headers = servers[server]
                requests = make_requests()  # new bodies every round
                results.append(measured("  echo, same requests", echo, requests, {}, args.seconds))
                results.append(measured(name, url, requests, headers, args.seconds))
            rounds.append(results)
    engine_rates = (
        {False: engine_alone(questions, fresh=False), True: engine_alone(questions, fresh=True)}
        if questions
        else {}
    )
    print(
        f"Machine: {machine()}\nLoad generator: wrk, {CONNECTIONS} connections, {args.rounds} rounds of {args.seconds} s a row\n"
    )
    middle = [row.wrk for row in rounds[len(rounds) // 2]]
    print(f"Round {len(rounds) // 2 + 1} of {len(rounds)}\n{table(middle)}\n")
    print("| row | ratio to echo (rounds) | p50 ms | p99 ms (rounds) | errors | CPU µs a request (echo) |")
    print("|---|---|---|---|---|---|")
    errors = 0
    for row, (name, _, _) in enumerate(plan):
        echoes = [results[2 * row].wrk for results in rounds]
        served = [results[2 * row + 1].wrk for results in rounds]
        cpu = [results[2 * row + 1].cpu_us for results in rounds]
        echo_cpu = [results[2 * row].cpu_us for results in rounds]
        ratios = [s.throughput / e.throughput for e, s in zip(echoes, served, strict=True)]
        p99s = [s.percentile(99) for s in served]
        errors += sum(s.errors for s in served)
        print(
            f"| {name} | {median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) | "
            f"{median([s.percentile(50) for s in served]):.1f} | {median(p99s):.1f} "
            f"({min(p99s):.1f}–{max(p99s):.1f}) | {sum(s.errors for s in served)} | "
            f"{median(cpu):.0f} ({median(echo_cpu):.0f}) |"
        )
        if name.startswith("freeform"):
            engine_rate = engine_rates["new" in name]
            rate = median([s.throughput for s in served])
            print(
                f"| … beside the engine alone ({engine_rate:.0f} answers/s in process) | {rate / engine_rate:.2f} | | | | |"
            )
    print(f"\nerrors: {errors} (must be 0)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
