"""The author's glossary on a task: a term question is answered with its explanation first, in
every language the tutor speaks, within a grounded dialogue; an empty glossary is no glossary,
and a term explained twice is refused."""

from __future__ import annotations

from typing import Any

import pytest

from core.api import InvalidParameter, check_task, parse_task
from core.tutor.leak_guard import LeakGuard
from tests.core.tutor.helpers import demo_task, talk
from tests.core.tutor.test_dialogues import CIRCUIT_ES, CIRCUIT_FR, CIRCUIT_IT

GLOSSED: dict[str, tuple[dict[str, Any], str, str, str]] = {
    # language: (task, term, its explanation, the learner's question)
    "en": (
        demo_task("ff-bulb-circuit-en"),
        "filament",
        "The very thin wire inside the glass of the bulb.",
        "What is a filament?",
    ),
    "de": (
        demo_task("ff-gluehbirne-stromkreis-de"),
        "Glühfaden",
        "Ein Glühfaden ist ein sehr feiner Faden aus Metall.",
        "Was ist ein Glühfaden?",
    ),
    "fr": (
        CIRCUIT_FR,
        "filament",
        "Le fil très fin dans le verre de l'ampoule.",
        "Qu'est-ce qu'un filament ?",
    ),
    "it": (
        CIRCUIT_IT,
        "filamento",
        "Il filo sottilissimo dentro il vetro della lampadina.",
        "Che cos'è un filamento?",
    ),
    "es": (
        CIRCUIT_ES,
        "filamento",
        "El hilo muy fino dentro del cristal de la bombilla.",
        "¿Qué es un filamento?",
    ),
}


def glossed(document: dict[str, Any], *entries: tuple[str, str]) -> dict[str, Any]:
    return {**document, "glossary": [{"term": term, "explanation": text} for term, text in entries]}


def dialogue(document: dict[str, Any], learner: list[str]) -> list[tuple[str, str]]:
    """The grounded tutor's (move, reply) to each of the learner's messages in turn, each reply
    checked by the conversation's leak guard as the service checks it."""
    task = parse_task(document)
    replies = []
    for index, (messages, debug) in enumerate(talk(document, learner)):
        reply = "\n\n".join(messages)
        guard = LeakGuard.for_task(task, task.language, learner_said=learner[: index + 1])
        assert guard.check(reply) is None, reply
        replies.append((debug["move"], reply))
    return replies


@pytest.mark.parametrize("language", list(GLOSSED))
def test_a_term_question_is_answered_from_the_glossary_in_every_language(language):
    document, term, explanation, question = GLOSSED[language]
    greeting = {"en": "Hello", "de": "Hallo", "fr": "Bonjour", "it": "Ciao", "es": "Hola"}[language]
    before, (move, reply) = dialogue(glossed(document, (term, explanation)), [greeting, question])
    assert move == "explain_term", reply
    assert explanation in reply
    assert explanation not in before[1]
    without = dialogue(document, [greeting, question])[1][1]
    assert explanation not in without  # the explanation is the glossary's, not found elsewhere


def test_the_glossary_comes_before_the_task_s_other_words_and_matches_a_longer_term():
    document = glossed(
        {**demo_task("ff-bulb-circuit-en"), "context": "A battery is a store of electric energy."},
        ("battery", "A small can of chemicals that pushes a current through wires."),
        ("electric circuit", "A path of wires that a current can flow along."),
    )
    [(_, battery), (_, circuit)] = dialogue(document, ["What is a battery?", "What does circuit mean?"])
    assert "A small can of chemicals" in battery and "store of electric energy" not in battery
    assert "A path of wires that a current can flow along." in circuit


def test_an_empty_glossary_is_none_and_a_term_explained_twice_is_refused():
    task = parse_task({**demo_task("ff-bulb-circuit-en"), "glossary": []})
    assert task.glossary is None and "glossary" not in task.to_wire()
    twice = parse_task(glossed(demo_task("ff-bulb-circuit-en"), ("Bulb", "A lamp."), ("bulb ", "A light.")))
    with pytest.raises(InvalidParameter, match="glossary explains 'bulb' more than once"):
        check_task(twice)
