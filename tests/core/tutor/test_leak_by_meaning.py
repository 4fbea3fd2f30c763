"""The leak guard judges the tutor's words by meaning, over the whole conversation: a paraphrase of
the sample solution, or the solution told piece by piece, leaks; a hint does not."""

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


def guard(*said_before: str) -> LeakGuard:
    return LeakGuard.for_task(CIRCUIT, CIRCUIT.language, said_before)


def test_a_paraphrase_of_the_whole_solution_leaks_though_it_shares_few_words():
    leak = guard().check(f"{FIRST_HALF} {SECOND_HALF}")
    assert leak is not None and leak.by_meaning and leak.shared == 0


def test_the_solution_told_over_two_replies_leaks_on_the_second():
    assert guard().check(SECOND_HALF) is None
    leak = guard(FIRST_HALF).check(SECOND_HALF)
    assert leak is not None and leak.by_meaning


def test_a_hint_that_asks_a_question_passes():
    assert guard().check("What happens to the current when the circuit is open? Follow its path.") is None
