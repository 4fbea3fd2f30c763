"""The LLM engine against a local OpenAI-compatible streaming server started by the test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from core.api import FreeformTextTask, Language, TutorConfiguration
from core.assets import load_catalogue
from core.tutor.base import Boundary, Debug, EngineFailure, Failed, NewState, Piece, Turn
from core.tutor.grounded import GroundedTutor
from core.tutor.leak_guard import LeakGuard, guarded
from core.tutor.llm import MAX_ATTEMPTS, LlmEngine, completion_part, retry_after_seconds
from tests.core.tutor.helpers import demo_task, fake_llm

TASK = FreeformTextTask.model_validate(demo_task("ff-bulb-circuit-en"))


def turn(message: str = "hi") -> Turn:
    return Turn(
        tutor=TutorConfiguration(id="t", name="t", instructions="Be brief."),
        task=TASK,
        history=(),
        message=message,
        language=Language.EN_US,
        catalogue=load_catalogue(),
    )


async def run(engine: LlmEngine, guard: bool = False) -> list:
    outputs = engine.reply(turn())
    if guard:
        outputs = guarded(outputs, LeakGuard.for_task(TASK, Language.EN_US), "SAFE HINT.")
    return [o async for o in outputs]


def messages(outputs: list) -> list[str]:
    texts = [""]
    for output in outputs:
        if isinstance(output, Piece):
            texts[-1] += output.text
        elif isinstance(output, Boundary):
            texts.append("")
    return texts


async def test_streams_pieces_and_boundaries_and_sends_the_grounded_context():
    with fake_llm() as llm:
        outputs = await run(LlmEngine(llm.base_url, "ok", "secret", 5))
        sent = llm.requests[0]
    assert messages(outputs) == ["What have you tried so far?", "Tell me your first idea."]
    assert sent["stream"] is True
    system = sent["messages"][0]
    assert system["role"] == "system"
    assert TASK.problemStatement in system["content"]
    assert "confidential" in system["content"] and TASK.sampleSolutions[0].content in system["content"]
    assert "Be brief." in system["content"]
    assert sent["messages"][-1] == {"role": "user", "content": "hi"}


def failure(outputs: list) -> Failed:
    [failed] = [o for o in outputs if isinstance(o, Failed)]
    return failed


FAILED_NOTE = load_catalogue().text(Language.EN_US, "tutor.model_failed")


async def test_an_upstream_error_status_is_a_failure_answered_by_the_planned_reply():
    with fake_llm() as llm:
        outputs = await run(LlmEngine(llm.base_url, "fail500", None, 5))
    planned, state, _ = GroundedTutor().plan(turn())
    assert (failure(outputs).kind, failure(outputs).reason) == (
        "http_error",
        "the language model server answered HTTP 500",
    )
    assert failure(outputs).answered_by == "grounded"
    assert messages(outputs) == [FAILED_NOTE, *planned]
    assert outputs[-1] == NewState(state)  # the ladder climbs as if the grounded tutor had spoken


async def test_a_stalled_upstream_times_out():
    with fake_llm() as llm:
        outputs = await run(LlmEngine(llm.base_url, "stall", None, 0.3))
    assert failure(outputs).kind == "timeout"
    assert failure(outputs).reason == "the language model server did not answer within 0.3 s"


async def test_a_reply_past_the_deadline_keeps_what_was_said_and_the_planned_reply_follows():
    with fake_llm() as llm:
        outputs = await run(LlmEngine(llm.base_url, "endless", None, 5, deadline=0.5))
    said = messages(outputs)
    assert said[0].startswith("Think again.") and said[1] == FAILED_NOTE
    assert failure(outputs).kind == "deadline"
    assert "within 0.5 s" in failure(outputs).reason


async def test_a_broken_stream_is_a_clean_failure():
    with fake_llm() as llm:
        outputs = await run(LlmEngine(llm.base_url, "drop", None, 5))
    assert failure(outputs).kind == "broken" and "connection" in failure(outputs).reason


async def test_an_unreachable_server_is_a_clean_failure():
    from tests.conftest import free_port

    outputs = await run(LlmEngine(f"http://127.0.0.1:{free_port()}/v1", "ok", None, 2))
    assert failure(outputs).kind == "unreachable" and "connection" in failure(outputs).reason


async def test_a_busy_server_without_retry_after_is_asked_again_with_a_growing_pause():
    with fake_llm() as llm:
        llm.busy, llm.retry_after = 2, None  # pauses of 1 s, then 2 s
        outputs = await run(LlmEngine(llm.base_url, "ok", None, 5, deadline=20))
    assert messages(outputs) == ["What have you tried so far?", "Tell me your first idea."]
    assert len(llm.requests) == 3


async def test_a_busy_server_is_asked_a_bounded_number_of_times():
    with fake_llm() as llm:
        llm.retry_after = "0"
        outputs = await run(LlmEngine(llm.base_url, "busy", None, 5, deadline=20))
    assert failure(outputs).kind == "busy" and failure(outputs).reason.startswith("the model is busy")
    assert len(llm.requests) == MAX_ATTEMPTS
    assert messages(outputs)[0] == load_catalogue().text(Language.EN_US, "tutor.model_busy")


def test_retry_after_is_read_as_seconds_or_a_date():
    assert retry_after_seconds("7") == 7
    assert retry_after_seconds("-3") == 0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None
    later = datetime.now(UTC) + timedelta(seconds=30)
    assert 25 <= (retry_after_seconds(format_datetime(later, usegmt=True)) or 0) <= 30


def test_a_chunk_of_the_wrong_shape_is_no_completion():
    assert completion_part({"choices": [{"delta": {"content": "Hi"}}]}, "delta") == ("Hi", False)
    assert completion_part({"choices": [{"delta": {}, "finish_reason": "stop"}]}, "delta") == ("", True)
    assert completion_part({"choices": [], "usage": {}}, "delta") == ("", False)
    assert completion_part({"choices": [{"message": {"content": "Hi"}}]}, "message") == ("Hi", False)
    with pytest.raises(EngineFailure, match="reported an error: overloaded") as error:
        completion_part({"error": {"message": "overloaded"}}, "delta")
    assert error.value.kind == "model_error"
    for shape in ([1, 2, 3], "x", {"id": 1}, {"choices": ["x"]}):
        with pytest.raises(EngineFailure) as error:
            completion_part(shape, "delta")
        assert error.value.kind == "not_a_completion", shape


async def test_a_reply_that_leaks_the_sample_solution_is_replaced_by_the_planned_reply():
    """The learner gets the grounded tutor's reply for the same turn: no ERROR, no generic line."""
    with fake_llm() as llm:
        llm.reply = "Sure! " + TASK.sampleSolutions[0].content
        outputs = await run(LlmEngine(llm.base_url, "ok", None, 5), guard=True)
    planned, _, _ = GroundedTutor().plan(turn())
    assert [m.strip() for m in messages(outputs)] == ["Sure!", *planned]
    replaced = next(o.entry for o in outputs if isinstance(o, Debug) and "leakGuard" in o.entry)
    assert (replaced["leakGuard"], replaced["sent"]) == ("replaced", "the planned reply")
