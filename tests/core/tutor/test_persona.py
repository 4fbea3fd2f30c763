"""The offline persona raises the scenario's objections until the learner addresses them."""

from __future__ import annotations

from core.api import ChatTurn, SimulationTask
from core.assets import demo_tasks
from core.tutor.persona import PersonaEngine
from tests.core.tutor.helpers import converse, demo_task

TASK = SimulationTask.model_validate(demo_task("sim-customer-objections-en"))
OBJECTIONS = [a.message for a in TASK.aspects if a.type.value == "CONCEPT"]
PUSHBACK = next(a.message for a in TASK.aspects if a.type.value == "MISCONCEPTION")


def talk(*lines: str) -> list[list[str]]:
    opening = [ChatTurn(role="assistant", content=TASK.initialMessage)]
    return [replies for replies, _ in converse(PersonaEngine(), TASK, list(lines), opening)]


def test_objections_come_one_by_one_and_return_until_addressed():
    replies = talk(
        "Hello, nice to meet you.",
        "Our system is great.",
        "It is 49 per month.",
        "We do the installation on a Sunday.",
        "There is a free trial.",
    )
    assert replies[0] == [OBJECTIONS[0]]
    assert replies[1][0].startswith("You haven't really answered me yet.") and OBJECTIONS[0] in replies[1][0]
    assert replies[2][1] == OBJECTIONS[1]
    assert replies[3][1] == OBJECTIONS[2]
    assert replies[4][-1] == "Thank you, that answers my questions."


def test_pressure_gets_a_reaction():
    assert talk("You must sign today.")[0][0] == PUSHBACK


def test_every_demo_scenario_gives_its_persona_a_line_for_each_aspect():
    scenarios = [t for t in demo_tasks() if t["type"] == "SimulationTask"]
    assert {t["language"][:2] for t in scenarios} == {"EN", "DE"}
    for document in scenarios:
        task = SimulationTask.model_validate(document)
        assert task.initialMessage and task.persona and task.sampleSolution
        assert all(aspect.message for aspect in task.aspects), task.id


def test_an_authors_coaching_message_or_description_is_never_spoken_by_the_counterpart():
    """Written as feedback ("You should …"), a message would tell the learner what to do."""
    coached = TASK.model_copy(
        update={
            "aspects": [
                a.model_copy(update={"message": f"You should {a.description.lower()}"}) for a in TASK.aspects
            ]
        }
    )
    opening = [ChatTurn(role="assistant", content=TASK.initialMessage)]
    [(messages, _)] = converse(PersonaEngine(), coached, ["Hello, nice to meet you."], opening)
    said = " ".join(messages)
    assert not any(a.description.lower() in said.lower() for a in TASK.aspects), said
    assert "You should" not in said and said.endswith("?")
