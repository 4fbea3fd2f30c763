"""Journeys of the Retest tab: after the correct option of a task changes, an earlier answer shows
its verdict flip, a test answer fails what it must get, and the new feedback can be accepted."""

from __future__ import annotations

import pytest
from nicegui import ui
from nicegui.testing import User

from core.api import (
    ChoiceOption,
    Expectation,
    MultipleChoiceTask,
    TestAnswer,
    TestAnswersRequest,
)
from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW

TASK = "mc-federal-city"


def capital_task(correct: int) -> MultipleChoiceTask:
    options = [ChoiceOption(content=c, correct=i == correct) for i, c in enumerate(["Bern", "<b>Zurich</b>"])]
    return MultipleChoiceTask(id=TASK, title="Federal city", problemStatement="Where?", options=options)


@pytest.fixture
def service() -> LocalService:
    return LocalService(harness.runtime, local_principal("default"))


async def test_a_changed_correct_option_shows_the_verdict_change_and_it_can_be_accepted(
    user: User, service: LocalService
) -> None:
    await service.upsert_task("default", capital_task(correct=0))
    must = TestAnswer(label="zurich", answer={"selectedIndex": 1}, expected=Expectation(verdict="WRONG"))
    await service.put_test_answers("default", TASK, TestAnswersRequest(answers=[must]))
    await user.open(f"/tasks/default/{TASK}")
    with user:
        user.find(ui.radio).elements.pop().value = 0  # Bern
    user.find("Get feedback").click()
    await user.should_see("CORRECT")
    await service.upsert_task("default", capital_task(correct=1))

    await user.open(f"/tasks/default/{TASK}")
    user.find("Retest").click()
    await user.should_see("expected WRONG, got CORRECT", retries=SLOW)  # the test answer, in red
    rows = user.find(marker="retest-row").elements
    assert len(rows) == 2
    earlier = next(r for r in rows if "earlier answer" in _texts(r))
    assert _texts(earlier) >= {"Bern", "CORRECT", "WRONG", "−1", "1 → 0 of 1", "changed"}
    assert user.find(marker="retest-changed").elements.pop().text == "1 changed"

    user.find("Accept new feedback (1)").click()
    with user.scope(marker="dialog"):
        await user.should_see("Accept the new feedback of 1 answer?")
        user.find(kind=ui.button, content="Accept").click()
    await user.should_see("1 graded answer added", retries=SLOW)
    await user.should_see("Accepted")


async def test_a_gold_answer_the_engine_still_judges_wrong_fails_and_is_not_called_unchanged(
    user: User, service: LocalService
) -> None:
    """The issue: Zurich was judged WRONG, the author keeps it as "should be CORRECT", the engine
    still says WRONG. The Retest tab said "unchanged" for it (WRONG then, WRONG now); what the
    author expects counts: one row, the test answer's, failing."""
    await service.upsert_task("default", capital_task(correct=0))
    await user.open(f"/tasks/default/{TASK}")
    with user:
        user.find(ui.radio).elements.pop().value = 1  # Zurich: WRONG
    user.find("Get feedback").click()
    await user.should_see("WRONG", retries=SLOW)
    with user:
        [toggle] = [t for t in user.find(ui.toggle).elements if "PARTIAL" in t.options]
        toggle.value = "CORRECT"
    user.find("Keep as test answer").click()
    await user.should_see("expecting CORRECT; the engine says WRONG", retries=SLOW)

    user.find("Retest").click()
    await user.should_see("expected CORRECT, got WRONG", retries=SLOW)
    [row] = user.find(marker="retest-row").elements
    assert {"<b>Zurich</b>", "test answer “option 1”"} <= _texts(row)
    await user.should_not_see("unchanged")
    assert user.find(marker="retest-failed").elements.pop().text == "1 failed"


async def test_the_answer_text_is_shown_as_given(user: User, service: LocalService) -> None:
    await service.upsert_task("default", capital_task(correct=0))
    zurich = TestAnswer(label="zurich", answer={"selectedIndex": 1}, expected=Expectation(verdict="WRONG"))
    await service.put_test_answers("default", TASK, TestAnswersRequest(answers=[zurich]))
    await user.open(f"/tasks/default/{TASK}")
    user.find("Retest").click()
    await user.should_see("as expected", retries=SLOW)
    assert "<b>Zurich</b>" in _texts(user.find(marker="retest-row").elements.pop())  # a label: escaped
    await user.should_see("all expectations hold")


async def test_a_task_without_answers_says_what_to_do_next(user: User, service: LocalService) -> None:
    await service.upsert_task("default", capital_task(correct=0))
    await user.open(f"/tasks/default/{TASK}")
    user.find("Retest").click()
    await user.should_see("Nothing to retest yet", retries=SLOW)
    await user.should_see("feedback-studio tasks import")
    await user.should_not_see(marker="retest-row")


async def test_a_service_without_the_extensions_has_no_retest_tab(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = LocalService.info

    async def plain_api(self):
        return (await info(self)).model_copy(update={"extensions": False})

    monkeypatch.setattr(LocalService, "info", plain_api)
    # such a service cannot read its tasks back: the app opens those saved through it
    # (core.client.library remembers them, as the terminal app does)
    await user.open("/tasks/default/mc-photosynthesis-en")
    await user.should_see("Task mc-photosynthesis-en is not available")
    await user.open("/")
    await user.should_see("it cannot list its tasks")
    await user.open("/new/MULTIPLE_CHOICE")
    user.find("Save task").click()
    # its task page (the editor shows the statement too: waiting for it did not wait for the save)
    await user.should_see("History", retries=SLOW)
    await user.should_see("Which planet is closest to the sun?")
    await user.should_not_see("Retest")
    await user.open("/")
    await user.should_see("multiple-choice-1")


def _texts(element: ui.element) -> set[str]:
    """The texts of the labels and chips inside an element."""
    return {
        e.text for e in element.descendants() if isinstance(e, ui.label | ui.chip) and isinstance(e.text, str)
    }


async def test_a_double_click_on_accept_adds_the_graded_answers_once(
    user: User, service: LocalService
) -> None:
    await service.upsert_task("default", capital_task(correct=0))
    await user.open(f"/tasks/default/{TASK}")
    with user:
        user.find(ui.radio).elements.pop().value = 0  # Bern
    user.find("Get feedback").click()
    await user.should_see("CORRECT")
    await service.upsert_task("default", capital_task(correct=1))
    await user.open(f"/tasks/default/{TASK}")
    user.find("Retest").click()
    user_accept = "Accept new feedback (1)"
    await user.should_see(user_accept, retries=SLOW)
    user.find(user_accept).click()
    with user.scope(marker="dialog"):
        accept = user.find(marker="confirm-accept")
        accept.click()
        accept.click()
    await user.should_see("1 graded answer added", retries=SLOW)
    await user.should_see("Accepted")
    assert await graded_count(TASK) == 1


async def graded_count(task_id: str) -> int:
    from sqlalchemy import text

    query = text("SELECT count(*) FROM graded_answers WHERE tenant_id = 'default' AND task_id = :task")
    count: int = await harness.runtime.db.run_read(lambda c: c.execute(query, {"task": task_id}).scalar_one())
    return count
