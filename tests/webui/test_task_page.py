"""Journeys of the task page: try answers and read the feedback, edit the task, read its history,
and create a new task in the editor (with the problems listed when it cannot be saved).
"""

from __future__ import annotations

import pytest
from nicegui import ui
from nicegui.testing import User

from core.api import TaskType
from core.auth import local_principal
from core.client.templates import new_task
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW, click_item


async def test_a_wrong_choice_gets_its_feedback_and_the_sample_solution(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    await user.should_see("Which gas does a plant take in from the air")
    user.find(ui.radio).click()  # no option chosen yet: the radio itself
    with user:
        user.find(ui.radio).elements.pop().value = 0  # "Oxygen"
    user.find("Get feedback").click()
    await user.should_see("Oxygen is what plants give off during photosynthesis", retries=SLOW)
    await user.should_see("WRONG")
    await user.should_see("0 / 1 points")
    await user.should_see("Sample solution")


async def test_free_text_feedback_marks_the_evidence_in_the_answer(user: User) -> None:
    await user.open("/tasks/default/ff-bulb-circuit-en")
    user.find(marker="answer").type("I connect a single wire from the battery to the bulb <b>now</b>.")
    user.find("Get feedback").click()
    await user.should_see(marker="marked-answer", retries=SLOW)
    marked = user.find(marker="marked-answer").elements.pop()
    assert '<mark class="fs-mark fs-wrong"' in marked.content
    assert "&lt;b&gt;now&lt;/b&gt;" in marked.content  # the learner's text is escaped
    await user.should_see("A single wire suffices")  # the detected misconception


async def test_gap_answers_are_checked_in_the_statement(user: User) -> None:
    await user.open("/tasks/default/blanks-water-cycle-en")
    for gap, text in zip(
        sorted(user.find(marker="gap").elements, key=lambda e: e.id),
        ["evaporates", "clouds", "rain", "100"],
        strict=True,
    ):
        with user:
            gap.value = text
    user.find("Get feedback").click()
    await user.should_see("CORRECT", retries=SLOW)
    await user.should_see("4 / 4 points")


async def test_the_history_shows_the_answers_and_the_charts(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    with user:
        user.find(ui.radio).elements.pop().value = 1
    user.find("Get feedback").click()
    await user.should_see("CORRECT", retries=SLOW)
    user.find("History").click()
    await user.should_see("Answers (1)", retries=SLOW)
    await user.should_see("Verdicts over time")
    await user.should_see(ui.echart)


async def test_an_empty_history_says_what_to_do(user: User) -> None:
    await user.open("/tasks/default/blanks-water-cycle-en")
    user.find("History").click()
    await user.should_see("No answers yet", retries=SLOW)


def fill_capital_question(user: User, task_id: str) -> None:
    """The new multiple-choice editor (it opens on the example) filled in anew: id, title,
    statement and two options."""
    for label, value in [
        ("Id", task_id),
        ("Title", "Capital of France"),
        ("Problem statement", "Which city is the capital of France?"),
    ]:
        with user:
            user.find(label).elements.pop().value = value
    options = [e for e in user.find(kind=ui.input).elements if e.props.get("label") == "Option"]
    for option, text in zip(sorted(options, key=lambda e: e.id), ["Paris", "Lyon"], strict=True):
        with user:
            option.value = text


async def test_editing_a_task_saves_a_new_version(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("Edit").click()
    user.find("Title").type(" (revised)")
    user.find("Save task").click()
    await user.should_see("Task updated", retries=SLOW)


async def test_a_new_task_opens_on_the_example_under_a_free_id_as_in_the_terminal(user: User) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    await service.upsert_task("default", new_task(TaskType.MULTIPLE_CHOICE, set()))  # takes -1
    await user.open("/new/MULTIPLE_CHOICE")
    await user.should_see("New task: Multiple choice")
    assert user.find("Id").elements.pop().value == "multiple-choice-2"
    assert user.find("Problem statement").elements.pop().value == "Which planet is closest to the sun?"
    user.find("Save task").click()  # the example is a valid task as it stands
    await user.should_see("Task created", retries=SLOW)
    assert (await service.get_task("default", "multiple-choice-2")).definition.options[0].content == "Mercury"


async def test_a_new_multiple_choice_task_is_checked_then_saved(user: User) -> None:
    await user.open("/new/MULTIPLE_CHOICE")
    await user.should_see("New task: Multiple choice")
    with user:
        user.find("Id").elements.pop().value = ""
    user.find("Save task").click()
    await user.should_see("id: Field required", retries=SLOW)
    fill_capital_question(user, "mc-capital")
    user.find("Save task").click()
    await user.should_see("Task created", retries=SLOW)
    await user.should_see("Which city is the capital of France?")


async def test_the_new_task_menu_offers_the_six_types(user: User) -> None:
    await user.open("/")
    user.find("New task").click()
    for label in [
        "Free text",
        "Multiple choice",
        "Multiple responses",
        "Fill in the blanks",
        "Choices in text",
    ]:
        await user.should_see(label)
    user.find(marker="/new/SIMULATION").click()
    await user.should_see("New task: Simulation")


async def test_an_unknown_task_says_so(user: User) -> None:
    await user.open("/tasks/default/no-such-task")
    await user.should_see("Task no-such-task is not available")


@pytest.mark.parametrize(
    ("type_name", "section"),
    [
        ("FREEFORM_TEXT", "Sample solutions"),
        ("MULTIPLE_CHOICE", "Options (exactly one correct)"),
        ("MULTIPLE_RESPONSES", "Options"),
        ("IN_TEXT_FILL_IN_BLANKS", "Blanks"),
        ("IN_TEXT_CHOICES", "Choice points"),
        ("SIMULATION", "Aspects: what the learner should do"),
    ],
)
async def test_each_task_type_has_its_editor(user: User, type_name: str, section: str) -> None:
    await user.open(f"/new/{type_name}")
    await user.should_see(section)


async def test_gaps_that_do_not_match_the_blanks_are_reported_before_saving(user: User) -> None:
    await user.open("/new/IN_TEXT_FILL_IN_BLANKS")  # the example: two blanks
    with user:
        user.find("Problem statement").elements.pop().value = "One gap: {{1}}."
    user.find("Save task").click()
    await user.should_see(
        "the problem statement must mark {{1}} … {{2}} once each for its 2 blanks", retries=SLOW
    )


async def test_the_feedback_can_be_rated(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    with user:
        user.find(ui.radio).elements.pop().value = 0
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    with user:  # the simulation clicks no toggle option: the thumb is chosen as a click would
        user.find(marker="rating-thumb").elements.pop().value = "BAD"
    user.find("Remark (optional)").type("Too short")
    user.find("Send rating").click()
    await user.should_see("Thanks: the rating is saved", retries=SLOW)
    user.find("History").click()
    await user.should_see("Answers (1)", retries=SLOW)
    click_item(user, "Oxygen")
    with user.scope(marker="dialog"):
        await user.should_see("Oxygen is what plants give off during photosynthesis")
        [status] = user.find(marker="rating-status").elements  # the rating given is shown, and can be changed
        assert status.text == "Rated: Bad · Too short"


async def test_a_sample_solution_that_misses_a_concept_is_pointed_out_on_save(user: User) -> None:
    await user.open("/tasks/default/ff-bulb-circuit-en")
    user.find("Edit").click()
    [solution] = [e for e in user.find(kind=ui.input).elements if e.props.get("label") == "Sample solution"]
    with user:
        solution.value = "Connect the battery to the bulb."
    user.find("Save task").click()
    await user.should_see("Task updated", retries=SLOW)
    await user.should_see("Sample solution 1 scores", retries=SLOW)


async def test_the_history_filters_by_verdict_and_learner_and_exports_what_it_shows(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    for choice, points in ((1, "1 / 1 points"), (0, "0 / 1 points")):
        with user:
            user.find(ui.radio).elements.pop().value = choice
        user.find("Get feedback").click()
        await user.should_see(points, retries=SLOW)  # this answer's result, not the one before
    user.find("History").click()
    await user.should_see("Answers (2)", retries=SLOW)
    with user:
        [verdicts] = [e for e in user.find(kind=ui.select).elements if e.props.get("label") == "Verdicts"]
        verdicts.value = ["WRONG"]
    await user.should_see("Answers (1 of 2)")
    user.find("Export CSV").click()
    exported = (await user.download.next()).content.decode("utf-8-sig").splitlines()
    assert len(exported) == 2 and exported[1].split(",")[5] == "WRONG"
    user.find("Learner").type("nobody")
    await user.should_see("No answer matches")


async def test_an_answer_marked_as_gold_becomes_a_test_answer_and_is_retested_at_once(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    with user:
        user.find(ui.radio).elements.pop().value = 0  # "Oxygen": WRONG
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    with user:
        [toggle] = [t for t in user.find(ui.toggle).elements if "PARTIAL" in t.options]
        toggle.value = "PARTIAL"
    user.find("Keep as test answer").click()
    await user.should_see("expecting PARTIAL; the engine says WRONG", retries=SLOW)
    service = LocalService(harness.runtime, local_principal("default"))
    stored = await service.list_test_answers("default", "mc-photosynthesis-en")
    assert [(t.answer, t.expected.verdict.value) for t in stored.answers] == [
        ({"selectedIndex": 0}, "PARTIAL")
    ]


async def test_the_learn_checkbox_says_what_a_graded_answer_does_and_only_on_free_text(user: User) -> None:
    """The issue: the tooltip promised that free-text answers like it are then judged the same way;
    the judge blends a graded answer in, pulling close answers towards it, with the sample solution
    still counting. Other task types use no graded answers: no checkbox there."""
    await user.open("/tasks/default/ff-bulb-circuit-en")
    user.find(marker="answer").type("The bulb lights when the circuit is a closed loop.")
    user.find("Get feedback").click()
    await user.should_see("This should be", retries=SLOW)
    await user.should_see("and the judge learns from it")
    await user.should_not_see("and the engine learns from it")
    [hint] = [t.text for t in user.find(ui.tooltip).elements if "graded answer" in t.text]
    assert hint == (
        "Also keep it as a graded answer: answers close to it lean towards this verdict, more so as "
        "graded answers agree; the sample solution still counts."
    )
    with user:
        user.find(marker="gold-learn").elements.pop().value = True
    user.find("Keep as test answer").click()
    await user.should_see("and as a graded answer", retries=SLOW)

    await user.open("/tasks/default/mc-photosynthesis-en")
    with user:
        user.find(ui.radio).elements.pop().value = 0
    user.find("Get feedback").click()
    await user.should_see("This should be", retries=SLOW)
    await user.should_not_see("and the judge learns from it")


async def test_feedback_without_a_chosen_option_asks_for_one_and_sends_nothing(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("Get feedback").click()
    await user.should_see("The answer is incomplete: choose an option first")
    service = LocalService(harness.runtime, local_principal("default"))
    assert await service.list_interactions("default", "mc-photosynthesis-en") == []


async def test_an_empty_option_is_named_by_its_position_counted_from_one(user: User) -> None:
    await user.open("/new/MULTIPLE_CHOICE")
    options = sorted(
        (e for e in user.find(kind=ui.input).elements if e.props.get("label") == "Option"), key=lambda e: e.id
    )
    with user:
        options[1].value = ""
    user.find("Save task").click()
    await user.should_see("options › 2 › content", retries=SLOW)


async def test_a_triple_click_on_get_feedback_records_one_interaction(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    with user:
        user.find(ui.radio).elements.pop().value = 1
    button = user.find("Get feedback")
    for _ in range(3):
        button.click()
    await user.should_see("CORRECT", retries=SLOW)
    service = LocalService(harness.runtime, local_principal("default"))
    assert len(await service.list_interactions("default", "mc-photosynthesis-en")) == 1


async def test_a_save_on_top_of_another_authors_save_asks_before_overwriting(user: User) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("Edit").click()
    theirs = (await service.get_task("default", "mc-photosynthesis-en")).definition
    await service.upsert_task("default", theirs.model_copy(update={"title": "Their title"}))
    user.find("Title").type(" (mine)")
    user.find("Save task").click()
    await user.should_see("changed since you opened it", retries=SLOW)
    user.find("Cancel").click()
    assert (await service.get_task("default", "mc-photosynthesis-en")).definition.title == "Their title"
    user.find("Save task").click()
    await user.should_see("Save your version over it?", retries=SLOW)
    user.find("Overwrite").click()
    await user.should_see("Task updated", retries=SLOW)
    assert (await service.get_task("default", "mc-photosynthesis-en")).definition.title.endswith("(mine)")


async def test_a_new_task_with_a_taken_id_replaces_nothing(user: User) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    await user.open("/new/MULTIPLE_CHOICE")
    await user.should_see("New task: Multiple choice")
    fill_capital_question(user, "mc-photosynthesis-en")
    user.find("Save task").click()
    await user.should_see("already exists", retries=SLOW)
    stored = (await service.get_task("default", "mc-photosynthesis-en")).definition
    assert stored.problemStatement.startswith("Which gas")


async def test_the_history_shows_answers_given_after_it_was_first_opened(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("History").click()
    await user.should_see("No answers yet", retries=SLOW)
    user.find("Try").click()
    with user:
        user.find(ui.radio).elements.pop().value = 1
    user.find("Get feedback").click()
    await user.should_see("1 / 1 points", retries=SLOW)
    user.find("History").click()
    await user.should_see("Answers (1)", retries=SLOW)
