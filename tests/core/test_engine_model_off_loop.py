"""A freeform task's engine model (its graded answers' sentences encoded for the grader: up to
seconds for a task with many long ones) is built in a worker thread, not on the event loop (inside
a compute route's write job, or in a retest): the rest of the process (a choice task, a health
check, the apps' screens) goes on answering."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from core.api import (
    Correctness,
    Expectation,
    FreeformTextTask,
    GradedAnswer,
    GradedAnswersRequest,
    TestAnswer,
    TestAnswersRequest,
)
from core.engine.freeform import model as model_module
from core.service.local import LocalService
from tests.contract.builders import compute, compute_stored, mc_task


def circuit() -> FreeformTextTask:
    """A task no other test has judged (the engine keeps models per task content)."""
    return FreeformTextTask(
        id=f"circuit-{uuid.uuid4().hex[:8]}",
        problemStatement="What must you do so that the bulb lights up?",
        sampleSolutions=[{"content": "Close the circuit from one pole of the battery to the other."}],
    )


@pytest.mark.parametrize("route", ["task sent along", "stored task by id", "retest"])
async def test_a_freeform_model_is_built_off_the_event_loop_while_a_choice_task_is_answered(
    service: LocalService, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    task = circuit()
    await service.upsert_task("default", task)
    answer = {"content": "Close the circuit: connect both poles."}
    await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))  # the text models loaded
    started, release = threading.Event(), threading.Event()
    built_on: list[int] = []
    build = model_module.build_model

    def slow_build(*args, **kwargs):  # as a task with hundreds of long graded answers would be
        built_on.append(threading.get_ident())
        started.set()
        release.wait(5)
        return build(*args, **kwargs)

    monkeypatch.setattr(model_module, "build_model", slow_build)
    if route == "retest":
        expected = Expectation(verdict=Correctness.CORRECT)
        test_answers = TestAnswersRequest(
            answers=[TestAnswer(label="right", answer=answer, expected=expected)]
        )
        await service.add_test_answers("default", task.id, test_answers)
    if route == "task sent along":
        judging = asyncio.create_task(service.compute_feedback(compute(task, answer)))
    elif route == "retest":
        judging = asyncio.create_task(service.retest("default", [task.id]))
    else:
        judging = asyncio.create_task(
            service.compute_feedback_for_task(task.id, compute_stored(task, answer))
        )
    try:
        assert await asyncio.to_thread(started.wait, 5)
        choice = await asyncio.wait_for(service.compute_feedback(compute(mc_task(), {"selectedIndex": 1})), 2)
        assert choice.result.points is not None and not judging.done()
    finally:
        release.set()
    judged = await judging
    if route == "retest":
        assert [t.taskId for t in judged.tasks] == [task.id]
        feedback = await service.compute_feedback(compute(task, answer))
    else:
        feedback = judged
    assert feedback.result.points.achievedPoints > 0
    assert built_on and threading.get_ident() not in built_on  # never on the loop's thread
    again = await service.compute_feedback_for_task(task.id, compute_stored(task, answer))
    assert again.result.points == feedback.result.points and len(built_on) == 1  # built once


async def test_graded_answers_added_have_the_model_built_before_the_next_answer_comes(
    service: LocalService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Graded answers make a task's model dear (each one is judged when it is built): it is built
    when they are added, so the next learner's answer does not wait for it."""
    task = circuit()
    await service.upsert_task("default", task)
    built: list[int] = []
    build = model_module.build_model

    def counted_build(*args, **kwargs):
        built.append(len(args[1]))  # the graded answers it was built with
        return build(*args, **kwargs)

    monkeypatch.setattr(model_module, "build_model", counted_build)
    graded = [
        GradedAnswer(answer={"content": text}, correctness=correctness)
        for text, correctness in [
            ("Close the circuit from one pole to the other.", Correctness.CORRECT),
            ("Connect both poles of the battery to the bulb.", Correctness.CORRECT),
            ("A closed loop through the bulb and the battery.", Correctness.CORRECT),
            ("Press the bulb hard.", Correctness.WRONG),
            ("Use one wire only.", Correctness.WRONG),
            ("Wait until it lights.", Correctness.WRONG),
        ]
    ]
    await service.add_graded_answers("default", task.id, GradedAnswersRequest(answers=graded))
    assert built == [6]  # built with the six, before the next answer
    feedback = await service.compute_feedback_for_task(
        task.id, compute_stored(task, {"content": "Close the circuit: one pole to the other."})
    )
    assert feedback.result.points.achievedPoints > 0 and built == [6]  # found built


async def test_graded_answers_are_stored_even_when_building_the_model_ahead_fails(
    service: LocalService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Building ahead is a saving, not part of the request: what the author sent is kept, and the
    next answer builds the model (or says why it cannot)."""
    task = circuit()
    await service.upsert_task("default", task)

    def failing_build(*args, **kwargs):
        raise RuntimeError("no room")

    monkeypatch.setattr(model_module, "build_model", failing_build)
    graded = [
        GradedAnswer(
            answer={"content": f"answer {n}"}, correctness=Correctness.CORRECT if n % 2 else Correctness.WRONG
        )
        for n in range(6)
    ]
    added = await service.add_graded_answers("default", task.id, GradedAnswersRequest(answers=graded))
    assert (added.added, added.total) == (6, 6)
    assert "ahead of its answers failed" in caplog.text
