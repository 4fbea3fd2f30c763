"""The LLM engine against a local OpenAI-compatible streaming server started by the test."""

from __future__ import annotations

import pytest

from core.api import FreeformTextTask, Language, TutorConfiguration
from core.assets import load_catalogue
from core.tutor.base import Boundary, Debug, EngineFailure, Piece, Turn
from core.tutor.grounded import GroundedTutor
from core.tutor.leak_guard import LeakGuard, guarded
from core.tutor.llm import LlmEngine
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


async def test_an_upstream_error_status_is_a_clean_failure():
    with fake_llm() as llm, pytest.raises(EngineFailure, match="HTTP 500"):
        await run(LlmEngine(llm.base_url, "fail500", None, 5))


async def test_a_stalled_upstream_times_out():
    with fake_llm() as llm, pytest.raises(EngineFailure, match=r"did not answer within 0\.3 s"):
        await run(LlmEngine(llm.base_url, "stall", None, 0.3))


async def test_a_broken_stream_is_a_clean_failure():
    with fake_llm() as llm, pytest.raises(EngineFailure, match="connection"):
        await run(LlmEngine(llm.base_url, "drop", None, 5))


async def test_an_unreachable_server_is_a_clean_failure():
    from tests.conftest import free_port

    with pytest.raises(EngineFailure, match="connection"):
        await run(LlmEngine(f"http://127.0.0.1:{free_port()}/v1", "ok", None, 2))


async def test_a_reply_that_leaks_the_sample_solution_is_replaced_by_the_planned_reply():
    """The learner gets the grounded tutor's reply for the same turn: no ERROR, no generic line."""
    with fake_llm() as llm:
        llm.reply = "Sure! " + TASK.sampleSolutions[0].content
        outputs = await run(LlmEngine(llm.base_url, "ok", None, 5), guard=True)
    planned, _, _ = GroundedTutor().plan(turn())
    assert [m.strip() for m in messages(outputs)] == ["Sure!", *planned]
    replaced = next(o.entry for o in outputs if isinstance(o, Debug) and "leakGuard" in o.entry)
    assert (replaced["leakGuard"], replaced["sent"]) == ("replaced", "the planned reply")
