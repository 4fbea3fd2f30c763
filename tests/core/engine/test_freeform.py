"""Freeform feedback: aspects with exact evidence spans in five languages, points, hints, coverage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.api import (
    AspectDefinition,
    AspectType,
    Correctness,
    FreeformTextAnswer,
    FreeformTextResult,
    FreeformTextTask,
    Language,
)
from core.assets import load_catalogue
from core.engine import compute_result
from core.engine.base import EngineContext

CATALOGUE = load_catalogue()


def judge(task: FreeformTextTask, content: str, **ctx) -> FreeformTextResult:
    result = compute_result(
        task, FreeformTextAnswer(content=content), EngineContext(catalogue=CATALOGUE, **ctx)
    )
    assert isinstance(result, FreeformTextResult)
    for item in result.feedback:
        for span in item.context:
            assert content[span.offset : span.offset + span.length] == span.content
    for detected in result.allAspects:
        for span in detected.context:
            assert content[span.offset : span.offset + span.length] == span.content
    return result


def circuit_task(
    language: Language, concept: str, misconception: str, cue_misconception: str
) -> FreeformTextTask:
    return FreeformTextTask(
        id=f"circuit-{language.value}",
        title="Circuit",
        problemStatement="…",
        language=language,
        maxPoints=2,
        sampleSolutions=[{"content": concept}],
        aspects=[
            AspectDefinition(name="closed circuit", cues=[concept], points=1),
            AspectDefinition(
                name="misconception",
                type=AspectType.MISCONCEPTION,
                cues=[cue_misconception],
                message=misconception,
            ),
        ],
    )


CASES = [
    # language, concept cue, misconception cue, answer with a typo, answer with the negation
    (
        Language.EN_US,
        "the wires are connected",
        "the battery is empty",
        "I think the wires are conected to the bulb.",
        "The wires are not connected.",
    ),
    (
        Language.DE_DE,
        "die Drähte sind verbunden",
        "die Batterie ist leer",
        "Die Drähte sind mit der Lampe verbundn.",
        "Die Drähte sind nicht verbunden.",
    ),
    (
        Language.DE_CH,
        "die Strasse des Stroms ist geschlossen",
        "die Batterie ist leer",
        "Die Straße des Stroms ist geschlosen.",
        "Die Strasse des Stroms ist nicht geschlossen.",
    ),
    (
        Language.FR_FR,
        "les fils sont connectés",
        "la pile est vide",
        "Les fils sont connectes à l'ampoule.",
        "Les fils ne sont pas connectés.",
    ),
    (
        Language.IT_IT,
        "i fili sono collegati",
        "la batteria è scarica",
        "I fili sono colegati alla lampadina.",
        "I fili non sono collegati.",
    ),
    (
        Language.ES_ES,
        "los cables están conectados",
        "la pila está vacía",
        "Los cables están conectdos a la bombilla.",
        "Los cables no están conectados.",
    ),
]


@pytest.mark.parametrize(("language", "concept", "misconception", "typo_answer", "negated_answer"), CASES)
def test_concept_found_despite_typo_with_span_on_the_answer(
    language: Language, concept: str, misconception: str, typo_answer: str, negated_answer: str
) -> None:
    result = judge(circuit_task(language, concept, "Check the battery.", misconception), typo_answer)
    assert result.points.verdict is Correctness.CORRECT
    assert result.points.achievedPoints == 2
    [detected] = result.allAspects
    assert detected.aspect.name == "closed circuit"
    assert detected.context and detected.context[0].length > 0
    assert result.feedback[0].correctness is Correctness.CORRECT


@pytest.mark.parametrize(("language", "concept", "misconception", "typo_answer", "negated_answer"), CASES)
def test_negated_concept_is_not_the_concept(
    language: Language, concept: str, misconception: str, typo_answer: str, negated_answer: str
) -> None:
    result = judge(circuit_task(language, concept, "Check the battery.", misconception), negated_answer)
    assert result.points.verdict is Correctness.WRONG
    assert not result.allAspects
    contradiction = next(i for i in result.feedback if i.context)
    assert contradiction.correctness is Correctness.WRONG
    words = set(contradiction.context[0].content.casefold().split())
    assert words & {"not", "nicht", "ne", "non", "no"}


@pytest.mark.parametrize(("language", "concept", "misconception", "typo_answer", "negated_answer"), CASES)
def test_misconception_gives_a_wrong_item_with_the_authors_message(
    language: Language, concept: str, misconception: str, typo_answer: str, negated_answer: str
) -> None:
    answer = f"{typo_answer} {misconception[0].upper()}{misconception[1:]}."
    result = judge(circuit_task(language, concept, "Check the battery.", misconception), answer)
    wrong = [i for i in result.feedback if i.correctness is Correctness.WRONG]
    assert [i.message for i in wrong] == ["Check the battery."]
    evidence = wrong[0].context[0].content.casefold()
    assert evidence.endswith(misconception.split()[-1].casefold())
    assert result.points.verdict is not Correctness.CORRECT


def test_missing_concept_hints_by_topic_without_the_solution() -> None:
    task = FreeformTextTask(
        id="salt",
        title="Mock rocks",
        problemStatement="How did you separate the salt from the water?",
        maxPoints=4,
        aspects=[
            AspectDefinition(name="evaporation", cues=["water evaporates"], points=3),
            AspectDefinition(name="salt remains", cues=["salt stays behind"], points=1),
        ],
    )
    partial = judge(task, "The salt stays behind in the dish.")
    assert partial.points.verdict is Correctness.PARTIAL
    assert partial.points.achievedPoints == 1
    [hint] = [i for i in partial.feedback if i.correctness is Correctness.PARTIAL]
    assert "evaporat" not in hint.message.casefold()
    assert "Mock rocks" in hint.message
    nothing = judge(task, "I used a magnet.")
    assert nothing.points.verdict is Correctness.WRONG
    assert all(i.correctness is Correctness.WRONG for i in nothing.feedback)


def test_swiss_german_messages_have_no_sharp_s() -> None:
    task = FreeformTextTask(
        id="ch",
        title="Strom",
        problemStatement="Warum leuchtet die Lampe?",
        language=Language.DE_CH,
        aspects=[AspectDefinition(name="Kreis", cues=["Stromkreis geschlossen"])],
    )
    result = judge(task, "Weil sie hell ist.")
    assert result.feedback and all("ß" not in item.message for item in result.feedback)


def test_without_aspects_coverage_of_the_sample_solution_decides() -> None:
    task = FreeformTextTask(
        id="evaporate",
        problemStatement="How did you separate the salt from the water?",
        sampleSolutions=[{"content": "The water was evaporated, leaving the salt."}],
    )
    good = judge(task, "We let the water evaporate and the salt was left.")
    assert good.points.verdict is Correctness.CORRECT
    assert good.sampleSolution is not None and good.sampleSolution.content.startswith("The water")
    assert len(good.sampleSolutions) == 1
    assert any(span.content for span in good.feedback[0].context)
    assert judge(task, "I used a sieve.").points.verdict is Correctness.WRONG
    negated = judge(task, "The water did not evaporate.")
    assert negated.points.verdict is Correctness.WRONG
    assert any(i.context and i.context[0].content == "not evaporate" for i in negated.feedback)


def test_empty_answer_and_task_without_references() -> None:
    task = FreeformTextTask(id="bare", problemStatement="Explain.")
    assert judge(task, "   ").points.verdict is Correctness.WRONG
    unknown = judge(task, "Because.")
    assert unknown.feedback[0].correctness is Correctness.UNKNOWN


FUZZ_TASK = FreeformTextTask(
    id="fuzz",
    problemStatement="Why does the bulb light up?",
    sampleSolutions=[{"content": "The circuit is closed, so current flows through the filament."}],
    aspects=[
        AspectDefinition(name="closed circuit", cues=["circuit closed"]),
        AspectDefinition(name="used up", type=AspectType.MISCONCEPTION, cues=["current used up"]),
    ],
)
WORDS = [
    "circuit",
    "closed",
    "not",
    "current",
    "ﬁlament",
    "used",
    "up",
    "Straße",
    "n't",
    "l'eau",
    "ß",
    "é",
    "😀",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(WORDS), st.text(max_size=6)),
        max_size=25,
    ).map(" ".join)
)
def test_spans_always_sit_on_the_answer(content: str) -> None:
    judge(FUZZ_TASK, content)
    judge(FUZZ_TASK.model_copy(update={"aspects": []}), content)


SALT = [
    (
        Language.DE_CH,
        "Wie hast du das Salz vom Wasser getrennt?",
        "Das Wasser ist verdunstet, das Salz ist zurückgeblieben.",
        "Wir liessen das Wasser verdunsten, das Salz blieb zurück.",
        "Das Wasser ist nicht verdunstet.",
        "nicht verdunstet",
    ),
    (
        Language.FR_FR,
        "Comment as-tu séparé le sel de l'eau ?",
        "L'eau s'est évaporée et le sel est resté.",
        "On a laissé l'eau s'évaporer, le sel est resté au fond.",
        "L'eau ne s'est pas évaporée.",
        "ne s'est pas évaporée",
    ),
    (
        Language.IT_IT,
        "Come hai separato il sale dall'acqua?",
        "L'acqua è evaporata e il sale è rimasto.",
        "Abbiamo lasciato evaporare l'acqua e il sale è rimasto.",
        "L'acqua non è evaporata.",
        "non è evaporata",
    ),
    (
        Language.ES_ES,
        "¿Cómo separaste la sal del agua?",
        "El agua se evaporó y la sal se quedó.",
        "Dejamos que el agua se evaporara y la sal se quedó.",
        "El agua no se evaporó.",
        "no se evaporó",
    ),
]


@pytest.mark.parametrize(("language", "question", "solution", "right", "negated", "contradiction"), SALT)
def test_coverage_without_aspects_in_each_language(
    language: Language, question: str, solution: str, right: str, negated: str, contradiction: str
) -> None:
    task = FreeformTextTask(
        id="salt", problemStatement=question, language=language, sampleSolutions=[{"content": solution}]
    )
    assert judge(task, right).points.verdict is Correctness.CORRECT
    wrong = judge(task, negated)
    assert wrong.points.verdict is Correctness.WRONG
    assert [c.content for item in wrong.feedback for c in item.context] == [contradiction]
