"""The leak guard judges the tutor's words by meaning, over the whole conversation: a paraphrase of
the sample solution, the solution told piece by piece, or a concept the learner has not shown,
leaks; a hint does not."""

from __future__ import annotations

from core.api import FreeformTextTask
from core.assets import demo_tasks
from core.tutor.leak_guard import LeakGuard

CIRCUIT = FreeformTextTask.model_validate(next(d for d in demo_tasks() if d["id"] == "ff-bulb-circuit-en"))
FIRST_HALF = (
    "Link the battery's plus terminal to the lamp with one cable and run another cable from the lamp "
    "back to the minus terminal, closing the loop."
)
SECOND_HALF = "The current through the thin filament then makes it hot, so it glows."


WITHOUT_ASPECTS = CIRCUIT.model_copy(update={"aspects": []})
"""A new task with a sample solution only: the verdict is all the judgement has."""


def guard(*said_before: str, task: FreeformTextTask = CIRCUIT) -> LeakGuard:
    return LeakGuard.for_task(task, task.language, said_before)


def test_a_paraphrase_of_the_whole_solution_leaks_though_it_shares_few_words():
    leak = guard().check(f"{FIRST_HALF} {SECOND_HALF}")
    assert leak is not None and leak.by_meaning and leak.shared == 0


def test_on_a_new_task_each_fact_of_the_solution_told_leaks():
    """Without authored aspects, the facts of the sample solution are what the learner must show."""
    for half in (FIRST_HALF, SECOND_HALF):
        leak = guard(task=WITHOUT_ASPECTS).check(half)
        assert leak is not None and leak.by_meaning and leak.concepts


def test_half_of_the_solution_states_a_concept_and_leaks_on_an_authored_task():
    leak = guard().check(SECOND_HALF)
    assert leak is not None and leak.concepts == ("Current heats the filament",)


def test_a_hint_that_asks_a_question_passes():
    assert guard().check("What happens to the current when the circuit is open? Follow its path.") is None


def test_a_reply_without_a_word_passes_both_ways_of_judging():
    """Only emoji and punctuation: nothing for the aspects nor for the facts to find."""
    assert guard().check("👍 …") is None
    assert guard(FIRST_HALF).check("👍") is not None, "what was said before is still read with it"


TRANSLATIONS = {
    "de": "Man verbindet einen Draht vom Pluspol der Batterie mit einem Kontakt der Glühbirne und den zweiten "
    "Draht vom anderen Kontakt zurück zum Minuspol, so dass der Stromkreis geschlossen ist. Nur in einem "
    "geschlossenen Stromkreis fliesst ein Strom durch den Glühdraht, der sich erhitzt und glüht.",
    "fr": "On relie un fil du pôle plus de la pile à un contact de l'ampoule et le second fil de l'autre contact "
    "au pôle moins, pour que le circuit soit fermé. Seulement dans un circuit fermé un courant traverse le "
    "filament, qui chauffe et brille.",
    "it": "Collega un filo dal polo positivo della batteria a un contatto della lampadina e il secondo filo "
    "dall'altro contatto al polo negativo, così il circuito è chiuso. Solo in un circuito chiuso una "
    "corrente attraversa il filamento, che si scalda e si illumina.",
}


def test_a_translation_of_the_solution_leaks_by_the_meaning_of_its_facts():
    """The authored cues read English only; the sample solution's facts are compared by meaning
    across languages, so the French and Italian translations show them."""
    for language in ("fr", "it"):
        leak = guard().check(TRANSLATIONS[language])
        assert leak is not None and leak.by_meaning and leak.concepts, language
        assert any(c.startswith("Connect one wire") for c in leak.concepts), language


def test_a_sentence_plainly_in_another_language_is_not_sent():
    """Told a few words a turn, a translation is below the reach of meaning; it is not the
    conversation's language either."""
    for piece in ("Dann ist der Stromkreis geschlossen.", "Der Strom fliesst durch den Glühdraht."):
        leak = guard().check(piece)
        assert leak is not None and leak.language == "de", piece
    assert guard().check(TRANSLATIONS["de"]) is not None
    assert guard().check("What does “Glühdraht” mean? Look at the first sentence of the task.") is None
