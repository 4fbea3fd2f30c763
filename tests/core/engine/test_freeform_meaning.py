"""Freeform judgement of a new task (sample solutions only, no graded answers) by meaning: the
facts of a sample solution, paraphrases in other words and languages, negation, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from core.api import (
    AspectDefinition,
    AspectType,
    Correctness,
    FreeformTextResult,
    FreeformTextTask,
    Language,
    parse_task,
)
from core.assets import demo_tasks
from core.engine.base import EngineContext
from core.engine.freeform import judgement_of
from core.engine.freeform.facts import split_facts, without_point_marks
from core.engine.freeform.judge import shipped_weights
from core.engine.freeform.self_check import check_sample_solutions
from core.engine.messages import Catalogue
from core.engine.text.embedding import encoder
from tests.core.engine.test_freeform import judge

CIRCUIT = FreeformTextTask(
    id="circuit",
    title="Bulb",
    problemStatement="On the table lie a bulb, a battery and two wires. Explain what you do so that the bulb lights up.",
    sampleSolutions=[
        {
            "content": "Connect one wire from the plus pole of the battery to the bulb and a second wire from "
            "the bulb back to the minus pole, so that the circuit is closed. A current then flows "
            "through the filament, which heats up and glows."
        }
    ],
)
JOBBER = FreeformTextTask(
    id="jobber",
    language=Language.DE_DE,
    problemStatement="Wie reagierst du, wenn du auf deine Tätigkeit angesprochen wirst?",
    sampleSolutions=[
        {
            "content": "Der Jobber soll sich dem Personal gegenüber zu erkennen geben (0.25 P) und das "
            "Informationsschreiben in der App vorzeigen (0.25 P). Zusätzlich muss notiert werden, zu "
            "welchem Zeitpunkt (0.25 P) der Jobber enttarnt wurde. Zentrale Frage ist dabei, ob ein "
            "neutrales Gespräch stattgefunden hat. Der Job soll mit Erlaubnis der Mitarbeiter bis zum "
            "Ende durchgeführt (0.25 P) werden."
        }
    ],
)


def verdict(task: FreeformTextTask, content: str) -> Correctness:
    return judge(task, content).points.verdict


def wrong_spans(result: FreeformTextResult) -> list[str]:
    """What the WRONG items point at in the answer."""
    return [
        span.content
        for item in result.feedback
        if item.correctness is Correctness.WRONG
        for span in item.context
    ]


def test_a_wrapped_numbered_list_gives_one_fact_an_item_and_no_number_facts() -> None:
    solution = (
        "Increased flexibility:\n"
        "1. We can update the routing logic on the fly, routers/switches are not limited\n"
        "to hard-coded routing algorithms anymore.\n"
        "2. API to program the network: software defines the\n"
        "network"
    )
    assert split_facts(solution) == [
        "We can update the routing logic on the fly, routers/switches are not limited to hard-coded "
        "routing algorithms anymore",
        "API to program the network: software defines the network",
    ]


def test_point_markers_make_the_facts_and_leave_the_text() -> None:
    facts = split_facts(JOBBER.sampleSolutions[0].content)
    assert facts == [
        "Der Jobber soll sich dem Personal gegenüber zu erkennen geben",
        "und das Informationsschreiben in der App vorzeigen",
        "Zusätzlich muss notiert werden, zu welchem Zeitpunkt",
        "Der Job soll mit Erlaubnis der Mitarbeiter bis zum Ende durchgeführt",
    ]
    assert "(0.25 P)" not in without_point_marks(JOBBER.sampleSolutions[0].content)


def test_a_list_solution_has_one_fact_a_line_and_no_heading() -> None:
    solution = "The controller takes care of:\n● configuration of forwarding tables\n● discovery of topology"
    assert split_facts(solution) == ["configuration of forwarding tables", "discovery of topology"]


@pytest.mark.parametrize(
    "document", [d for d in demo_tasks() if d["type"] == "FreeformTextTask"], ids=lambda d: d["id"]
)
def test_every_demo_freeform_task_scores_its_own_sample_solution_correct(document: dict) -> None:
    task = FreeformTextTask.model_validate(document)
    for plain in (task, task.model_copy(update={"aspects": []})):
        assert verdict(plain, task.sampleSolutions[0].content) is Correctness.CORRECT


def test_a_paraphrase_in_other_words_is_correct_and_a_wrong_relation_is_not() -> None:
    paraphrase = (
        "Link the battery's plus terminal to the lamp with one cable and run another cable from the lamp "
        "to the minus terminal, closing the circuit; the current through the thin filament makes it hot "
        "so it glows."
    )
    assert verdict(CIRCUIT, paraphrase) is Correctness.CORRECT
    assert verdict(CIRCUIT, "The bulb glows because the circuit is not closed and no current flows.") is not (
        Correctness.CORRECT
    )
    assert verdict(CIRCUIT, CIRCUIT.problemStatement) is Correctness.WRONG


def test_a_german_answer_in_other_words_with_every_fact_is_correct_and_counts_missing_facts() -> None:
    full = (
        "Ich gebe mich als Jobber zu erkennen und zeige das Schreiben in der App vor. Ich notiere, zu "
        "welchem Zeitpunkt ich enttarnt wurde, und führe den Job mit Erlaubnis der Mitarbeiter zu Ende."
    )
    assert verdict(JOBBER, full) is Correctness.CORRECT
    partial = judge(JOBBER, "Ich zeige das Informationsschreiben in der App vor.")
    assert partial.points.verdict is Correctness.PARTIAL
    assert "1" in partial.feedback[0].message and "4" in partial.feedback[0].message


def test_a_concept_said_in_other_words_is_detected_with_the_span_of_its_sentence() -> None:
    task = CIRCUIT.model_copy(
        update={
            "aspects": [
                AspectDefinition(name="Filament heats", cues=["wire in the bulb gets hot"], points=1),
            ]
        }
    )
    answer = "I hook both ends to the battery. The little wire in the bulb heats up."
    result = judge(task, answer)
    assert [d.aspect.name for d in result.allAspects] == ["Filament heats"]
    assert [s.content for s in result.allAspects[0].context] == ["The little wire in the bulb heats up"]
    assert judge(task, "The bulb is in a closed path.").allAspects == []
    assert judge(task, "The little wire in the bulb does not heat up.").allAspects == []
    # close in meaning because it has every word of the cue but the one that matters
    assert judge(task, "The bulb gets a wire.").allAspects == []


@pytest.mark.parametrize(
    ("cue", "answer", "span"),
    [
        ("both poles", "Connect the wires to both poles of the battery.", "both poles"),
        ("both poles", "Connect the wires to both of the battery's poles.", "both of the battery's poles"),
        ("both poles", "Connect both wires to the same pole of the battery.", None),
        ("beide Pole", "Verbinde die Kabel mit beiden Polen der Batterie.", "beiden Polen"),
        ("beide Pole", "Verbinde beide Kabel mit demselben Pol.", None),
    ],
)
def test_a_cue_that_speaks_of_both_needs_both_of_the_same_thing(
    cue: str, answer: str, span: str | None
) -> None:
    german = cue.startswith("beide")
    task = (JOBBER if german else CIRCUIT).model_copy(
        update={
            "problemStatement": "Wie schließt du die Lampe an?" if german else "How do you connect the bulb?",
            "aspects": [AspectDefinition(name="Stromkreis" if german else "Circuit", cues=[cue], points=1)],
        }
    )
    found = [s.content for d in judge(task, answer).allAspects for s in d.context]
    assert found == ([span] if span else [])


def test_a_denied_reason_is_not_flagged_as_the_misconception() -> None:
    task = FreeformTextTask(
        id="seasons",
        problemStatement="Why is it warmer in summer?",
        sampleSolutions=[{"content": "The Sun's rays hit the ground more steeply in summer."}],
        aspects=[
            AspectDefinition(name="steeper rays", cues=["rays more steeply"], points=1),
            AspectDefinition(
                name="closer", type=AspectType.MISCONCEPTION, cues=["Earth is closer to the Sun"]
            ),
        ],
    )
    result = judge(task, "It is not because the Earth is closer to the Sun: the rays hit more steeply.")
    assert all(d.aspect.type is AspectType.CONCEPT for d in result.allAspects)
    assert judge(task, "Because the Earth is closer to the Sun.").points.verdict is Correctness.WRONG


@pytest.mark.parametrize(
    "content",
    [
        "",
        "   \n\t",
        "?!… ---",
        "🙂🙂🔥",
        "x" * 10_000,
        "the circuit " * 1_000,
        "x y " * 2_500,
        "Die Birne leuchtet, weil der Stromkreis geschlossen ist.",
    ],
    ids=[
        "empty",
        "whitespace",
        "punctuation",
        "emoji",
        "one-long-word",
        "10k-chars",
        "10k-labels",
        "other-language",
    ],
)
def test_bad_input_gets_a_verdict(content: str) -> None:
    for task in (CIRCUIT, BULBS):  # BULBS names values ("bulb A"), which an answer's labels are read against
        result = judge(task, content)
        assert result.points.verdict in {Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG}
        assert result.feedback


@pytest.mark.parametrize(
    ("content", "says"), [("", "is empty"), ("?!… ---", "no words"), ("🙂🔥", "no words")]
)
def test_an_answer_without_words_is_told_what_is_missing(content: str, says: str) -> None:
    assert says in judge(CIRCUIT, content).feedback[0].message


def test_the_packaged_encoder_ranks_a_translation_above_an_unrelated_sentence() -> None:
    vectors = encoder().encode(
        ["The circuit must be closed.", "Der Stromkreis muss geschlossen sein.", "I like pizza on Sundays."]
    )
    assert vectors[0] @ vectors[1] > 0.7 > 0.3 > vectors[0] @ vectors[2]


def test_german_strong_and_separable_verbs_match_their_other_forms() -> None:
    """A stemmer alone keeps "trifft" from "auftreffen" and "dehnt … aus" from "ausdehnen";
    the lemma before the stem joins them."""
    task = FreeformTextTask(
        id="jahreszeiten",
        language=Language.DE_DE,
        problemStatement="Warum ist es im Sommer wärmer als im Winter?",
        sampleSolutions=[{"content": "Das Sonnenlicht muss im Sommer steiler auftreffen."}],
        aspects=[AspectDefinition(name="steiler Einfall", cues=["steiler auftreffen"], points=1)],
    )
    result = judge(task, "Im Sommer trifft das Licht der Sonne viel steiler auf den Boden auf.")
    assert [d.aspect.name for d in result.allAspects] == ["steiler Einfall"]
    assert result.points.verdict is Correctness.CORRECT
    metal = FreeformTextTask(
        id="metall",
        language=Language.DE_DE,
        problemStatement="Was geschieht mit einer Eisenbahnschiene im Sommer?",
        sampleSolutions=[{"content": "Die Schiene dehnt sich bei Wärme aus."}],
        aspects=[AspectDefinition(name="Ausdehnung", cues=["dehnt sich aus"], points=1)],
    )
    joined = judge(metal, "Weil sie sich bei Hitze ausdehnt.")
    assert [d.aspect.name for d in joined.allAspects] == ["Ausdehnung"]


def test_an_opposite_word_is_pointed_at_as_a_contradiction_and_a_negated_one_agrees() -> None:
    task = FreeformTextTask(
        id="switch",
        problemStatement="What must be true of the circuit for the lamp to light?",
        sampleSolutions=[{"content": "The circuit must be closed so that a current flows through the lamp."}],
    )
    opposite = judge(task, "The circuit must be open so that a current flows through the lamp.")
    assert wrong_spans(opposite) == ["open"]
    agreeing = judge(task, "The circuit must not be open, so that current flows through the lamp.")
    assert all(item.correctness is not Correctness.WRONG for item in agreeing.feedback)
    german = FreeformTextTask(
        id="schalter",
        language=Language.DE_DE,
        problemStatement="Was muss für den Stromkreis gelten, damit die Lampe leuchtet?",
        sampleSolutions=[
            {"content": "Der Stromkreis muss geschlossen sein, damit Strom durch die Lampe fließt."}
        ],
    )
    flagged = judge(german, "Der Stromkreis muss offen sein, damit Strom durch die Lampe fließt.")
    assert [
        c.content for item in flagged.feedback if item.correctness is Correctness.WRONG for c in item.context
    ] == ["offen"]


RAIL = FreeformTextTask(
    id="rail",
    problemStatement="What happens to a steel rail on a hot day, and why?",
    sampleSolutions=[{"content": "The rail expands because the steel is heated."}],
)
SCHIENE = FreeformTextTask(
    id="schiene",
    language=Language.DE_DE,
    problemStatement="Was geschieht mit einer Schiene an einem heißen Tag, und warum?",
    sampleSolutions=[{"content": "Die Schiene dehnt sich aus, weil der Stahl erwärmt wird."}],
)


@pytest.mark.parametrize(
    ("task", "right", "swapped"),
    [
        (
            RAIL,
            "Because the steel is heated, the rail expands.",
            "The steel is heated because the rail expands.",
        ),
        (RAIL, "The steel gets heated, so the rail expands.", "The rail expands, so the steel is heated."),
        (
            SCHIENE,
            "Weil der Stahl erwärmt wird, dehnt sich die Schiene aus.",
            "Der Stahl wird erwärmt, weil sich die Schiene ausdehnt.",
        ),
    ],
)
def test_cause_and_effect_swapped_is_not_correct_however_many_words_match(
    task: FreeformTextTask, right: str, swapped: str
) -> None:
    assert verdict(task, right) is Correctness.CORRECT
    reversed_answer = judge(task, swapped)
    assert reversed_answer.points.verdict is not Correctness.CORRECT
    assert reversed_answer.allAspects == []


BULBS = FreeformTextTask(
    id="bulbs",
    problemStatement="In circuit 1, bulb A stays on when switch Z is open, while bulb B goes off. "
    "Explain why bulb A stays on.",
    sampleSolutions=[{"content": "Bulb A is still contained in a closed path with the battery."}],
)


def test_the_right_sentence_about_the_wrong_element_is_not_correct() -> None:
    assert verdict(BULBS, "bulb a is in a closed path with the battery") is Correctness.CORRECT
    assert verdict(BULBS, "bulb B is in a closed path with the battery") is not Correctness.CORRECT


def test_a_stated_fact_points_at_the_sentence_that_states_it() -> None:
    answer = "The current is what matters. Connect the wires so that a current flows through the filament."
    stated = judge(CIRCUIT, answer).allAspects
    second = answer.index("Connect")
    assert stated and all(span.offset >= second for fact in stated for span in fact.context)


def test_a_stated_facts_span_runs_from_content_word_to_content_word() -> None:
    answer = (
        "Connect each wire to a pole of the battery and to the bulb, "
        "so the circuit is closed and current flows through the filament."
    )
    spans = {span.content for fact in judge(CIRCUIT, answer).allAspects for span in fact.context}
    # not "so the circuit is closed and current flows through the", nor a span of "a", "of the",
    # "and to the" alone (function words the solution also uses)
    assert spans == {
        "Connect each wire to a pole of the battery and to the bulb",
        "circuit is closed",
        "current flows through the filament",
    }


@pytest.mark.parametrize(
    ("language", "cue", "innocent", "guilty", "span"),
    [
        (
            Language.ES_ES,
            "un solo cable",
            "Conecto ambos cables a la pila.",
            "Uso un solo cable.",
            "un solo cable",
        ),
        (
            Language.IT_IT,
            "un solo filo",
            "Collego i due fili alla pila.",
            "Basta un solo filo.",
            "un solo filo",
        ),
        (
            Language.DE_DE,
            "nur ein Kabel",
            "Ich nehme zwei Kabel.",
            "Es braucht nur ein Kabel.",
            "nur ein Kabel",
        ),
        (Language.EN_US, "decide now", "You can decide later.", "You must decide now.", "decide now"),
    ],
)
def test_a_misconception_cue_of_one_content_word_needs_its_other_words_too(
    language: Language, cue: str, innocent: str, guilty: str, span: str
) -> None:
    """ "un solo cable" (a single wire) without its function words would be "cable", and every
    answer that mentions a wire would be accused of the misconception. A concept's cue keeps its
    one word: "on a Sunday" is found in "on Sunday"."""
    task = FreeformTextTask(
        id="cue",
        language=language,
        problemStatement="?",
        sampleSolutions=[{"content": "Dos cables, uno a cada polo."}],
        aspects=[AspectDefinition(name="Wrong", type=AspectType.MISCONCEPTION, cues=[cue], points=1)],
    )
    assert judge(task, innocent).allAspects == []
    assert [s.content for d in judge(task, guilty).allAspects for s in d.context] == [span]
    concept = AspectDefinition(name="Weekend", cues=["on a Sunday"], points=1)
    weekend = task.model_copy(update={"language": Language.EN_US, "aspects": [concept]})
    assert [d.aspect.name for d in judge(weekend, "We install it on Sunday.").allAspects] == ["Weekend"]


def test_a_misconception_cue_with_a_prefixed_german_verb_is_not_its_base_verb() -> None:
    task = FreeformTextTask(
        id="lampe",
        language=Language.DE_DE,
        problemStatement="Was brauchst du, damit die Lampe leuchtet?",
        sampleSolutions=[{"content": "Zwei Kabel, die einen geschlossenen Stromkreis bilden."}],
        aspects=[
            AspectDefinition(name="Verbraucht", type=AspectType.MISCONCEPTION, cues=["verbraucht"], points=1)
        ],
    )
    assert judge(task, "Man braucht beide Kabel, eins zum Pluspol und eins zum Minuspol.").allAspects == []
    assert [d.aspect.name for d in judge(task, "Der Strom wird verbraucht.").allAspects] == ["Verbraucht"]


def test_a_german_cue_takes_no_word_from_another_predicate() -> None:
    """ "nehmen … auf" closes its predicate at "auf": "Sauerstoff" after it belongs to "geben … ab",
    and a word inside another verb's bracket to that verb."""
    task = FreeformTextTask(
        id="photosynthese",
        language=Language.DE_DE,
        problemStatement="Was nehmen Pflanzen bei der Photosynthese auf, was geben sie ab?",
        sampleSolutions=[
            {
                "content": "Pflanzen nehmen Kohlendioxid und Wasser auf und bilden mit Licht Zucker und Sauerstoff."
            }
        ],
        aspects=[
            AspectDefinition(name="CO2 auf", cues=["nehmen Kohlendioxid auf"], points=1),
            AspectDefinition(name="O2 ab", cues=["geben Sauerstoff ab", "bilden Sauerstoff"], points=1),
            AspectDefinition(
                name="O2 auf", type=AspectType.MISCONCEPTION, cues=["nehmen Sauerstoff auf"], points=1
            ),
        ],
    )
    right = judge(task, "Sie nehmen Kohlendioxid auf und geben Sauerstoff ab.")
    assert right.points.verdict is Correctness.CORRECT
    assert {d.aspect.name: [s.content for s in d.context] for d in right.allAspects} == {
        "CO2 auf": ["nehmen Kohlendioxid auf"],
        "O2 ab": ["geben Sauerstoff ab"],
    }
    swapped = judge(task, "Sie nehmen Sauerstoff auf und geben Kohlendioxid ab.")
    assert [d.aspect.name for d in swapped.allAspects] == ["O2 auf"]
    assert check_sample_solutions(task)[0].misconceptions == ()


PITCH = FreeformTextTask(
    id="pitch",
    problemStatement="Darla plucks a string tied to a doorknob. What happens to the pitch if she makes the "
    "string longer?",
    sampleSolutions=[{"content": "When the string is longer, the pitch will be lower."}],
)


def test_a_comparison_said_the_other_way_round_is_not_correct() -> None:
    """'higher' and 'lower' are on the stop list the engine reads; a word with an opposite is not a
    function word, so the near miss that keeps every other word is caught."""
    assert verdict(PITCH, "The longer string makes a lower pitch.") is Correctness.CORRECT
    assert verdict(PITCH, "The pitch will be higher.") is not Correctness.CORRECT
    higher = judge(PITCH, "When the string is longer, the pitch will be higher.")
    assert wrong_spans(higher) == ["higher"]


def test_a_covariation_said_from_its_other_end_is_correct_and_half_turned_is_not() -> None:
    # Both ends turned state the same; one turned, even the question's own "longer", does not.
    assert verdict(PITCH, "When the string is shorter, the pitch will be higher.") is Correctness.CORRECT
    assert verdict(PITCH, "The shorter the string, the higher the pitch.") is Correctness.CORRECT
    assert verdict(PITCH, "When the string is shorter, the pitch will be lower.") is not Correctness.CORRECT
    tight = FreeformTextTask(
        id="tight",
        problemStatement="What happens to the pitch when the string is tighter?",
        sampleSolutions=[{"content": "When the string was tighter, the pitch was higher."}],
    )
    assert verdict(tight, "When the string was looser, the pitch was lower.") is Correctness.CORRECT
    assert verdict(tight, "It is lower pitch when it is tighter.") is not Correctness.CORRECT


PARALLEL = FreeformTextTask(
    id="parallel",
    problemStatement="Name two advantages of a parallel circuit over a series circuit.",
    sampleSolutions=[
        {
            "content": "- If one bulb breaks, the others stay on.\n- Each bulb gets the full voltage of the "
            "battery.\n- Each branch can be switched on and off on its own.\n- Adding more bulbs does not "
            "make the others dimmer."
        }
    ],
)


def test_a_partial_answer_is_counted_against_the_items_the_question_asks_for() -> None:
    """The solution offers four advantages and the question asks for two: one given is one of two,
    not one of four."""
    partial = judge(PARALLEL, "The others stay on.")
    assert partial.points.verdict is Correctness.PARTIAL
    assert "asks for 2 points and your answer makes 1" in partial.feedback[0].message
    german = FreeformTextTask(
        id="parallel-de",
        language=Language.DE_DE,
        problemStatement="Nenne zwei Vorteile einer Parallelschaltung gegenüber einer Reihenschaltung.",
        sampleSolutions=[
            {
                "content": "- Wenn eine Lampe kaputt geht, leuchten die anderen weiter.\n- Jede Lampe bekommt "
                "die volle Spannung der Batterie.\n- Jeder Zweig lässt sich für sich ein- und ausschalten.\n"
                "- Weitere Lampen machen die anderen nicht dunkler."
            }
        ],
    )
    assert (
        "verlangt 2 Punkte, und deine Antwort nennt 1"
        in judge(german, "Jeder Zweig ist schaltbar.").feedback[0].message
    )


def test_a_fact_said_with_a_word_turned_round_is_not_correct() -> None:
    assert verdict(BULBS, "bulb A is in an open path with the battery") is not Correctness.CORRECT
    both_ways = FreeformTextTask(
        id="pitch-both-ways",
        problemStatement=PITCH.problemStatement,
        sampleSolutions=[
            {
                "content": "If the string is shorter, the pitch will be higher. If it is longer, the pitch will be lower."
            }
        ],
    )
    # "lower" turns the first fact round but is the solution's own word for the second.
    assert verdict(both_ways, "The longer the string, the lower the pitch.") is Correctness.CORRECT


GLUEHBIRNE = FreeformTextTask(
    id="gluehbirne",
    language=Language.DE_DE,
    problemStatement="Was musst du tun, damit die Glühbirne leuchtet, und warum leuchtet sie dann?",
    sampleSolutions=[
        {
            "content": "Man verbindet beide Pole der Batterie mit der Glühbirne, sodass der Stromkreis "
            "geschlossen ist. Nur in einem geschlossenen Stromkreis fließt Strom durch den Glühdraht, "
            "der sich erhitzt und glüht."
        }
    ],
    aspects=[
        AspectDefinition(name="Geschlossener Stromkreis", cues=["geschlossener Stromkreis"], points=1),
        AspectDefinition(name="Glühdraht", cues=["Strom fließt durch den Glühdraht"], points=1),
    ],
)


def test_an_inflected_participle_is_the_same_word_and_its_opposite_is_seen() -> None:
    # "geschlossenen" and "geschlossen" have one stem (the dictionary is followed to the verb), so
    # "offen" turns the fact round whichever form the solution or the cue uses.
    answer = "Der Stromkreis ist offen, dann fließt Strom durch den Glühdraht, der glüht."
    new_task = GLUEHBIRNE.model_copy(update={"aspects": []})
    assert verdict(new_task, answer) is not Correctness.CORRECT
    result = judge(GLUEHBIRNE, answer)
    assert result.points.verdict is not Correctness.CORRECT
    contradiction = [
        item for item in result.feedback if item.aspects and item.correctness is Correctness.WRONG
    ]
    assert [item.aspects[0].name for item in contradiction] == ["Geschlossener Stromkreis"]
    assert [span.content for span in contradiction[0].context] == ["Stromkreis ist offen"]
    closed = "Der Stromkreis ist geschlossen, dann fließt Strom durch den Glühdraht, der glüht."
    assert judge(GLUEHBIRNE, closed).points.verdict is Correctness.CORRECT


def test_a_misconception_denied_in_its_clause_is_not_flagged() -> None:
    task = FreeformTextTask(
        id="one-wire",
        problemStatement="What do you need so that the bulb lights up?",
        sampleSolutions=[{"content": "Two wires that close the circuit from one pole to the other."}],
        aspects=[
            AspectDefinition(name="closed circuit", cues=["circuit is closed"], points=1),
            AspectDefinition(
                name="one wire", type=AspectType.MISCONCEPTION, cues=["a single wire", "used up"]
            ),
        ],
    )
    denied = "A single wire is not enough, so the circuit is closed with two."
    assert [d.aspect.name for d in judge(task, denied).allAspects] == ["closed circuit"]
    believed = "A single wire is enough, the current is used up in the bulb."
    assert "one wire" in [d.aspect.name for d in judge(task, believed).allAspects]


THERMOMETER = FreeformTextTask(
    id="thermometer",
    problemStatement="A student holds a thermometer by its bulb while reading it. Would the temperature "
    "read the same? Why or why not?",
    sampleSolutions=[
        {
            "content": "No. The temperature would be higher because the student's finger would make the "
            "temperature warmer."
        }
    ],
)


def test_the_other_reply_to_a_yes_no_question_is_pointed_at_and_not_correct() -> None:
    reason = "because the finger makes the temperature warmer and higher."
    agreeing = judge(THERMOMETER, f"No, {reason}")
    assert agreeing.points.verdict is Correctness.CORRECT
    assert all(item.correctness is Correctness.CORRECT for item in agreeing.feedback)
    opposite = judge(THERMOMETER, f"Yes, {reason}")
    assert opposite.points.verdict is not Correctness.CORRECT
    assert wrong_spans(opposite) == ["Yes"]
    # "No one" opens no reply, and a reason after a lone "No," is not denied by it.
    assert judge(THERMOMETER, f"No one can tell, {reason}").points.verdict is Correctness.CORRECT


def test_another_choice_named_first_is_pointed_at_and_not_correct() -> None:
    task = FreeformTextTask(
        id="soil",
        problemStatement="Line A shows dry soil, line B water. Which heats up faster, A or B? Explain.",
        sampleSolutions=[
            {"content": "A. Dry soil heats up faster because it is not a heat sink like water."}
        ],
    )
    reason = "dry soil heats up faster because it is not a heat sink like water."
    assert judge(task, f"A. {reason}").points.verdict is Correctness.CORRECT
    other = judge(task, f"B, {reason}")
    assert other.points.verdict is not Correctness.CORRECT
    assert wrong_spans(other) == ["B"]
    # An article is no choice.
    assert judge(task, f"A {reason}").points.verdict is Correctness.CORRECT


@pytest.mark.parametrize(
    ("language", "solution", "turned"),
    [
        (
            Language.EN_US,
            "The filament is a thin wire, so it gets hot.",
            "The filament is a thick wire, so it gets hot.",
        ),
        (
            Language.DE_DE,
            "Der Glühdraht ist ein dünner Draht, deshalb wird er heiß.",
            "Der Glühdraht ist ein dicker Draht, deshalb wird er heiß.",
        ),
        (Language.EN_US, "In the morning the shadows point west.", "In the morning the shadows point east."),
    ],
)
def test_general_opposites_turn_a_fact_round(language: Language, solution: str, turned: str) -> None:
    task = FreeformTextTask(
        id="opposites", language=language, problemStatement="Why?", sampleSolutions=[{"content": solution}]
    )
    assert verdict(task, solution) is Correctness.CORRECT
    assert verdict(task, turned) is not Correctness.CORRECT


@pytest.mark.parametrize(
    "text",
    [
        "Connect both poles through the bulb so the circuit is closed; the filament heats up and glows.",
        "The circuit is open, so nothing happens.",
        "Connect one wire from the plus pole of the battery to one contact of the bulb and the second wire "
        "from the other contact back to the minus pole, so that the circuit is closed.",
        "Use one wire. The current is used up in the bulb.",
        "Verbinde den Pluspol mit der Lampe und die Lampe mit dem Minuspol.",
        "Think about the path of the current. Where does it start? " * 5,
        "👍 …",
    ],
)
def test_the_facts_judgement_of_a_task_with_aspects_is_the_task_without_them(text: str) -> None:
    """The tutor's leak guard reads both from one judgement: the facts' way must be what the task
    without its aspects would say, concepts (its facts) and verdict alike."""
    task = next(parse_task(d) for d in demo_tasks() if d["id"] == "ff-bulb-circuit-en")
    assert isinstance(task, FreeformTextTask) and task.aspects
    context = EngineContext(catalogue=Catalogue({}))
    with_aspects = judgement_of(task, text, context)
    without = judgement_of(task.model_copy(update={"aspects": []}), text, context)
    assert with_aspects.by_facts == without and without.by_facts is None


@pytest.mark.parametrize(
    ("task_id", "answer", "verdict"),
    [
        # the judgement issue's own example of a correct answer in a new user's words
        (
            "ff-bulb-circuit-en",
            "hook each end of the wire to the battery so it makes a full loop; the thin wire gets hot",
            Correctness.CORRECT,
        ),
        (
            "ff-bulb-circuit-en",
            "Use both wires to make a complete loop from the battery through the bulb and back. Then "
            "electricity flows through the tiny wire inside the bulb, it gets very hot and glows.",
            Correctness.CORRECT,
        ),
        (
            "ff-bulb-circuit-en",
            "The wires make an incomplete loop, so the filament glows.",
            Correctness.PARTIAL,
        ),
        (
            "ff-gluehbirne-stromkreis-de",
            "Beide Drähte an die Batterie, so entsteht ein geschlossener Kreis und der Draht wird heiß.",
            Correctness.CORRECT,
        ),
        (
            "ff-gluehbirne-stromkreis-de",
            "Der Kreis ist nicht geschlossen, der Glühdraht glüht.",
            Correctness.PARTIAL,
        ),
    ],
)
def test_the_demo_circuit_tasks_know_the_loop_in_a_learners_words(
    task_id: str, answer: str, verdict: Correctness
) -> None:
    """What teachers demo first: a closed loop said as a learner says it is the closed circuit, an
    open one its opposite."""
    task = parse_task(next(d for d in demo_tasks() if d["id"] == task_id))
    assert isinstance(task, FreeformTextTask)
    assert _verdict(task, answer) is verdict


def _verdict(task: FreeformTextTask, answer: str) -> Correctness:
    """The verdict as the points give it: full, none, or in between."""
    points = judge(task, answer).points
    if points.achievedPoints >= points.achievablePoints:
        return Correctness.CORRECT
    return Correctness.WRONG if points.achievedPoints == 0 else Correctness.PARTIAL


ENERGY = FreeformTextTask(
    id="energy",
    problemStatement="Name one renewable source of energy and explain why it is renewable.",
    sampleSolutions=[
        {"content": "Solar power: the sun will keep shining for billions of years."},
        {"content": "Wind power: the wind is driven by the sun's heat and never runs out."},
        {"content": "Hydropower: the water cycle refills the rivers and lakes with rain."},
    ],
)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Wind power, because the sun heats the air and the wind never runs out.", Correctness.CORRECT),
        ("Hydropower, since rain refills the rivers again and again.", Correctness.CORRECT),
        ("Solar energy, because the sun keeps shining for billions of years.", Correctness.CORRECT),
        ("Coal, because there is a lot of it.", Correctness.WRONG),
    ],
)
def test_any_one_of_several_sample_solutions_is_a_correct_answer(content: str, expected: Correctness) -> None:
    """Sample solutions are alternatives: the penalty for their number leaves an answer that states
    one of them CORRECT (an average over the solutions would not)."""
    assert verdict(ENERGY, content) is expected


def test_the_best_of_several_sample_solutions_is_lowered_by_their_number() -> None:
    """The best of several chances is an optimistic estimate (docs/freeform-engine.md): its logit
    loses the learnt penalty per logarithm of the number of solutions; one solution, a verbatim
    solution (1) and an echo of the question (0) keep theirs."""
    weights = shipped_weights()
    assert weights.solutions_penalty > 0
    p = 0.6
    assert weights.best_of([p]) == p
    two, four = weights.best_of([p, 0.1]), weights.best_of([p, p, 0.2, 0.3])
    assert four < two < p
    logit = np.log(p / (1 - p)) - weights.solutions_penalty * np.log(2)
    assert two == pytest.approx(1 / (1 + np.exp(-logit)))
    assert weights.best_of([1.0, 0.2, 0.1]) == 1.0
    assert weights.best_of([0.0, 0.0]) == 0.0


@pytest.mark.parametrize("solution", [s.content for s in ENERGY.sampleSolutions])
def test_each_of_several_sample_solutions_is_correct_on_its_own_task(solution: str) -> None:
    assert verdict(ENERGY, solution) is Correctness.CORRECT


ICE = FreeformTextTask(
    id="ice",
    problemStatement="Why does ice float on water?",
    sampleSolutions=[
        {
            "content": "Ice is less dense than liquid water, because the water molecules in ice are held "
            "further apart in a crystal lattice. An object that is less dense than the liquid floats."
        }
    ],
)
EIS = FreeformTextTask(
    id="eis",
    language=Language.DE_DE,
    problemStatement="Warum schwimmt Eis auf Wasser?",
    sampleSolutions=[
        {
            "content": "Eis hat eine geringere Dichte als flüssiges Wasser, weil die Wassermoleküle im Eis "
            "in einem Kristallgitter weiter auseinander liegen."
        }
    ],
)
PENDULUM = FreeformTextTask(
    id="pendulum",
    problemStatement="How does the period of a pendulum change when its string is made longer?",
    sampleSolutions=[{"content": "The period gets longer: a longer pendulum swings more slowly."}],
)


def test_the_things_compared_swapped_is_not_correct_and_said_from_the_other_side_is() -> None:
    swapped = judge(ICE, "Water is less dense than ice, so the ice floats.")
    assert swapped.points.verdict is not Correctness.CORRECT
    assert swapped.points.achievedPoints <= swapped.points.achievablePoints / 2  # at best half right
    assert "Water is less dense than ice" in wrong_spans(swapped)  # the feedback points at it
    assert (
        verdict(ICE, "Ice is less dense than water because its molecules are further apart, so it floats.")
        is Correctness.CORRECT
    )


def test_more_of_another_thing_does_not_contradict_less_of_this_one() -> None:
    """ "more space" against "less dense" was a contradiction, which kept a right paraphrase
    below CORRECT."""
    paraphrase = (
        "Frozen water takes up more space than liquid water, so it is lighter for the same volume and floats."
    )
    result = judge(ICE, paraphrase)
    assert result.points.verdict is Correctness.CORRECT
    assert not wrong_spans(result)


GLACE = FreeformTextTask(
    id="glace",
    language=Language.FR_FR,
    problemStatement="Pourquoi la glace flotte-t-elle sur l'eau ?",
    sampleSolutions=[
        {
            "content": "La glace est moins dense que l'eau liquide, parce que ses molécules sont plus "
            "éloignées les unes des autres."
        }
    ],
)


@pytest.mark.parametrize(
    ("task", "paraphrase", "turned"),
    [
        (
            ICE,
            "Ice has a lower density than water, because its molecules are further apart.",
            "Ice has a higher density than water, because its molecules are further apart.",
        ),
        (
            GLACE,
            "La glace a une densité plus faible que l'eau, car ses molécules sont plus éloignées.",
            "La glace a une densité plus grande que l'eau, car ses molécules sont plus éloignées.",
        ),
    ],
)
def test_the_comparative_of_a_low_word_compares_by_less(
    task: FreeformTextTask, paraphrase: str, turned: str
) -> None:
    """ "a lower density than water" said the opposite of "less dense than water" (a comparison by
    more against one by less), and a right paraphrase was judged WRONG."""
    assert verdict(task, paraphrase) is Correctness.CORRECT
    assert verdict(task, turned) is not Correctness.CORRECT


@pytest.mark.parametrize(
    ("task", "content"),
    [
        (ICE, "Because ice is less dense than water: its molecules are further apart."),
        (ICE, "Because ice is less dense than water - its molecules are further apart."),
        (GLACE, "Parce que la glace est moins dense que l'eau : ses molécules sont plus éloignées."),
    ],
)
def test_what_follows_a_colon_is_no_effect_of_the_reason_before_it(
    task: FreeformTextTask, content: str
) -> None:
    """An answer to "why" opens with "Because …" and explains it after a colon; read as one
    relation, the reason became the effect of its own explanation, and the answer was WRONG."""
    assert verdict(task, content) is Correctness.CORRECT
    reversed_relation = "Ses molécules sont plus éloignées parce que la glace est moins dense que l'eau."
    assert verdict(GLACE, reversed_relation) is not Correctness.CORRECT


@pytest.mark.parametrize(
    ("task", "content"),
    [
        (EIS, "Eis hat eine höhere Dichte als Wasser."),
        (PENDULUM, "The period gets shorter, a longer pendulum swings faster."),
    ],
)
def test_one_claim_of_a_fact_turned_round_contradicts_it(task: FreeformTextTask, content: str) -> None:
    """A fact of two claims ("… less dense …, because …"; "… longer: … more slowly") is
    contradicted by an answer that turns one of them, though it leaves the rest of the fact
    unsaid or says another of its words as well ("longer")."""
    result = judge(task, content)
    assert result.points.verdict is not Correctness.CORRECT
    assert wrong_spans(result)


def test_a_pendulum_said_in_other_words_is_correct() -> None:
    assert (
        verdict(PENDULUM, "It takes more time for one swing, the pendulum is slower.") is Correctness.CORRECT
    )
    assert verdict(PENDULUM, PENDULUM.sampleSolutions[0].content) is Correctness.CORRECT


def test_two_claims_with_their_words_exchanged_are_not_correct() -> None:
    protocols = FreeformTextTask(
        id="protocols",
        language=Language.DE_DE,
        problemStatement="Nennen Sie einen Unterschied zwischen TCP und UDP.",
        sampleSolutions=[{"content": "TCP ist verbindungsorientiert, UDP ist verbindungslos."}],
    )
    exchanged = judge(protocols, "UDP ist verbindungsorientiert, TCP ist verbindungslos.")
    assert exchanged.points.verdict is not Correctness.CORRECT
    assert wrong_spans(exchanged) == ["UDP ist verbindungsorientiert", "TCP ist verbindungslos"]
    assert verdict(protocols, "TCP ist verbindungsorientiert, UDP ist es nicht.") is Correctness.CORRECT


LIT_BULBS = FreeformTextTask(
    id="bulbs",
    problemStatement="Switch A is open and switch B is closed. Which of the bulbs A and B is lit?",
    sampleSolutions=[{"content": "Bulb B is lit, bulb A is not."}],
)
LAMPEN = FreeformTextTask(
    id="lampen",
    language=Language.DE_DE,
    problemStatement="Schalter A ist offen, Schalter B geschlossen. Welche Lampe leuchtet?",
    sampleSolutions=[{"content": "Lampe B leuchtet, Lampe A leuchtet nicht."}],
)


def test_the_elements_of_two_claims_exchanged_are_not_correct() -> None:
    """A named element and a negation are what a short claim says ("bulb A is not")."""
    assert verdict(LIT_BULBS, "Bulb A is lit, bulb B is not.") is not Correctness.CORRECT
    assert verdict(LIT_BULBS, "B is lit, A is not.") is Correctness.CORRECT


GAS = FreeformTextTask(
    id="gas",
    problemStatement="A closed bottle of air is heated. What happens to the pressure inside and why?",
    sampleSolutions=[
        {"content": "The pressure increases, because the molecules move faster and hit the walls more often."}
    ],
)


def test_a_word_spelt_like_the_terms_opposite_is_no_typo_of_it() -> None:
    """ "decreases" is two letters from "increases": it was taken for a typo of it, so the most
    common near miss of all, the quantity going the other way, was CORRECT."""
    turned = judge(
        GAS, "The pressure decreases, because the molecules move faster and hit the walls more often."
    )
    assert turned.points.verdict is not Correctness.CORRECT
    assert "decreases" in " ".join(wrong_spans(turned))
    assert (
        verdict(GAS, "The pressure increases since the molecules move faster and hit the walls more often.")
        is Correctness.CORRECT
    )


STROM = FreeformTextTask(
    id="strom",
    language=Language.DE_DE,
    problemStatement="Zu einer Lampe wird eine zweite Lampe in Reihe geschaltet. Was passiert mit der Stromstärke?",
    sampleSolutions=[{"content": "Die Stromstärke nimmt ab, weil der Gesamtwiderstand größer wird."}],
)


@pytest.mark.parametrize(
    "content",
    [
        "Die Stromstärke nimmt ab, denn der Widerstand wird größer.",
        "Der Strom wird kleiner, weil der Widerstand zunimmt.",
        # "zunehmen" said of the resistance, the solution's other claim: no contradiction
        "Die Stromstärke sinkt, denn der Gesamtwiderstand nimmt zu.",
    ],
)
def test_a_german_separable_verb_said_either_way_is_understood(content: str) -> None:
    assert verdict(STROM, content) is Correctness.CORRECT


def test_a_german_separable_verb_with_its_particle_turned_round_is_not_correct() -> None:
    """ "nimmt zu" and "nimmt ab" share the verb's stem; the particle at the clause's end decides."""
    turned = judge(STROM, "Die Stromstärke nimmt zu, weil der Gesamtwiderstand größer wird.")
    assert turned.points.verdict is not Correctness.CORRECT
    assert "nimmt zu" in wrong_spans(turned)  # the verb with its particle


@pytest.mark.parametrize(
    ("task", "content"),
    [
        (LIT_BULBS, "Both bulbs are lit."),
        (LIT_BULBS, "All bulbs are lit because the battery is connected."),
        (LAMPEN, "Beide Lampen leuchten."),
    ],
)
def test_a_claim_said_of_every_one_against_a_named_one_is_not_correct(
    task: FreeformTextTask, content: str
) -> None:
    """ "Both bulbs are lit" says of bulb A what the solution denies of it."""
    result = judge(task, content)
    assert result.points.verdict is not Correctness.CORRECT
    assert wrong_spans(result)


@pytest.mark.parametrize(
    ("task", "content"),
    [
        (LIT_BULBS, "Bulb B is lit, bulb A is not. Both bulbs are connected to the battery."),
        (LIT_BULBS, "B is lit and A is not, so not both bulbs are lit."),
        (LAMPEN, "Nur Lampe B leuchtet, Lampe A nicht."),
    ],
)
def test_every_one_of_a_kind_said_of_something_else_or_denied_is_no_contradiction(
    task: FreeformTextTask, content: str
) -> None:
    assert verdict(task, content) is Correctness.CORRECT


@pytest.mark.parametrize(
    ("solution", "turned"),
    [
        (
            "The solubility increases: more sugar dissolves in hot water than in cold water.",
            "The solubility decreases: less sugar dissolves in hot water than in cold water.",
        ),
        (
            "The resistance increases, because the electrons collide more often on the longer path.",
            "The resistance decreases, because the electrons collide less often on the longer path.",
        ),
    ],
)
def test_what_follows_turned_twice_with_its_condition_kept_is_not_correct(solution: str, turned: str) -> None:
    """Two words turned round state a covariation from its other end only if the condition turns
    too ("the shorter the string, the higher the pitch"); here "hot water" and "the longer path"
    stay, and the answer says the opposite twice."""
    task = FreeformTextTask(
        id="turned", problemStatement="What happens and why?", sampleSolutions=[{"content": solution}]
    )
    assert verdict(task, turned) is not Correctness.CORRECT
    assert verdict(task, solution) is Correctness.CORRECT


def test_the_other_element_named_with_a_capital_before_a_verb_is_not_correct() -> None:
    """ "Bulb A stays lit": the capital A was read as the article, so the wrong bulb passed."""
    parallel = FreeformTextTask(
        id="parallel",
        problemStatement="Bulbs A and B are in parallel. What happens to bulb B when bulb A burns out?",
        sampleSolutions=[
            {"content": "Bulb B stays lit, because it still has its own closed path to the battery."}
        ],
    )
    assert verdict(parallel, "Bulb A stays lit.") is not Correctness.CORRECT
    assert (
        verdict(parallel, "Bulb B stays lit since it has its own path to the battery.") is Correctness.CORRECT
    )


@pytest.mark.parametrize(
    ("solution", "turned"),
    [
        (
            "Metall ist ein guter Wärmeleiter, deshalb leitet der Löffel die Wärme schnell vom Tee zum Griff.",
            "Metall leitet Wärme schlecht.",
        ),
        (
            "Der Lichtstrahl fällt steil auf die Erde.",
            "Der Lichtstrahl fällt flach auf die Erde.",
        ),
    ],
)
def test_german_good_and_steep_have_their_opposites(solution: str, turned: str) -> None:
    task = FreeformTextTask(
        id="gut", language=Language.DE_DE, problemStatement="Warum?", sampleSolutions=[{"content": solution}]
    )
    assert verdict(task, turned) is not Correctness.CORRECT


@pytest.mark.parametrize(
    ("language", "solution", "turned"),
    [
        (
            Language.FR_FR,
            "La glace est moins dense que l'eau liquide, parce que ses molécules sont plus éloignées.",
            "La glace est plus dense que l'eau.",
        ),
        (
            Language.EN_US,
            "Ice is less dense than liquid water, because its molecules are more spread out.",
            "Ice is more dense than water.",
        ),
    ],
)
def test_a_degree_word_the_solution_uses_of_another_thing_still_turns_this_one(
    language: Language, solution: str, turned: str
) -> None:
    """The solution's "plus éloignées" (more spread out) did not make "plus dense" a word it uses:
    a degree word is the solution's own only of the same thing."""
    task = FreeformTextTask(
        id="glace", language=language, problemStatement="Why?", sampleSolutions=[{"content": solution}]
    )
    result = judge(task, turned)
    assert result.points.verdict is not Correctness.CORRECT
    assert wrong_spans(result)


SCHWIMMT = FreeformTextTask(
    id="schwimmt",
    language=Language.DE_DE,
    problemStatement="Warum schwimmt Eis?",
    sampleSolutions=[{"content": "Eis schwimmt, weil es eine geringere Dichte als Wasser hat."}],
)
DENSITY = FreeformTextTask(
    id="density",
    problemStatement="Why does ice float on water?",
    sampleSolutions=[{"content": "Ice is less dense than liquid water."}],
)


@pytest.mark.parametrize(
    ("task", "content", "correct"),
    [
        (DENSITY, "Ice is denser than water.", False),  # "denser" compares by more
        (DENSITY, "Water is denser than ice.", True),  # by more, from the other side: the same
        (DENSITY, "Water is more dense than ice.", True),
        (DENSITY, "Water is less dense than ice.", False),
        (DENSITY, "Ice is lighter than water.", True),  # the comparative of a low word: by less
        (DENSITY, "Water is lighter than ice.", False),
        (DENSITY, "Ice has a lower density than water.", True),
        (
            FreeformTextTask(
                id="floats",
                problemStatement="Why does ice float on water?",
                sampleSolutions=[{"content": "Ice floats because it is less dense than liquid water."}],
            ),
            "Water is less dense than ice.",
            False,
        ),
        (
            SCHWIMMT,
            "Wasser hat eine geringere Dichte als Eis.",
            False,
        ),
        (
            SCHWIMMT,
            "Wasser hat eine höhere Dichte als Eis.",
            True,
        ),
        (
            FreeformTextTask(
                id="flota",
                language=Language.ES_ES,
                problemStatement="¿Por qué flota el hielo en el agua?",
                sampleSolutions=[{"content": "El hielo flota porque es menos denso que el agua líquida."}],
            ),
            "El agua es más densa que el hielo.",
            True,
        ),
    ],
)
def test_a_comparison_is_read_by_more_or_less_and_with_the_subject_a_pronoun_stands_for(
    task: FreeformTextTask, content: str, correct: bool
) -> None:
    """A comparative ("denser") compares by more; a comparison turned and swapped states the same;
    and "because it is less dense than water" compares what the sentence named before it."""
    assert (verdict(task, content) is Correctness.CORRECT) is correct
