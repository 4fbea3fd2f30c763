"""Durability: `feedback-studio serve` killed with SIGKILL under a write load, then restarted.

Every interaction the server answered with 200 before it died must still be there afterwards:
the server commits before it answers, SQLite runs in WAL with synchronous=NORMAL (a committed
transaction survives the death of the process) and PostgreSQL commits durably by default.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from core.api import parse_task_type
from core.assets import demo_tasks, demo_tutors
from core.http import tls_context
from tests.conftest import create_token
from tests.hardening.conftest import ServeProcess
from tests.server.helpers import bearer, blanks_task, compute_body, mc_task

WRITERS = 16
LOAD_SECONDS = 1.5
"""The least time the server runs under load before it is killed."""
PATIENCE_SECONDS = 60

BODIES = [
    compute_body(mc_task(), {"selectedIndex": 1}),
    compute_body(blanks_task(), {"blanks": [{"content": "100"}, {"content": "4"}]}),
]


async def load_until(
    enough: Callable[[], bool], writers: list[asyncio.Task[None]], least: float = LOAD_SECONDS
) -> None:
    """Keep the load on for ``least`` seconds, and on until ``enough()`` holds: a machine busy with
    other work answers fewer requests in the same time, and a kill before the server has answered
    what the test needs proved nothing (under a load average of 12, 3 s saw no chat to its end).
    Returns early if a writer stops (its error is raised when the writers are gathered)."""
    await asyncio.sleep(least)
    deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
    while not enough() and not any(writer.done() for writer in writers):
        assert asyncio.get_running_loop().time() < deadline, "the server answered too little under load"
        await asyncio.sleep(0.05)


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
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=serve.base_url, headers=bearer(token), limits=limits
    ) as client:
        writers = [asyncio.create_task(write_until_killed(client, acknowledged, i)) for i in range(WRITERS)]
        await load_until(lambda: len(acknowledged) > WRITERS, writers)
        serve.kill()
        await asyncio.gather(*writers)
    assert len(acknowledged) > WRITERS

    serve.start()
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=serve.base_url, headers=bearer(token), limits=limits
    ) as client:
        found = await asyncio.gather(*(client.get(f"/interactions/{i}") for i in acknowledged))
    missing = [i for i, response in zip(acknowledged, found, strict=True) if response.status_code != 200]
    assert missing == [], f"{len(missing)} of {len(acknowledged)} acknowledged interactions were lost"


def answer_for(task: dict[str, Any], n: int) -> dict[str, Any]:
    """A valid answer of the task's type, varied by n."""
    kind = task["type"]
    if kind == "MultipleChoiceTask":
        return {"selectedIndex": n % len(task["options"])}
    if kind == "MultipleResponsesTask":
        return {"selected": [(i + n) % 2 == 0 for i in range(len(task["options"]))]}
    if kind == "InTextFillInBlanksTask":
        return {"blanks": [{"content": b["acceptedAnswers"][0] if n % 2 else "?"} for b in task["blanks"]]}
    if kind == "InTextChoicesTask":
        return {"choices": [{"content": c["options"][n % len(c["options"])]} for c in task["choices"]]}
    if kind == "FreeformTextTask":
        return {"content": f"The current flows round the closed circuit ({n})."}
    return {
        "messages": [
            {"role": "assistant", "content": task["initialMessage"]},
            {"role": "user", "content": f"I see your point, let me explain ({n})."},
        ]
    }


@dataclass
class Acknowledged:
    """What the server answered 200 to before it died."""

    interactions: list[str] = field(default_factory=list)
    ratings: list[str] = field(default_factory=list)
    updates: Counter[str] = field(default_factory=Counter)
    chats: int = 0


class MixedWorkload:
    """Of every 20 requests: 16 computes by id over tasks of all six types, 2 upserts that change a
    title, 1 rating, 1 tutor chat streamed to its end (bench/realistic.py's mix)."""

    def __init__(self, tasks: list[dict[str, Any]], rated: list[str]) -> None:
        self.tasks = tasks
        self.rated = rated
        self.done = Acknowledged()

    async def send(self, client: httpx.AsyncClient, n: int) -> None:
        task = self.tasks[n % len(self.tasks)]
        kind = n % 20
        if kind < 16:
            body = {
                "userId": f"u{n}",
                "taskType": parse_task_type(task["type"]).value,
                "answer": answer_for(task, n),
            }
            response = await client.post(f"/tasks/{task['id']}/feedback/compute", json=body)
            assert response.status_code == 200, response.text
            self.done.interactions.append(response.headers["X-Interaction-Id"])
        elif kind < 18:
            response = await client.post("/tenants/default/tasks", json={**task, "title": f"Revised {n}"})
            assert response.status_code == 200, response.text
            self.done.updates[task["id"]] += response.json()["action"] == "UPDATED"
        elif kind == 18:
            interaction = self.rated[n % len(self.rated)]
            response = await client.put(f"/interactions/{interaction}/end-user-rating", json={"type": "GOOD"})
            assert response.status_code == 200, response.text
            self.done.ratings.append(interaction)
        else:
            chat = {
                "tutorId": TUTOR,
                "messages": [{"role": "user", "content": f"Why does it light up ({n})?"}],
            }
            async with client.stream("POST", "/tutor/chat/stream", json=chat) as response:
                assert response.status_code == 200
                text = "".join([chunk async for chunk in response.aiter_text()])
            assert "DONE" in text
            self.done.chats += 1

    async def run_until_killed(self, client: httpx.AsyncClient, worker: int) -> None:
        n = worker
        while True:
            try:
                await self.send(client, n)
            except httpx.TransportError:
                return
            n += WRITERS


TUTOR = "tutor-bulb-circuit-en"


async def prepare_mixed(client: httpx.AsyncClient) -> MixedWorkload:
    """The demo tasks (all six types) and the demo tutor; one interaction per task to rate."""
    tasks = demo_tasks()
    for task in tasks:
        (await client.post("/tenants/default/tasks", json=task)).raise_for_status()
    tutor = next(t for t in demo_tutors() if t["id"] == TUTOR)
    (await client.put(f"/tenants/default/tutors/{TUTOR}", json=tutor)).raise_for_status()
    rated = []
    for n, task in enumerate(tasks):
        body = {"userId": "u", "taskType": parse_task_type(task["type"]).value, "answer": answer_for(task, n)}
        response = await client.post(f"/tasks/{task['id']}/feedback/compute", json=body)
        response.raise_for_status()
        rated.append(response.headers["X-Interaction-Id"])
    return MixedWorkload(tasks, rated)


async def test_nothing_acknowledged_in_the_mixed_workload_is_lost_to_sigkill(serve, database_url):
    token = await create_token(database_url, "default")
    limits = httpx.Limits(max_connections=WRITERS)
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=serve.base_url, headers=bearer(token), limits=limits, timeout=30
    ) as client:
        workload = await prepare_mixed(client)
        workers = [asyncio.create_task(workload.run_until_killed(client, i)) for i in range(WRITERS)]
        done = workload.done
        await load_until(
            lambda: len(done.interactions) > WRITERS and bool(done.updates and done.ratings and done.chats),
            workers,
            least=LOAD_SECONDS * 2,
        )
        serve.kill()
        await asyncio.gather(*workers)
    assert len(done.interactions) > WRITERS and done.updates and done.ratings and done.chats

    serve.start()
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=serve.base_url, headers=bearer(token), limits=limits
    ) as client:
        records = await asyncio.gather(*(client.get(f"/interactions/{i}") for i in done.interactions))
        rated = await asyncio.gather(*(client.get(f"/interactions/{i}") for i in set(done.ratings)))
        stored = {
            task_id: (await client.get(f"/tenants/default/tasks/{task_id}")).json()
            for task_id in done.updates
        }
    missing = [i for i, r in zip(done.interactions, records, strict=True) if r.status_code != 200]
    assert missing == [], f"{len(missing)} of {len(done.interactions)} acknowledged interactions were lost"
    assert [r.json()["rating"]["type"] for r in rated] == ["GOOD"] * len(rated)
    behind = {
        t: (stored[t]["version"], 1 + n) for t, n in done.updates.items() if stored[t]["version"] < 1 + n
    }
    assert behind == {}, f"acknowledged updates lost (stored version, acknowledged): {behind}"
