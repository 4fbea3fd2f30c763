"""Multiple responses: every option is a yes-or-no decision, credited on its own."""

from __future__ import annotations

import pytest

from core.api import (
    AspectDefinition,
    AspectGroup,
    ChoiceOption,
    InvalidParameter,
    Language,
    MultipleResponsesAnswer,
    MultipleResponsesTask,
)
from core.assets import load_catalogue
from core.engine import EngineContext
from core.engine.multiple_responses import compute

CTX = EngineContext(catalogue=load_catalogue())
ENERGY = AspectGroup(name="Renewable energy")


def energy_task(language: Language = Language.EN_UK) -> MultipleResponsesTask:
    return MultipleResponsesTask(
        id="energy",
        title="Renewable energy",
        problemStatement="Which sources are renewable?",
        language=language,
        options=[
            ChoiceOption(
                content="Solar",
                correct=True,
                aspects=[AspectDefinition(name="Solar is renewable", aspectGroup=ENERGY)],
            ),
            ChoiceOption(
                content="Coal",
                feedback="Coal took millions of years to form.",
                aspects=[
                    AspectDefinition(
                        name="Fossil fuels seem renewable", type="MISCONCEPTION", aspectGroup=ENERGY
                    )
                ],
            ),
            ChoiceOption(content="Wind", correct=True),
            ChoiceOption(content="Gas"),
        ],
    )


def feedback_for(selected: list[bool], task: MultipleResponsesTask | None = None) -> dict:
    result = compute(task or energy_task(), MultipleResponsesAnswer(selected=selected), CTX)
    return result.model_dump(mode="json", by_alias=True)


def test_exactly_the_right_options_earn_every_point_and_one_correct_item() -> None:
    result = feedback_for([True, False, True, False])

    assert result["points"] == {"achievedPoints": 4.0, "achievablePoints": 4.0}
    [item] = result["feedback"]
    assert item["correctness"] == "CORRECT"
    assert item["message"] == "Well done: you chose exactly the right options."
    assert item["context"] == [
        {"index": 0, "selected": True},
        {"index": 1, "selected": False},
        {"index": 2, "selected": True},
        {"index": 3, "selected": False},
    ]
    assert [(d["aspect"]["name"], d["context"]) for d in result["allAspects"]] == [
        ("Solar is renewable", {"index": 0, "selected": True})
    ]
    assert result["sampleSolution"] == {"selected": [True, False, True, False]}


def test_a_partly_right_answer_gets_a_point_per_right_option_and_an_item_per_wrong_one() -> None:
    result = feedback_for([True, True, False, False])

    assert result["points"] == {"achievedPoints": 2.0, "achievablePoints": 4.0}
    wrongly_selected, missed = result["feedback"]
    assert wrongly_selected == {
        "message": "Coal took millions of years to form.",
        "aspects": [
            {
                "name": "Fossil fuels seem renewable",
                "description": "",
                "type": "MISCONCEPTION",
                "aspectGroup": {"name": "Renewable energy", "description": None},
            }
        ],
        "correctness": "WRONG",
        "topic": {"name": "Renewable energy", "description": None},
        "context": [{"index": 1, "selected": True}],
    }
    assert missed["message"] == "Option 3 is right as well: have another look at it."
    assert missed["context"] == [{"index": 2, "selected": False}]
    assert missed["topic"] == {"name": "Renewable energy", "description": None}
    assert [(d["aspect"]["type"], d["context"]) for d in result["allAspects"]] == [
        ("CONCEPT", {"index": 0, "selected": True}),
        ("MISCONCEPTION", {"index": 1, "selected": True}),
    ]


def test_every_option_judged_wrong_is_a_wrong_answer() -> None:
    result = feedback_for([False, True, False, True])

    assert result["points"] == {"achievedPoints": 0.0, "achievablePoints": 4.0}
    assert [item["correctness"] for item in result["feedback"]] == ["WRONG"] * 4
    assert [item["context"][0]["index"] for item in result["feedback"]] == [0, 1, 2, 3]
    assert result["feedback"][3]["message"] == "Option 4 is not right."


def test_messages_speak_the_tasks_language() -> None:
    result = feedback_for([False, False, True, True], energy_task(Language.ES_ES))

    assert [item["message"] for item in result["feedback"]] == [
        "La opción 1 también es correcta: vuelve a mirarla.",
        "La opción 4 no es correcta.",
    ]


def test_swiss_german_praise_has_no_sharp_s() -> None:
    result = feedback_for([True, False, True, False], energy_task(Language.DE_CH))
    assert result["feedback"][0]["message"] == "Grossartig: Du hast genau die richtigen Antworten gewählt."


@pytest.mark.parametrize("selected", [[True], [True, False, True, False, False]])
def test_a_selection_of_the_wrong_length_is_refused(selected: list[bool]) -> None:
    with pytest.raises(InvalidParameter, match=f"selected has {len(selected)} entries, but the task has 4"):
        feedback_for(selected)


@pytest.mark.parametrize(
    ("selected", "says"),
    [([False] * 4, "Nothing is ticked"), ([True] * 4, "Every option is ticked")],
    ids=["nothing", "everything"],
)
def test_ticking_nothing_or_everything_is_wrong_and_says_why(selected, says):
    task = energy_task()
    selected = selected[: len(task.options)]
    result = compute(task, MultipleResponsesAnswer(selected=selected), CTX)
    assert result.points.verdict.value == "WRONG" and result.points.achievedPoints == 0
    assert [item.message.split(":")[0] for item in result.feedback] == [says]
    german = compute(energy_task(Language.DE_DE), MultipleResponsesAnswer(selected=selected), CTX)
    assert german.feedback[0].message.startswith(("Nichts", "Alles"))


def test_ticking_everything_is_right_when_every_option_is():
    task = MultipleResponsesTask(
        id="all",
        problemStatement="Which are prime?",
        options=[ChoiceOption(content="2", correct=True), ChoiceOption(content="3", correct=True)],
    )
    assert (
        compute(task, MultipleResponsesAnswer(selected=[True, True]), CTX).points.verdict.value == "CORRECT"
    )
