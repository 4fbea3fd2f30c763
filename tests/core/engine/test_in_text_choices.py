"""In-text choices: at each choice point the learner picks one of the offered words."""

from __future__ import annotations

import pytest

from core.api import (
    AspectDefinition,
    AspectGroup,
    ChoicePoint,
    InTextChoicesAnswer,
    InTextChoicesTask,
    InvalidParameter,
    Language,
)
from core.assets import load_catalogue
from core.engine import EngineContext
from core.engine.in_text_choices import compute

CTX = EngineContext(catalogue=load_catalogue())
PRESENT = AspectGroup(name="Present simple")


def tenses_task(language: Language = Language.EN_UK) -> InTextChoicesTask:
    return InTextChoicesTask(
        id="tenses",
        title="Verb forms",
        problemStatement="She {{1}} to school. Yesterday we {{2}} football. If I {{3}} you …",
        language=language,
        choices=[
            ChoicePoint(
                options=["go", "goes"],
                correct="goes",
                feedback="He, she, it: the verb takes -s.",
                aspects=[
                    AspectDefinition(name="Third person -s", aspectGroup=PRESENT),
                    AspectDefinition(name="Drops the -s", type="MISCONCEPTION", aspectGroup=PRESENT),
                ],
            ),
            ChoicePoint(options=["play", "played"], correct="played"),
            ChoicePoint(options=["was", "were"], correct="were"),
        ],
    )


def feedback_for(*contents: str, task: InTextChoicesTask | None = None) -> dict:
    answer = InTextChoicesAnswer(choices=[{"content": c} for c in contents])
    return compute(task or tenses_task(), answer, CTX).model_dump(mode="json", by_alias=True)


def test_every_choice_right_earns_every_point_and_one_correct_item() -> None:
    result = feedback_for("goes", "played", "were")

    assert result["points"] == {"achievedPoints": 3.0, "achievablePoints": 3.0}
    [item] = result["feedback"]
    assert item["correctness"] == "CORRECT"
    assert item["message"] == "Well done: every choice is right."
    assert item["context"] == [
        {"content": "goes", "index": 0},
        {"content": "played", "index": 1},
        {"content": "were", "index": 2},
    ]
    assert item["topic"] == {"name": "Present simple", "description": None}
    assert [(d["aspect"]["name"], d["context"]) for d in result["allAspects"]] == [
        ("Third person -s", {"content": "goes", "index": 0})
    ]
    assert result["sampleSolution"] == {
        "choices": [{"content": "goes"}, {"content": "played"}, {"content": "were"}]
    }


def test_a_partly_right_answer_has_an_item_for_each_wrong_choice() -> None:
    result = feedback_for("go", "played", "was")

    assert result["points"] == {"achievedPoints": 1.0, "achievablePoints": 3.0}
    first, third = result["feedback"]
    assert first["correctness"] == "WRONG"
    assert first["message"] == "He, she, it: the verb takes -s."
    assert first["context"] == [{"content": "go", "index": 0}]
    assert [a["name"] for a in first["aspects"]] == ["Third person -s", "Drops the -s"]
    assert third["message"] == "Choice 3: “was” does not fit here."
    assert third["topic"] == {"name": "Verb forms", "description": None}
    assert [(d["aspect"]["type"], d["context"]) for d in result["allAspects"]] == [
        ("MISCONCEPTION", {"content": "go", "index": 0})
    ]


def test_a_wrong_answer_with_an_unanswered_point() -> None:
    result = feedback_for("go", "play", "")

    assert result["points"] == {"achievedPoints": 0.0, "achievablePoints": 3.0}
    assert [item["correctness"] for item in result["feedback"]] == ["WRONG"] * 3
    assert result["feedback"][2]["message"] == "You have not chosen anything for choice 3 yet."
    assert result["feedback"][2]["context"] == [{"content": "", "index": 2}]


def test_the_chosen_text_is_read_regardless_of_case_and_spacing() -> None:
    result = feedback_for(" GOES ", "Played", "were")
    assert result["feedback"][0]["correctness"] == "CORRECT"
    assert result["feedback"][0]["context"][0] == {"content": " GOES ", "index": 0}


def test_messages_speak_the_tasks_language() -> None:
    result = feedback_for("goes", "play", "", task=tenses_task(Language.IT_IT))
    assert [item["message"] for item in result["feedback"]] == [
        "Scelta 2: «play» qui non va bene.",
        "Per la scelta 3 non hai ancora scelto niente.",
    ]
    german = feedback_for("goes", "played", "were", task=tenses_task(Language.DE_DE))
    assert german["feedback"][0]["message"] == "Großartig: Du hast überall richtig gewählt."


def test_a_choice_that_is_not_among_the_options_is_refused() -> None:
    with pytest.raises(InvalidParameter, match="choice 2: 'plays' is not one of its options"):
        feedback_for("goes", "plays", "were")


@pytest.mark.parametrize("contents", [("goes", "played"), ("goes", "played", "were", "were")])
def test_an_answer_with_the_wrong_number_of_choices_is_refused(contents: tuple[str, ...]) -> None:
    with pytest.raises(InvalidParameter, match=f"the answer has {len(contents)} choices, but the task has 3"):
        feedback_for(*contents)
