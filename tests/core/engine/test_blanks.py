"""Fill-in-blanks: each gap is matched by its blank's rule and earns a point, half for a misspelling."""

from __future__ import annotations

import pytest

from core.api import (
    AspectDefinition,
    AspectGroup,
    Blank,
    InTextFillInBlanksAnswer,
    InTextFillInBlanksTask,
    InvalidParameter,
    Language,
    Matching,
)
from core.assets import load_catalogue
from core.engine import EngineContext
from core.engine.blanks import compute, readings_of

CTX = EngineContext(catalogue=load_catalogue())
WATER = AspectGroup(name="Water cycle")


def water_task(language: Language = Language.EN_US) -> InTextFillInBlanksTask:
    return InTextFillInBlanksTask(
        id="water",
        title="The water cycle",
        problemStatement="Water {{1}}, forms {{2}} and falls as {{3}}. It boils at {{4}} °C.",
        language=language,
        blanks=[
            Blank(
                acceptedAnswers=["evaporates"],
                matching=Matching.FUZZY,
                feedback="Think of a puddle on a sunny day.",
                aspects=[AspectDefinition(name="Evaporation", aspectGroup=WATER)],
            ),
            Blank(
                acceptedAnswers=["clouds", "droplets"],
                aspects=[
                    AspectDefinition(name="Condensation", aspectGroup=WATER),
                    AspectDefinition(
                        name="Clouds are smoke",
                        type="MISCONCEPTION",
                        message="Clouds are tiny drops of liquid water.",
                        aspectGroup=WATER,
                    ),
                ],
            ),
            Blank(acceptedAnswers=["rain", "snow"], matching=Matching.EXACT),
            Blank(acceptedAnswers=["100"], matching=Matching.NUMERIC),
        ],
    )


def feedback_for(*contents: str, task: InTextFillInBlanksTask | None = None) -> dict:
    answer = InTextFillInBlanksAnswer(blanks=[{"content": c} for c in contents])
    return compute(task or water_task(), answer, CTX).model_dump(mode="json", by_alias=True)


def test_every_gap_right_earns_every_point_and_one_correct_item() -> None:
    result = feedback_for("evaporates", " CLOUDS ", "rain", "100")

    assert result["points"] == {"achievedPoints": 4.0, "achievablePoints": 4.0}
    [item] = result["feedback"]
    assert item["correctness"] == "CORRECT"
    assert item["message"] == "Well done: every gap is filled in correctly."
    assert item["context"] == [
        {"content": "evaporates", "index": 0},
        {"content": " CLOUDS ", "index": 1},
        {"content": "rain", "index": 2},
        {"content": "100", "index": 3},
    ]
    assert [(d["aspect"]["name"], d["context"]) for d in result["allAspects"]] == [
        ("Evaporation", {"content": "evaporates", "index": 0}),
        ("Condensation", {"content": " CLOUDS ", "index": 1}),
    ]
    assert result["sampleSolution"] == {
        "blanks": [{"content": "evaporates"}, {"content": "clouds"}, {"content": "rain"}, {"content": "100"}]
    }


def test_a_misspelt_gap_is_half_right_with_a_spelling_hint() -> None:
    result = feedback_for("evaporats", "clouds", "rain", "100")

    assert result["points"] == {"achievedPoints": 3.5, "achievablePoints": 4.0}
    [item] = result["feedback"]
    assert item["correctness"] == "PARTIAL"
    assert item["message"] == "Gap 1 is nearly right: check the spelling of “evaporats”."
    assert item["context"] == [{"content": "evaporats", "index": 0}]
    assert item["topic"] == {"name": "Water cycle", "description": None}
    assert {d["aspect"]["name"] for d in result["allAspects"]} == {"Evaporation", "Condensation"}


def test_a_partly_right_answer_has_an_item_for_each_gap_that_is_not_right() -> None:
    result = feedback_for("melts", "smoke", "Rain", "")

    assert result["points"] == {"achievedPoints": 0.0, "achievablePoints": 4.0}
    messages = [(item["correctness"], item["message"]) for item in result["feedback"]]
    assert messages == [
        ("WRONG", "Think of a puddle on a sunny day."),
        ("WRONG", "Clouds are tiny drops of liquid water."),
        ("WRONG", "Gap 3: “Rain” is not right yet."),
        ("WRONG", "Gap 4 is still empty."),
    ]
    assert result["feedback"][2]["topic"] == {"name": "The water cycle", "description": None}
    assert [(d["aspect"]["name"], d["context"]) for d in result["allAspects"]] == [
        ("Clouds are smoke", {"content": "smoke", "index": 1})
    ]


def test_a_mixed_answer_is_partial() -> None:
    result = feedback_for("evaporates", "droplets", "hail", "99")

    assert result["points"] == {"achievedPoints": 2.0, "achievablePoints": 4.0}
    assert [item["context"] for item in result["feedback"]] == [
        [{"content": "hail", "index": 2}],
        [{"content": "99", "index": 3}],
    ]


def test_text_that_is_no_number_is_told_so() -> None:
    result = feedback_for("evaporates", "clouds", "rain", "hundred")
    assert result["feedback"][0]["message"] == "Gap 4 needs a number, and “hundred” is not one."


@pytest.mark.parametrize(
    ("language", "spelling", "all_right"),
    [
        (
            Language.DE_DE,
            "Lücke 1 ist fast richtig: Prüfe die Schreibweise von „evaporats“.",
            "Großartig: Alle Lücken sind richtig ausgefüllt.",
        ),
        (
            Language.DE_CH,
            "Lücke 1 ist fast richtig: Prüfe die Schreibweise von „evaporats“.",
            "Grossartig: Alle Lücken sind richtig ausgefüllt.",
        ),
        (
            Language.FR_FR,
            "Trou 1\u00a0: c’est presque juste, vérifie l’orthographe de «\u00a0evaporats\u00a0».",
            "Bravo\u00a0: tous les trous sont bien remplis.",
        ),
        (
            Language.IT_IT,
            "Spazio 1: quasi giusto, controlla l’ortografia di «evaporats».",
            "Ottimo lavoro: hai completato correttamente tutti gli spazi.",
        ),
        (
            Language.ES_ES,
            "Hueco 1: casi correcto, revisa la ortografía de «evaporats».",
            "¡Muy bien! Has rellenado correctamente todos los huecos.",
        ),
    ],
)
def test_messages_speak_the_tasks_language(language: Language, spelling: str, all_right: str) -> None:
    task = water_task(language)
    assert feedback_for("evaporats", "clouds", "rain", "100", task=task)["feedback"][0]["message"] == spelling
    assert (
        feedback_for("evaporates", "clouds", "rain", "100", task=task)["feedback"][0]["message"] == all_right
    )


def one_gap(blank: Blank) -> InTextFillInBlanksTask:
    return InTextFillInBlanksTask(id="one", problemStatement="{{1}}", blanks=[blank])


def verdict_of(blank: Blank, content: str) -> str:
    return feedback_for(content, task=one_gap(blank))["feedback"][0]["correctness"]


@pytest.mark.parametrize(
    ("content", "verdict"),
    [(" Zürich ", "CORRECT"), ("zürich", "WRONG"), ("Zu\u0308rich", "WRONG"), ("Zurich", "WRONG")],
)
def test_exact_matching_only_forgives_outer_whitespace(content: str, verdict: str) -> None:
    assert verdict_of(Blank(acceptedAnswers=["Zürich"], matching=Matching.EXACT), content) == verdict


@pytest.mark.parametrize(
    ("content", "verdict"),
    [
        ("  NEW   york ", "CORRECT"),
        ("new york city", "WRONG"),
        ("GROSSE STRASSE", "CORRECT"),
        ("grosse strase", "WRONG"),
    ],
)
def test_case_insensitive_matching_casefolds_and_collapses_spaces(content: str, verdict: str) -> None:
    blank = Blank(acceptedAnswers=["New York", "Große Straße"], matching=Matching.CASE_INSENSITIVE)
    assert verdict_of(blank, content) == verdict


def test_case_insensitive_matching_agrees_on_composed_and_decomposed_umlauts() -> None:
    assert verdict_of(Blank(acceptedAnswers=["Zürich"]), "ZU\u0308RICH") == "CORRECT"


def test_case_insensitive_matching_takes_a_typographic_apostrophe_for_a_plain_one() -> None:
    assert verdict_of(Blank(acceptedAnswers=["doesn't"]), "Doesn’t") == "CORRECT"


@pytest.mark.parametrize(
    ("content", "verdict"),
    [("Photosynthesis", "CORRECT"), ("photosynthisis", "PARTIAL"), ("respiration", "WRONG")],
)
def test_fuzzy_matching_tells_a_slip_from_a_wrong_word(content: str, verdict: str) -> None:
    assert verdict_of(Blank(acceptedAnswers=["photosynthesis"], matching=Matching.FUZZY), content) == verdict


@pytest.mark.parametrize(
    ("accepted", "content", "verdict"),
    [
        ("synchronous", "asynchronous", "WRONG"),  # as close as a slip, but a word of its own
        ("mitosis", "meiosis", "WRONG"),
        ("exothermic", "endothermic", "WRONG"),
        ("mitosis", "mitossis", "PARTIAL"),  # a slip the dictionary does not know
        ("tighten", "tighter", "PARTIAL"),  # a form of the word, only its ending differs
    ],
)
def test_fuzzy_matching_takes_another_real_word_for_wrong_not_misspelt(
    accepted: str, content: str, verdict: str
) -> None:
    assert verdict_of(Blank(acceptedAnswers=[accepted], matching=Matching.FUZZY), content) == verdict


@pytest.mark.parametrize(
    ("accepted", "tolerance", "content", "verdict"),
    [
        ("3.14", 0.01, "3,14159", "CORRECT"),
        ("3.14", 0.01, "3.2", "WRONG"),
        ("1000", None, "1 000", "CORRECT"),
        ("1000", None, "1'000", "CORRECT"),
        ("1000", None, "1.000", "WRONG"),  # an English task: a point is the decimal mark
        ("1000", None, "1,000", "CORRECT"),
        ("1000.5", None, "1.000,5", "CORRECT"),
        ("1000.5", None, "1,000.5", "CORRECT"),
        ("-4", None, "−4", "CORRECT"),
        ("0.1", None, "0,1", "CORRECT"),
        ("100", 5, "104", "CORRECT"),
        ("100", 5, "106", "WRONG"),
    ],
)
def test_numeric_matching_reads_the_usual_ways_of_writing_numbers(
    accepted: str, tolerance: float | None, content: str, verdict: str
) -> None:
    blank = Blank(acceptedAnswers=[accepted], matching=Matching.NUMERIC, tolerance=tolerance)
    assert verdict_of(blank, content) == verdict


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("42", (42.0,)),
        ("1,5", (1.5,)),
        ("1,500", (1.5, 1500.0)),
        ("0,500", (0.5,)),
        ("1.000.000", (1_000_000.0,)),
        ("1.00.0", ()),
        ("1,00,000", ()),
        ("5 cm", ()),
        ("", ()),
    ],
)
def test_numbers_are_read_as_a_learner_means_them(text: str, readings: tuple[float, ...]) -> None:
    assert readings_of(text) == readings


def test_a_numeric_blank_whose_accepted_answer_is_no_number_is_refused() -> None:
    with pytest.raises(InvalidParameter, match="blank 1: accepted answer 'many' is not a number"):
        feedback_for("3", task=one_gap(Blank(acceptedAnswers=["many"], matching=Matching.NUMERIC)))


@pytest.mark.parametrize("contents", [("evaporates",), ("a", "b", "c", "d", "e")])
def test_an_answer_with_the_wrong_number_of_blanks_is_refused(contents: tuple[str, ...]) -> None:
    with pytest.raises(InvalidParameter, match=f"the answer has {len(contents)} blanks, but the task has 4"):
        feedback_for(*contents)


def test_a_statement_that_marks_fewer_gaps_than_the_task_has_blanks_is_refused_after_a_valid_use() -> None:
    """The check of the markers is remembered per statement; a blank added to the same statement
    (an author's edit) must still be refused, not taken for the statement checked before."""
    task = water_task()
    feedback_for("evaporates", "clouds", "rain", "100", task=task)
    grown = task.model_copy(update={"blanks": [*task.blanks, Blank(acceptedAnswers=["sea"])]})
    with pytest.raises(
        InvalidParameter, match=r"must mark \{\{1\}\} … \{\{5\}\} once each .* found \[1, 2, 3, 4\]"
    ):
        feedback_for("evaporates", "clouds", "rain", "100", "sea", task=grown)


@pytest.mark.parametrize(
    ("language", "content", "verdict"),
    [
        (Language.EN_US, "300,000", "CORRECT"),
        (Language.EN_US, "300.000", "WRONG"),
        (Language.DE_DE, "300.000", "CORRECT"),
        (Language.DE_DE, "300,000", "WRONG"),
        (Language.FR_FR, "300 000", "CORRECT"),
        (Language.DE_CH, "300'000", "CORRECT"),
    ],
)
def test_a_thousands_separator_is_read_as_the_tasks_language_writes_it(language, content, verdict) -> None:
    task = one_gap(Blank(acceptedAnswers=["300000"], matching=Matching.NUMERIC)).model_copy(
        update={"language": language}
    )
    points = feedback_for(content, task=task)["points"]
    assert ("CORRECT" if points["achievedPoints"] == points["achievablePoints"] else "WRONG") == verdict
