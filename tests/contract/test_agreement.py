"""Contract: LocalService and RemoteService give the same answers to the same calls.

The per-service tests show that each keeps the contract; these put the two side by side, each
on fresh data, and compare what they return, leaving out only what is unique per call (ids,
timestamps, links that carry the server's address).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from core.api import ServiceError, TaskBase, TutorEvent, TutorEventType
from core.service.base import Service
from tests.contract.builders import blanks_task, chat, compute, compute_stored, mc_task, tutor
from tests.contract.test_feedback import CASES

pytestmark = pytest.mark.contract


@pytest.mark.parametrize(("task", "right", "wrong"), CASES)
async def test_feedback_is_the_same(
    pair: tuple[Service, Service], task: TaskBase, right: dict[str, Any], wrong: dict[str, Any]
) -> None:
    results = []
    for service in pair:
        first = await service.compute_feedback(compute(task, right))
        second = await service.compute_feedback(compute(task, wrong))
        stored = await service.compute_feedback_for_task(task.id, compute_stored(task, wrong))
        results.append([(f.taskType, f.metaData.taskAction, f.result) for f in (first, second, stored)])
    assert results[0] == results[1]


async def outcome(call: Callable[[], Awaitable[Any]]) -> tuple[str, str]:
    try:
        return "returned", repr(await call())
    except ServiceError as exc:
        return type(exc).__name__, exc.message


async def test_errors_are_the_same(pair: tuple[Service, Service]) -> None:
    outcomes = []
    for service in pair:
        await service.upsert_task("default", mc_task())
        outcomes.append(
            [
                await outcome(lambda s=service: s.upsert_task("default", blanks_task("mc-1"))),
                await outcome(lambda s=service: s.delete_task("default", "no-such-task")),
                await outcome(
                    lambda s=service: s.compute_feedback(
                        compute(mc_task(), {"selectedIndex": 0}, tenantId="x")
                    )
                ),
                await outcome(lambda s=service: s.get_tutor("no-such-tutor")),
            ]
        )
    assert outcomes[0] == outcomes[1]
    assert all(kind != "returned" for kind, _ in outcomes[0])


async def test_the_stream_yields_the_same_events(pair: tuple[Service, Service]) -> None:
    streams = []
    for service in pair:
        await service.upsert_task("default", mc_task())
        await service.put_tutor("default", "tutor-1", tutor())
        events = [e async for e in service.chat_stream(chat("tutor-1", conversationId="c-1", debugMode=True))]
        assert events[-3].event is TutorEventType.TRACE and events[-3].text
        streams.append(
            [
                TutorEvent(event=e.event, text="<trace id>") if e.event is TutorEventType.TRACE else e
                for e in events
            ]
        )
    assert streams[0] == streams[1]
