"""Multiple choice: the learner picks one option and is told whether it is the right one."""

from __future__ import annotations

import pytest

from core.api import (
    AspectDefinition,
    AspectGroup,
    ChoiceOption,
    InvalidParameter,
    Language,
    MultipleChoiceAnswer,
    MultipleChoiceTask,
)
from core.assets import load_catalogue
from core.engine import EngineContext, compute_result
from core.engine.multiple_choice import compute

CTX = EngineContext(catalogue=load_catalogue())
GASES = AspectGroup(name="Photosynthesis", description="How plants make sugar.")


def gas_task(language: Language = Language.EN_US) -> MultipleChoiceTask:
    return MultipleChoiceTask(
        id="gas",
        title="The gas plants take in",
        problemStatement="Which gas do plants take in for photosynthesis?",
        language=language,
        options=[
            ChoiceOption(
                content="Oxygen",
                feedback="Oxygen is given off, not taken in.",
                aspects=[AspectDefinition(name="Swaps the gases", type="MISCONCEPTION", aspectGroup=GASES)],
            ),
            ChoiceOption(
                content="Carbon dioxide",
                correct=True,
                aspects=[AspectDefinition(name="CO2 is an input", type="CONCEPT", aspectGroup=GASES)],
            ),
            ChoiceOption(content="Nitrogen"),
        ],
    )


def feedback_for(task: MultipleChoiceTask, index: int) -> dict:
    return compute(task, MultipleChoiceAnswer(selectedIndex=index), CTX).model_dump(
        mode="json", by_alias=True
    )


def test_the_correct_option_earns_the_point_and_shows_its_concept() -> None:
    result = feedback_for(gas_task(), 1)

    assert result["points"] == {"achievedPoints": 1.0, "achievablePoints": 1.0}
    [item] = result["feedback"]
    assert item["correctness"] == "CORRECT"
    assert item["message"] == "That is right."
    assert item["context"] == [{"index": 1, "selected": True}]
    assert item["topic"] == {"name": "Photosynthesis", "description": "How plants make sugar."}
    [detected] = result["allAspects"]
    assert detected["aspect"]["name"] == "CO2 is an input"
    assert detected["context"] == {"index": 1, "selected": True}
    assert result["sampleSolution"] == {"selectedIndex": 1}
    assert result["answer"] == {"selectedIndex": 1}


def test_a_wrong_option_gets_the_authors_feedback_and_shows_its_misconception() -> None:
    result = feedback_for(gas_task(), 0)

    assert result["points"] == {"achievedPoints": 0.0, "achievablePoints": 1.0}
    [item] = result["feedback"]
    assert item["correctness"] == "WRONG"
    assert item["message"] == "Oxygen is given off, not taken in."
    assert [a["name"] for a in item["aspects"]] == ["Swaps the gases"]
    assert item["context"] == [{"index": 0, "selected": True}]
    assert [(d["aspect"]["type"], d["context"]) for d in result["allAspects"]] == [
        ("MISCONCEPTION", {"index": 0, "selected": True})
    ]
    assert result["sampleSolution"] == {"selectedIndex": 1}


def test_a_wrong_option_without_feedback_gets_a_catalogue_message_on_the_task_title() -> None:
    result = feedback_for(gas_task(), 2)

    [item] = result["feedback"]
    assert item["message"] == "Option 3 is not right."
    assert item["topic"] == {"name": "The gas plants take in", "description": None}
    assert result["allAspects"] == []


@pytest.mark.parametrize(
    ("language", "wrong", "right"),
    [
        (Language.DE_DE, "Antwort 3 stimmt nicht.", "Das ist richtig."),
        (Language.FR_FR, "La réponse 3 n’est pas juste.", "C’est juste."),
        (Language.IT_IT, "La risposta 3 non è giusta.", "Esatto, è giusto."),
        (Language.ES_ES, "La opción 3 no es correcta.", "¡Correcto!"),
    ],
)
def test_messages_speak_the_tasks_language(language: Language, wrong: str, right: str) -> None:
    assert feedback_for(gas_task(language), 2)["feedback"][0]["message"] == wrong
    assert feedback_for(gas_task(language), 1)["feedback"][0]["message"] == right


@pytest.mark.parametrize("index", [3, -1])
def test_an_index_outside_the_options_is_refused(index: int) -> None:
    with pytest.raises(InvalidParameter, match="out of range"):
        feedback_for(gas_task(), index)


def test_a_task_without_a_correct_option_is_refused() -> None:
    task = gas_task().model_copy(update={"options": [ChoiceOption(content="a"), ChoiceOption(content="b")]})
    with pytest.raises(InvalidParameter, match="exactly one option must be correct"):
        feedback_for(task, 0)


def test_the_engine_is_reached_through_the_dispatcher() -> None:
    result = compute_result(gas_task(), MultipleChoiceAnswer(selectedIndex=1), CTX)
    assert result.type == "MultipleChoiceFeedback"
    assert result.verdict == "CORRECT"
