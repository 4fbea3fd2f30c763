"""Questions about a term are answered from the task's own words, glossary-style, and never with
a concept the learner has not shown yet."""

from __future__ import annotations

from typing import Any

from core.api import ChatTurn, TutorConfiguration, parse_task
from core.assets import load_catalogue
from core.tutor.base import Turn
from core.tutor.grounded import GroundedTutor
from core.tutor.leak_guard import LeakGuard
from tests.core.tutor.helpers import demo_task

CIRCUIT = demo_task("ff-bulb-circuit-en")
GROUPED: dict[str, Any] = {
    **CIRCUIT,
    "aspects": [
        {
            **aspect,
            "aspectGroup": {
                "name": "Electric circuits",
                "description": "A battery is a store of electric energy that can drive a current.",
            },
        }
        for aspect in CIRCUIT["aspects"]
    ],
}


def explain(document: dict[str, Any], question: str, *earlier: str) -> str:
    task = parse_task(document)
    turn = Turn(
        tutor=TutorConfiguration(id="t", name="t"),
        task=task,
        history=tuple(ChatTurn(role="user", content=m) for m in earlier),
        message=question,
        language=task.language,
        catalogue=load_catalogue(),
    )
    messages, _, debug = GroundedTutor().plan(turn)
    assert debug["move"] == "explain_term"
    [reply] = messages
    guard = LeakGuard.for_task(task, task.language, learner_said=[*earlier, question])
    assert guard.check(reply) is None, reply
    return reply


def test_a_term_is_explained_by_an_aspect_group_description_and_shown_where_the_task_uses_it():
    reply = explain(GROUPED, "What is a battery?")
    assert "A battery is a store of electric energy that can drive a current." in reply
    assert "“On the table lie a bulb, a battery and two wires.”" in reply


LOOK_UP = "notes or book"


def test_a_term_of_a_concept_not_shown_yet_is_left_to_the_learner_and_explained_once_shown():
    """The description of "Current heats the filament" would tell the concept; after the learner
    has shown it, it is theirs to hear."""
    before = explain(CIRCUIT, "What is a filament?")
    assert LOOK_UP in before and "heats" not in before
    after = explain(
        CIRCUIT, "What is a filament?", "The current flows through the filament and heats it, so it glows."
    )
    assert "The current flowing through the thin filament heats it until it glows." in after


def test_a_term_the_context_defines_is_explained_by_it_and_a_course_label_explains_nothing():
    defined = {
        **CIRCUIT,
        "context": "Physics, lower secondary. A circuit is a path along which a current can flow.",
    }
    assert "A circuit is a path along which a current can flow." in explain(
        defined, "What does circuit mean?"
    )
    label = explain(
        CIRCUIT, "What does circuit mean?"
    )  # "Physics, lower secondary: simple electric circuits."
    assert "Physics" not in label and LOOK_UP in label


def test_an_answer_word_and_a_word_the_task_never_uses_get_the_same_reply():
    """Were they told apart, asking about word after word would find the answer of a blanks task."""
    blanks = demo_task("blanks-water-cycle-en")
    answer, stranger = explain(blanks, "What does evaporate mean?"), explain(blanks, "What does photon mean?")
    assert answer == stranger and LOOK_UP in answer
