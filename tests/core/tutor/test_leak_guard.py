"""The leak guard: a reply that gives the sample solution away never reaches the learner."""

from __future__ import annotations

from collections.abc import AsyncIterator

from core.api import FreeformTextTask, Language, MultipleChoiceTask
from core.tutor.base import Boundary, Debug, Fallback, Output, Piece, messages_as_outputs
from core.tutor.leak_guard import Leak, LeakGuard, guarded
from tests.core.tutor.helpers import demo_task

TASK = FreeformTextTask.model_validate(demo_task("ff-bulb-circuit-en"))
SOLUTION = TASK.sampleSolutions[0].content
GUARD = LeakGuard.for_task(TASK, Language.EN_US)


def test_the_solution_and_a_reworded_copy_leak():
    assert GUARD.check(SOLUTION) is not None
    assert GUARD.check("Here you go: " + SOLUTION.upper()) is not None
    reordered = (
        "Only in a closed circuit does a current flow through the filament, which heats up and glows. "
        "So connect a wire from the battery's plus pole to one contact of the bulb."
    )
    assert GUARD.check(reordered) is not None


def test_hints_and_words_of_the_task_do_not_leak():
    assert GUARD.check("What have you tried so far?") is None
    assert GUARD.check("Have another look at this part of the task: “" + TASK.problemStatement + "”") is None


def test_a_concept_the_learner_has_not_shown_is_not_said_and_one_they_have_shown_may_be():
    told = "Good: the circuit is closed."
    assert GUARD.check(told) == Leak(0, 0.0, 0, by_meaning=True, concepts=("Closed circuit",))
    learner = ["The wires make a closed circuit."]
    assert LeakGuard.for_task(TASK, TASK.language, learner_said=learner).check(told) is None


def test_a_one_word_solution_is_not_said():
    task = MultipleChoiceTask.model_validate(demo_task("mc-photosynthesis-en"))
    guard = LeakGuard.for_task(task, Language.EN_US)
    assert guard.check("It is carbon dioxide.") is not None
    assert guard.check("Which gas do leaves take in through their stomata?") is None


async def outputs_of(items: list[Output]) -> AsyncIterator[Output]:
    for item in items:
        yield item


async def run(items: list[Output]) -> list[Output]:
    return [o async for o in guarded(outputs_of(items), GUARD, "SAFE HINT.")]


def text_of(outputs: list[Output]) -> list[str]:
    messages = [""]
    for output in outputs:
        if isinstance(output, Piece):
            messages[-1] += output.text
        elif isinstance(output, Boundary):
            messages.append("")
    return messages


async def test_a_clean_reply_passes_piece_by_piece():
    items = messages_as_outputs(["What have you tried so far?", "Tell me your first idea."])
    outputs = await run(items)
    assert [o for o in outputs if not isinstance(o, Debug)] == items
    assert Debug({"leakGuard": "passed"}) in outputs


async def test_a_leaking_reply_is_replaced_by_a_safe_hint_and_debug_says_so():
    outputs = await run(messages_as_outputs(["Good question!", f"The answer: {SOLUTION}"]))
    assert text_of(outputs) == ["Good question!", "SAFE HINT."]
    replaced = next(o.entry for o in outputs if isinstance(o, Debug))
    assert replaced["leakGuard"] == "replaced"
    assert replaced["coverage"] >= 0.5


async def test_a_leaking_reply_is_replaced_by_the_planned_reply_when_the_engine_gave_one():
    planned = ("I won't give you the solution.", "What have you tried so far?")
    outputs = await run([Fallback(planned), *messages_as_outputs([f"Fine: {SOLUTION}"])])
    assert text_of(outputs) == list(planned)
    assert next(o.entry for o in outputs if isinstance(o, Debug))["sent"] == "the planned reply"


async def test_a_planned_reply_that_leaks_itself_gives_way_to_the_safe_hint():
    outputs = await run([Fallback((SOLUTION,)), *messages_as_outputs([f"Fine: {SOLUTION}"])])
    assert text_of(outputs) == ["SAFE HINT."]
    assert next(o.entry for o in outputs if isinstance(o, Debug))["sent"] == "a safe hint"
