"""Journeys of the Test answers tab and the teacher's verdict (issue 24, item 2): test answers
listed, edited and deleted after asking; a stored answer's verdict overridden in the history,
shown there, filtered by, changed and removed."""

from __future__ import annotations

import pytest
from nicegui import ui
from nicegui.testing import User

from core.api import (
    ComputeTaskFeedbackRequest,
    Correctness,
    Expectation,
    TaskType,
    TestAnswer,
    TestAnswersRequest,
)
from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW, click_item, count, eventually

TASK = "mc-photosynthesis-en"
OXYGEN = TestAnswer(
    label="oxygen", answer={"selectedIndex": 0}, expected=Expectation(verdict=Correctness.WRONG)
)
CO2 = TestAnswer(
    label="carbon dioxide", answer={"selectedIndex": 1}, expected=Expectation(verdict=Correctness.CORRECT)
)


@pytest.fixture
def service() -> LocalService:
    return LocalService(harness.runtime, local_principal("default"))


def element(user: User, marker: str):
    [found] = user.find(marker=marker).elements
    return found


async def test_without_test_answers_the_tab_says_how_to_keep_one(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}")
    user.find("Test answers").click()
    await user.should_see("Keep an answer as a test answer from Try or History", retries=SLOW)


async def test_an_answer_kept_from_try_shows_when_the_tab_is_opened_again(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}")
    user.find("Test answers").click()
    await user.should_see("No test answers yet", retries=SLOW)

    user.find("Try").click()
    with user:
        user.find(ui.radio).elements.pop().value = 0  # "Oxygen": WRONG
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    user.find(kind=ui.button, content="Keep as test answer").click()  # not the empty state's hint
    await user.should_see("the engine agrees (WRONG)", retries=SLOW)

    user.find("Test answers").click()
    await user.should_see(marker="test-answer-0", retries=SLOW)  # re-read, no reload needed
    await user.should_not_see("No test answers yet")


async def test_a_test_answer_is_edited_then_deleted_after_asking(user: User, service: LocalService) -> None:
    await service.put_test_answers("default", TASK, TestAnswersRequest(answers=[OXYGEN, CO2]))
    await user.open(f"/tasks/default/{TASK}")
    user.find("Test answers").click()
    await user.should_see(marker="test-answer-1", retries=SLOW)

    with user.scope(marker="test-answer-0"):
        user.find(marker="test-answer-edit").click()
    with user.scope(marker="dialog"):
        assert element(user, "test-answer-text").value == '{"selectedIndex":0}'
        with user:
            element(user, "test-answer-label").value = "oxygen, half right"
            element(user, "test-answer-text").value = '{"selectedIndex": 2}'
            element(user, "test-answer-verdict").value = "PARTIAL"
        user.find(marker="test-answer-save").click()
    await user.should_see("Test answer “oxygen, half right” saved.", retries=SLOW)
    stored = (await service.list_test_answers("default", TASK)).answers
    assert [(t.label, t.answer, t.expected.verdict) for t in stored] == [
        ("oxygen, half right", {"selectedIndex": 2}, Correctness.PARTIAL),
        ("carbon dioxide", {"selectedIndex": 1}, Correctness.CORRECT),
    ]

    with user.scope(marker="test-answer-1"):
        user.find(marker="test-answer-delete").click()
    with user.scope(marker="dialog"):
        await user.should_see("Delete the test answer “carbon dioxide”?")
        user.find(marker="test-answer-delete-confirm").click()
    await user.should_see("Test answer “carbon dioxide” deleted.", retries=SLOW)
    await eventually(lambda: count(user, "test-answer-1") == 0, "one row left")
    assert [t.label for t in (await service.list_test_answers("default", TASK)).answers] == [
        "oxygen, half right"
    ]


async def test_a_refused_edit_keeps_the_dialog_open(user: User, service: LocalService) -> None:
    await service.put_test_answers("default", TASK, TestAnswersRequest(answers=[OXYGEN, CO2]))
    await user.open(f"/tasks/default/{TASK}")
    user.find("Test answers").click()
    await user.should_see(marker="test-answer-1", retries=SLOW)
    with user.scope(marker="test-answer-0"):
        user.find(marker="test-answer-edit").click()
    with user.scope(marker="dialog"):
        with user:
            element(user, "test-answer-text").value = "Oxygen"  # not the JSON of a choice
        user.find(marker="test-answer-save").click()
    await user.should_see("the answer is not JSON", retries=SLOW)
    assert count(user, "test-answer-save") == 1  # still open
    assert (await service.list_test_answers("default", TASK)).answers == [OXYGEN, CO2]


async def test_a_teachers_verdict_is_set_shown_filtered_by_and_removed(
    user: User, service: LocalService
) -> None:
    request = ComputeTaskFeedbackRequest(
        userId="anna", taskType=TaskType.MULTIPLE_CHOICE, answer={"selectedIndex": 0}
    )
    await service.compute_feedback_for_task(TASK, request)  # "Oxygen": WRONG
    await user.open(f"/tasks/default/{TASK}")
    user.find("History").click()
    await user.should_see("Answers (1)", retries=SLOW)
    assert count(user, "teacher-verdict") == 0
    click_item(user, "Oxygen")
    with user.scope(marker="dialog"):
        await user.should_see("No teacher's verdict")
        assert count(user, "override-remove") == 0  # nothing to remove yet
        with user:
            element(user, "override-verdict").value = "PARTIAL"
            element(user, "override-note").value = "names a gas of photosynthesis"
            element(user, "override-keep").value = True
        user.find(marker="override-set").click()
        await user.should_see("by local user on", retries=SLOW)
        await user.should_see("“names a gas of photosynthesis”")
    await user.should_see("expecting PARTIAL; the engine says WRONG", retries=SLOW)  # kept as a test answer
    [record] = await service.list_interactions("default", TASK)
    assert record.override is not None and record.override.verdict is Correctness.PARTIAL
    [kept] = (await service.list_test_answers("default", TASK)).answers
    assert (kept.answer, kept.expected.verdict) == ({"selectedIndex": 0}, Correctness.PARTIAL)
    user.find(kind=ui.button, content="Close").click()
    await eventually(lambda: count(user, "teacher-verdict") == 1, "the row showing the teacher's verdict")

    with user:
        [verdicts] = [e for e in user.find(kind=ui.select).elements if e.props.get("label") == "Verdicts"]
        verdicts.value = ["PARTIAL"]  # the teacher's verdict counts
    await user.should_see("Answers (1)")
    await user.should_not_see("No answer matches")  # by the engine's WRONG it would be hidden

    click_item(user, "Oxygen")
    with user.scope(marker="dialog"):
        await user.should_see("“names a gas of photosynthesis”")
        user.find(marker="override-remove").click()
        await user.should_see("No teacher's verdict", retries=SLOW)
    user.find(kind=ui.button, content="Close").click()
    assert (await service.get_interaction(record.interactionId)).override is None
    await user.should_see("No answer matches", retries=SLOW)  # WRONG again: the PARTIAL filter hides it
