"""SIMULATION feedback from a transcript: spans on the learner's words only, points, the solution."""

from __future__ import annotations

import pytest

from core.api import ChatTurn, InvalidParameter, SimulationAnswer, SimulationTask
from core.assets import load_catalogue
from core.engine.base import EngineContext
from core.engine.simulation import compute
from tests.core.tutor.helpers import demo_task

TASK = SimulationTask.model_validate(demo_task("sim-customer-objections-en"))
CTX = EngineContext(catalogue=load_catalogue())

TRANSCRIPT = [
    ChatTurn(role="assistant", content=TASK.initialMessage),
    ChatTurn(role="user", content="Hello! The price is 49 per month."),
    ChatTurn(role="assistant", content="Is there a free trial? Can I cancel any time?"),
    ChatTurn(role="user", content="Sure. But you should sign today, it's your last chance."),
]


def test_aspects_point_exactly_at_the_learners_words():
    result = compute(TASK, SimulationAnswer(messages=TRANSCRIPT), CTX)
    found = {d.aspect.name: d.context for d in result.allAspects}
    assert set(found) == {"Addresses the price", "Pressures the customer"}
    for spans in found.values():
        for span in spans:
            turn = TRANSCRIPT[span.messageIndex]
            assert turn.role == "user"
            assert turn.content[span.offset : span.offset + span.length] == span.content
    assert {s.messageIndex for s in found["Pressures the customer"]} == {3}


def test_points_items_and_sample_solution():
    result = compute(TASK, SimulationAnswer(messages=TRANSCRIPT), CTX)
    assert result.points.achievedPoints == 0  # one concept shown, one misconception: 1 - 1
    assert result.points.achievablePoints == 3
    by_correctness = {item.aspects[0].name: item.correctness.value for item in result.feedback}
    assert by_correctness == {
        "Pressures the customer": "WRONG",
        "Explains the switch": "WRONG",
        "Removes the risk": "WRONG",
        "Addresses the price": "CORRECT",
    }
    assert result.sampleSolution is not None and result.sampleSolution.content == TASK.sampleSolution


def test_the_stored_transcript_gives_the_same_feedback():
    by_messages = compute(TASK, SimulationAnswer(messages=TRANSCRIPT), CTX)
    stored = EngineContext(catalogue=CTX.catalogue, transcript=tuple(TRANSCRIPT))
    by_id = compute(TASK, SimulationAnswer(conversationId="c-1"), stored)
    assert by_id.model_dump(exclude={"answer"}) == by_messages.model_dump(exclude={"answer"})
    with pytest.raises(InvalidParameter):
        compute(TASK, SimulationAnswer(conversationId="c-1"), CTX)


def test_everything_shown_without_misconceptions_is_correct():
    transcript = [
        ChatTurn(role="user", content="It costs 49 per month and pays for itself."),
        ChatTurn(role="user", content="We do the installation on a Sunday, so there is no downtime."),
        ChatTurn(role="user", content="Start with a free trial and cancel any time."),
    ]
    result = compute(TASK, SimulationAnswer(messages=transcript), CTX)
    assert result.verdict.value == "CORRECT"
    assert result.feedback[0].message.startswith("Well done")


def test_the_language_of_the_task_is_the_language_of_the_feedback():
    task = SimulationTask.model_validate(demo_task("sim-elterngespraech-de"))
    transcript = [ChatTurn(role="user", content="Lena ist einfach faul.")]
    result = compute(task, SimulationAnswer(messages=transcript), CTX)
    wrong = result.feedback[0]
    assert wrong.correctness.value == "WRONG"
    assert "Das solltest du vermeiden" in wrong.message
    assert wrong.context[0].content == "faul"
