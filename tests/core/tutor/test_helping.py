"""The grounded tutor helps a learner who is stuck, asks whether they are done, guesses, or asks
what a word means, in every language the product speaks (EN, DE, FR, IT, ES).

What a teacher trying the tutor noticed, and what these dialogues assert as a learner would see it:

- "I don't know", "idk", "Ich weiß nicht", "Je ne sais pas", "ok", "go on", "list the key words"
  are answered with a hint about the content, never "that has nothing to do with the task"; each
  such turn moves the hint forward (where to look → the question the missing fact answers → a
  worked example from another topic), never back to a hint already given;
- "Am I done?" is answered "not yet" with what is open, without naming a missing concept;
- a yes/no guess gets a no when it is wrong and "that is part of it" when right but incomplete;
- a question about a term is answered from what the author wrote, else honestly ("the task does
  not explain it"), never with the problem statement quoted back or the course's label;
- no reply comes back within a conversation, and no reply leaks the solution by meaning.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.api import FreeformTextTask, Language, parse_task
from core.assets import load_catalogue
from tests.core.tutor.helpers import assert_no_leak_by_meaning, demo_task, talk
from tests.core.tutor.test_dialogues import CIRCUIT_ES, CIRCUIT_FR, CIRCUIT_IT

CATALOGUE = load_catalogue()

PUNNETT: dict[str, Any] = {
    "id": "ff-punnett-en",
    "type": "FreeformTextTask",
    "language": "EN_UK",
    "title": "Predicting offspring",
    "problemStatement": "A pea plant with the genotype Tt is crossed with a plant with the genotype tt. Use a "
    "Punnett square to predict the share of tall offspring, and explain your result.",
    "context": "Biology, upper secondary: Mendelian genetics.",
    "sampleSolutions": [
        {
            "content": "Half of the offspring are tall: each gamete of the Tt parent carries T or t with equal "
            "chance, every gamete of the tt parent carries t, so Tt and tt appear equally often, and T is dominant."
        }
    ],
    "aspects": [
        {
            "name": "Half are tall",
            "description": "Half of the offspring get the dominant allele T.",
            "cues": ["half", "50 %", "50%", "one in two"],
            "message": "Which combinations can the square produce, and how many of them contain a T?",
        },
        {
            "name": "T is dominant",
            "description": "One T allele is enough for a tall plant because T is dominant.",
            "cues": ["dominant", "one T is enough"],
            "message": "What does a plant with one T and one t look like?",
        },
    ],
}
RAILING: dict[str, Any] = {
    "id": "ff-railing-en",
    "type": "FreeformTextTask",
    "language": "EN_US",
    "title": "Leaning on a railing",
    "problemStatement": "A boy leans against the railing of a balcony. Explain why the railing does not move "
    "although he pushes against it.",
    "context": "Physics, lower secondary: forces.",
    "sampleSolutions": [
        {
            "content": "The railing pushes back on the boy with a force of the same size in the opposite direction."
        }
    ],
    "aspects": [
        {
            "name": "Counterforce",
            "description": "The railing exerts an equal and opposite force on the boy.",
            "cues": ["pushes back", "opposite force", "counterforce", "equal force"],
            "message": "When you push against a wall, what does the wall do to your hands?",
        }
    ],
}
TASKS: dict[str, dict[str, Any]] = {
    "en": demo_task("ff-bulb-circuit-en"),
    "de": demo_task("ff-gluehbirne-stromkreis-de"),
    "fr": CIRCUIT_FR,
    "it": CIRCUIT_IT,
    "es": CIRCUIT_ES,
}


def phrasings(language: Language, key: str, **params: Any) -> list[str]:
    return list(dict.fromkeys(CATALOGUE.phrasing(language, f"tutor.{key}", v, **params) for v in range(6)))


def opens_with(reply: list[str], language: Language, key: str, **params: Any) -> bool:
    return any(reply[0].startswith(p) for p in phrasings(language, key, **params))


def assert_nothing_repeats_and_nothing_leaks(document: dict[str, Any], messages: list[str], turns) -> None:
    said: list[str] = []
    for message, (reply, _) in zip(messages, turns, strict=True):
        again = [m for m in reply if m in said]
        assert not again, (message, again)
        said += reply
    task = parse_task(document)
    if isinstance(task, FreeformTextTask):
        assert_no_leak_by_meaning(task, messages, said)


def missing_concept_words(document: dict[str, Any], shown: set[str] = frozenset()) -> list[str]:
    """What a reply must not say of a concept the learner has not shown: its name, its description."""
    return [
        text
        for aspect in document["aspects"]
        if aspect.get("type", "CONCEPT") == "CONCEPT" and aspect["name"] not in shown
        for text in (aspect["name"], aspect["description"])
    ]


# --- stuck: "I don't know" and its kin get a hint that moves forward --------------------------------

STUCK = {
    "en": ["I don't know", "idk", "dunno", "no idea", "I'm stuck", "I really don't know what to do"],
    "de": [
        "Ich weiß nicht",
        "weiss nicht",
        "keine Ahnung",
        "Ich hab keine Ahnung.",
        "Ich komme nicht weiter",
    ],
    "fr": ["Je ne sais pas", "je sais pas", "aucune idée", "Je suis bloqué.", "J'en sais rien"],
    "it": ["Non lo so", "non so", "boh", "nessuna idea", "Sono bloccato."],
    "es": ["No sé", "no lo sé", "ni idea", "No tengo ni idea.", "Estoy atascado."],
}
GO_ON = {
    "en": ["ok", "go on", "okay", "continue", "and now?", "next", "ok and now?", "ok, thanks"],
    "de": ["ok", "weiter", "und jetzt?", "alles klar", "mach weiter", "Ok, und weiter?"],
    "fr": ["ok", "d'accord", "continue", "et après ?", "vas-y", "Ok et ensuite ?"],
    "it": ["ok", "va bene", "continua", "e adesso?", "vai avanti", "Ok, e poi?"],
    "es": ["ok", "vale", "sigue", "¿y ahora?", "de acuerdo", "Vale, ¿y ahora?"],
}
PUZZLED = {
    "en": ["what?", "huh?", "hmm", "I don't understand."],
    "de": ["Was?", "Hä?", "Ich verstehe das nicht."],
    "fr": ["Quoi ?", "Euh...", "Je ne comprends pas."],
    "it": ["Cosa?", "Non capisco."],
    "es": ["¿Qué?", "No entiendo."],
}
KEY_WORDS = {
    "en": ["List the key words please.", "Which keywords do I need?"],
    "de": ["Welche Schlüsselwörter brauche ich?", "Nenn mir die Fachbegriffe."],
    "fr": ["Donne-moi les mots-clés.", "Quels mots clés faut-il ?"],
    "it": ["Dammi le parole chiave.", "Quali sono le parole chiave?"],
    "es": ["Dame las palabras clave.", "¿Cuáles son las palabras clave?"],
}


@pytest.mark.parametrize("language", list(TASKS))
def test_stuck_go_on_puzzled_and_key_word_requests_are_read_in_every_language(language):
    """Each of them, as the first message of a conversation, gets a hint about the content: the
    sentence of the task to look at, not "let's get back to the task" and not "tell me your idea"."""
    task = parse_task(TASKS[language])
    for kind, messages in (
        ("stuck", STUCK),
        ("go_on", GO_ON),
        ("key_words", KEY_WORDS),
        ("rephrase", PUZZLED),
    ):
        for message in messages[language]:
            [(reply, debug)] = talk(TASKS[language], [message])
            assert debug["move"] == kind, (message, reply, debug)
            assert not opens_with(reply, task.language, "off_topic"), (message, reply)
            assert not any(r in phrasings(task.language, "hint_ask_tried") for r in reply), (message, reply)
            assert any(sentence in reply[-1] for sentence in task.problemStatement.split(". ")), (
                message,
                reply,
            )


@pytest.mark.parametrize("language", list(TASKS))
def test_a_stuck_learner_climbs_the_ladder_and_is_never_taken_back(language):
    """Three times "I don't know" (in the learner's language): where to look, then the question the
    missing fact answers (the author's), then a worked example from another topic; the ladder then
    goes on to the next missing fact, and when every hint is given the tutor says so. No reply comes
    back, nothing leaks."""
    document = TASKS[language]
    task = parse_task(document)
    stuck = STUCK[language]
    messages = [stuck[i % len(stuck)] for i in range(8)]
    turns = talk(document, messages)
    hints = [" ".join(reply) for reply, _ in turns]
    first, second = task.aspects[:2]
    examples = phrasings(task.language, "hint_worked_example")
    assert any(sentence in hints[0] for sentence in task.problemStatement.split(". "))  # where to look
    assert first.message in hints[1]  # the question the fact answers
    assert any(example in hints[2] for example in examples)  # a worked example of another topic
    assert all(example in " ".join(hints) for example in examples)
    assert second.message in " ".join(hints[3:5]) or turns[3][1]["rung"].startswith(second.name)
    assert opens_with([hints[-1]], task.language, "out_of_hints"), hints
    rungs = [debug.get("rung") for _, debug in turns]
    assert len([r for r in rungs if r]) == len({r for r in rungs if r}), rungs  # never back
    assert_nothing_repeats_and_nothing_leaks(document, messages, turns)
    for reply, _ in turns:
        for text in missing_concept_words(document):
            assert text not in " ".join(reply)


def test_an_attempt_after_being_stuck_goes_on_from_the_hint_the_learner_had():
    """The ladder is one per fact, whoever moved it: after two "I don't know", an attempt that
    shows nothing gets the next rung, not the first one again."""
    document = TASKS["en"]
    messages = ["I don't know", "idk", "I take a wire and the battery."]
    turns = talk(document, messages)
    assert [debug["move"] for _, debug in turns] == ["stuck", "stuck", "hint"]
    assert turns[2][1]["rung"] not in {turns[0][1]["rung"], turns[1][1]["rung"]}
    assert_nothing_repeats_and_nothing_leaks(document, messages, turns)


# --- "am I done?" ---------------------------------------------------------------------------------

DONE = {
    "en": ["Am I done?", "Is that right?", "Is my answer complete?"],
    "de": ["Bin ich fertig?", "Stimmt das so?", "Ist das richtig?"],
    "fr": ["J'ai fini ?", "C'est bon ?", "Est-ce que c'est juste ?"],
    "it": ["Ho finito?", "È giusto?", "Va bene così?"],
    "es": ["¿He terminado?", "¿Está bien?", "¿Es correcto?"],
}
PARTIAL = {
    "en": "The wires must make a closed circuit from the plus pole to the minus pole.",
    "de": "Der Stromkreis muss geschlossen sein, vom Pluspol zum Minuspol.",
    "fr": "Il faut un circuit fermé entre les deux bornes de la pile.",
    "it": "Serve un circuito chiuso tra entrambi i poli della pila.",
    "es": "Hace falta un circuito cerrado entre ambos polos de la pila.",
}


@pytest.mark.parametrize("language", list(TASKS))
def test_am_i_done_says_not_yet_and_what_is_open_without_naming_it(language):
    document = TASKS[language]
    task = parse_task(document)
    first, second = (a.name for a in task.aspects[:2])
    messages = [DONE[language][0], PARTIAL[language], DONE[language][1], DONE[language][2]]
    turns = talk(document, messages)
    assert [debug["move"] for _, debug in turns] == ["done_check", "hint", "done_check", "done_check"]
    assert opens_with(turns[0][0], task.language, "done_nothing_yet"), turns[0][0]
    for reply, _ in turns[2:]:
        assert opens_with(reply, task.language, "done_not_yet_shown", shown=first), reply
        assert second not in " ".join(reply)
        for text in missing_concept_words(document, {first}):
            assert text not in " ".join(reply)
    assert_nothing_repeats_and_nothing_leaks(document, messages, turns)


def test_am_i_done_after_solving_says_yes():
    document = TASKS["en"]
    turns = talk(
        document,
        [
            "With a closed circuit the current flows through the filament, which heats up and glows.",
            "Am I done?",
        ],
    )
    assert turns[0][1]["move"] == "solved"
    assert opens_with(turns[1][0], Language.EN_US, "done_yes"), turns[1][0]


# --- yes/no guesses --------------------------------------------------------------------------------

PROBES = {
    # (a right guess that is not the whole answer, a wrong guess)
    "en": ("Is it a closed circuit?", "Is it because the table is made of wood?"),
    "de": ("Ist es ein geschlossener Stromkreis?", "Liegt es daran, dass der Tisch aus Holz ist?"),
    "fr": ("Est-ce que c'est un circuit fermé ?", "C'est parce que la table est en bois ?"),
    "it": ("È un circuito chiuso?", "È perché il tavolo è di legno?"),
    "es": ("¿Es un circuito cerrado?", "¿Es porque la mesa es de madera?"),
}


@pytest.mark.parametrize("language", list(TASKS))
def test_a_yes_no_guess_gets_yes_part_of_it_or_no(language):
    """A right guess and a wrong one no longer sound alike; the right one names nothing more."""
    document = TASKS[language]
    task = parse_task(document)
    right, wrong = PROBES[language]
    turns = talk(document, [wrong, right])
    (no, no_debug), (part, part_debug) = turns
    assert (no_debug["move"], part_debug["move"]) == ("probe", "probe")
    assert opens_with(no, task.language, "probe_no"), no
    assert opens_with(part, task.language, "probe_part"), part
    for text in missing_concept_words(document, {task.aspects[0].name}):
        assert text not in " ".join(part)
    assert_nothing_repeats_and_nothing_leaks(document, [wrong, right], turns)


def test_a_guess_that_states_a_misconception_gets_no_and_the_authors_word_on_it():
    document = TASKS["en"]
    [(reply, debug)] = talk(document, ["Is it enough to use a single wire?"])
    assert debug["move"] == "probe"
    assert opens_with(reply, Language.EN_US, "probe_no")
    assert "the current has to get back to the battery" in " ".join(reply)


# --- term questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "question"),
    [
        (PUNNETT, "What is a punnet?"),
        (RAILING, "What does 'railing' mean?"),
        (RAILING, "What is a railing?"),
        (TASKS["en"], "What is a circuit?"),
        (TASKS["fr"], "Que veut dire filament ?"),
        (TASKS["fr"], "Qu'est-ce qu'un circuit ?"),
        (TASKS["de"], "Was ist ein Stromkreis?"),
        (TASKS["it"], "Cos'è un circuito?"),
        (TASKS["es"], "¿Qué es un circuito?"),
        (TASKS["es"], "¿Qué significa filamento?"),
    ],
)
def test_a_term_the_task_does_not_explain_is_said_so_honestly(document, question):
    """No sentence of the problem statement quoted back, no course label ("Physics, lower
    secondary: …"): the tutor cannot explain the term from the task (true also of a word whose
    explanation would tell a missing concept), and the learner is told where to ask."""
    task = parse_task(document)
    [(reply, debug)] = talk(document, [question])
    assert debug["move"] == "explain_term", (question, debug)
    [text] = reply
    assert text in phrasings(task.language, "term_look_up"), text
    assert task.context not in text
    assert all(sentence not in text for sentence in task.problemStatement.split(". "))


def test_a_term_an_author_explains_is_explained():
    grouped = {
        **TASKS["fr"],
        "aspects": [
            {
                **a,
                "aspectGroup": {
                    "name": "Circuits",
                    "description": "Un circuit est un ensemble de composants électriques reliés par des fils.",
                },
            }
            for a in TASKS["fr"]["aspects"]
        ],
    }
    [(reply, debug)] = talk(grouped, ["Qu'est-ce qu'un circuit ?"])
    assert debug["move"] == "explain_term" and debug["term"] == "circuit"
    assert "Un circuit est un ensemble de composants électriques reliés par des fils." in reply[0]


# --- whole conversations: no reply comes back --------------------------------------------------------

CONVERSATIONS = {
    "fr": [
        "Bonjour",
        "Je ne sais pas",
        "ok",
        "Je ne sais pas",
        "Qu'est-ce qu'un circuit ?",
        "Je relie la pile à l'ampoule avec un fil.",
        "Donne-moi la réponse.",
        "Je ne comprends pas.",
        "Est-ce que c'est un circuit fermé ?",
        "J'ai fini ?",
        "continue",
        "Donne-moi les mots-clés.",
        "Pourquoi ?",
        "Donne-moi la réponse.",
        "aucune idée",
        "J'ai fini ?",
    ],
    "en": [
        "hi",
        "idk",
        "dunno",
        "ok",
        "go on",
        "List the key words please.",
        "What is a punnet?",
        "Am I done?",
        "Is it a closed circuit?",
        "I don't know",
        "Just tell me the answer.",
        "I connect the battery with one wire.",
        "Just tell me the answer.",
        "I don't understand.",
        "Am I done?",
        "no idea",
    ],
    "de": [
        "Hallo",
        "Ich weiß nicht",
        "ok",
        "weiter",
        "Sag mir einfach die Lösung.",
        "Bin ich fertig?",
        "Ist es ein geschlossener Stromkreis?",
        "keine Ahnung",
        "Sag mir einfach die Lösung.",
        "Welche Schlüsselwörter brauche ich?",
        "Ich weiß nicht",
        "Bin ich fertig?",
    ],
    "it": [
        "Ciao",
        "Non lo so",
        "ok",
        "Dimmi la soluzione.",
        "Ho finito?",
        "È un circuito chiuso?",
        "boh",
        "e poi?",
    ],
    "es": [
        "Hola",
        "No sé",
        "vale",
        "Dime la solución.",
        "¿He terminado?",
        "¿Es un circuito cerrado?",
        "ni idea",
    ],
}


@pytest.mark.parametrize("language", list(CONVERSATIONS))
def test_no_reply_comes_back_in_a_conversation(language):
    document = TASKS[language]
    messages = CONVERSATIONS[language]
    turns = talk(document, messages)
    assert not any(debug["move"] == "off_topic" for _, debug in turns), [d["move"] for _, d in turns]
    assert_nothing_repeats_and_nothing_leaks(document, messages, turns)


# --- choice and blanks tasks ------------------------------------------------------------------------


def test_a_stuck_learner_on_a_blanks_task_gets_the_authors_word_on_one_gap_after_another():
    """Before any attempt no gap is "not right yet"; each "I don't know" brings another gap's hint,
    and after an attempt the gaps it had wrong come first."""
    document = demo_task("blanks-water-cycle-en")
    task = parse_task(document)
    messages = ["I don't know", "idk", "evaporates, smoke, rain, 100", "no idea"]
    turns = talk(document, messages)
    assert [debug["move"] for _, debug in turns] == ["stuck", "stuck", "gap_hint", "stuck"]
    feedback = [b.feedback for b in task.blanks]
    first, second = (" ".join(reply) for reply, _ in turns[:2])
    assert feedback[0] in first and feedback[1] in second
    assert not any(p in first + second for p in phrasings(task.language, "hint_gap", number=1))
    assert not any(p in first + second for p in phrasings(task.language, "hint_gap", number=2))
    assert_nothing_repeats_and_nothing_leaks(document, messages, turns)


def test_a_guessed_option_is_judged_as_that_option():
    document = demo_task("mc-photosynthesis-en")
    task = parse_task(document)
    nitrogen = next(o.feedback for o in task.options if o.content == "Nitrogen")
    turns = talk(document, ["Is it nitrogen?", "Am I done?", "Is it carbon dioxide?", "Am I done?"])
    assert [debug["move"] for _, debug in turns] == ["probe", "done_check", "solved", "done_check"]
    assert opens_with(turns[0][0], task.language, "probe_no") and nitrogen in turns[0][0][0]
    assert opens_with(turns[1][0], task.language, "done_not_yet")
    assert opens_with(turns[3][0], task.language, "done_yes")


def test_english_formulas_are_read_in_every_language_and_a_short_attempt_is_an_attempt():
    """German learners write "idk" and "ok" too; "I take a wire." is a first try, not off the task."""
    turns = talk(TASKS["de"], ["idk", "ok"])
    assert [debug["move"] for _, debug in turns] == ["stuck", "go_on"]
    [(_, debug)] = talk(TASKS["en"], ["I take a wire."])
    assert debug["move"] == "hint"


def test_the_first_hint_names_the_topic_the_author_grouped_the_concept_under():
    """The aspect group's name is the topic a learner sees in feedback; the first rung names it."""
    [(reply, debug)] = talk(TASKS["en"], ["I don't know"])
    assert debug["rung"] == "Closed circuit/where_to_look"
    assert "Electric circuits" in reply[0]
    assert any(sentence in reply[0] for sentence in parse_task(TASKS["en"]).problemStatement.split(". "))


@pytest.mark.parametrize(
    ("guess", "verdict"),
    [
        ("Is it the filament?", "probe_part"),  # a word of the answer, no whole idea yet
        ("Is one wire enough?", "probe_no"),  # the words of a misconception, not of a concept
        ("Is the circuit open?", "probe_no"),  # a word neither the answer nor the task uses
        ("Is it the table?", "probe"),  # a word of the task only: yes and no would both mislead
    ],
)
def test_a_guess_the_engine_finds_no_idea_in_is_judged_by_its_words(guess, verdict):
    [(reply, debug)] = talk(TASKS["en"], [guess])
    assert debug["move"] == "probe"
    assert opens_with(reply, Language.EN_US, verdict), reply
    if guess == "Is one wire enough?":
        assert "the current has to get back to the battery" in reply[0]  # the author's word on it
