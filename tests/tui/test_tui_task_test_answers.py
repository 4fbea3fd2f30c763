"""The Test answers tab and the teacher's verdict (issue 24, item 2): test answers listed, edited
and deleted; a stored answer's verdict overridden, shown in the history, changed and removed."""

from __future__ import annotations

from textual.widgets import Checkbox, DataTable, Input, Select, TextArea

from core.api import (
    ComputeTaskFeedbackRequest,
    Correctness,
    Expectation,
    TaskType,
    TestAnswer,
    TestAnswersRequest,
)
from tests.tui.helpers import open_task, text_of, wait_until
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.task_test_answer import TaskTestAnswerScreen
from tui.screens.interaction import InteractionScreen
from tui.widgets.feedback.override import OverrideBar
from tui.widgets.task_test_answers import TaskTestAnswersPanel

TASK = "ff-bulb-circuit-en"
LOOP = TestAnswer(
    label="closed loop",
    answer={"content": "The bulb lights because the circuit is a closed loop."},
    expected=Expectation(verdict=Correctness.CORRECT),
)
GUESS = TestAnswer(
    label="guess", answer={"content": "Magic."}, expected=Expectation(verdict=Correctness.WRONG)
)


async def open_test_answers(pilot, screen) -> TaskTestAnswersPanel:
    panel = screen.query_one(TaskTestAnswersPanel)
    await pilot.click("#--content-tab-test-answers-tab")
    await wait_until(pilot, lambda: not panel.loading and panel.is_mounted)
    await pilot.pause()
    return panel


def rows(panel: TaskTestAnswersPanel) -> list[tuple[str, str]]:
    table = panel.query_one(DataTable)
    return [(str(table.get_row_at(i)[0]), str(table.get_row_at(i)[2])) for i in range(table.row_count)]


async def test_without_test_answers_the_tab_says_how_to_keep_one(pilot):
    panel = await open_test_answers(pilot, await open_task(pilot, TASK))
    await wait_until(pilot, lambda: panel.query_one("#test-answers-empty").display)
    assert "Keep an answer as a test answer from Try or History" in text_of(
        panel.query_one("#test-answers-empty")
    )
    assert not panel.query_one("#test-answers-table").display


async def test_a_test_answer_is_edited_then_deleted_after_asking(pilot, studio):
    await studio.put_test_answers("default", TASK, TestAnswersRequest(answers=[LOOP, GUESS]))
    app = pilot.app
    panel = await open_test_answers(pilot, await open_task(pilot, TASK))
    await wait_until(pilot, lambda: rows(panel) == [("closed loop", "✔ CORRECT"), ("guess", "✘ WRONG")])

    panel.query_one(DataTable).move_cursor(row=1)
    await pilot.click("#test-answer-edit")
    await wait_until(pilot, lambda: isinstance(app.screen, TaskTestAnswerScreen))
    dialog = app.screen
    assert dialog.query_one(TextArea).text == "Magic."
    dialog.query_one("#test-answer-label", Input).value = "open switch"
    dialog.query_one(TextArea).text = "Nothing happens: the switch is open."
    dialog.query_one("#test-answer-verdict", Select).value = Correctness.PARTIAL
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: ("open switch", "◐ PARTIAL") in rows(panel))
    stored = (await studio.list_test_answers("default", TASK)).answers
    assert [(t.label, t.answer, t.expected.verdict) for t in stored] == [
        ("closed loop", LOOP.answer, Correctness.CORRECT),
        ("open switch", {"content": "Nothing happens: the switch is open."}, Correctness.PARTIAL),
    ]

    panel.query_one(DataTable).move_cursor(row=0)
    await pilot.click("#test-answer-delete")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "closed loop" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.click("#cancel")  # asked first: cancelling keeps it
    await pilot.pause()
    assert len((await studio.list_test_answers("default", TASK)).answers) == 2
    await pilot.click("#test-answer-delete")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: rows(panel) == [("open switch", "◐ PARTIAL")])
    assert [t.label for t in (await studio.list_test_answers("default", TASK)).answers] == ["open switch"]


async def test_a_refused_edit_keeps_the_dialog_open_with_what_was_typed(pilot, studio):
    await studio.put_test_answers("default", TASK, TestAnswersRequest(answers=[LOOP, GUESS]))
    app = pilot.app
    panel = await open_test_answers(pilot, await open_task(pilot, TASK))
    await wait_until(pilot, lambda: len(rows(panel)) == 2)
    panel.query_one(DataTable).focus()
    await pilot.press("enter")  # the first row
    await wait_until(pilot, lambda: isinstance(app.screen, TaskTestAnswerScreen))
    app.screen.query_one("#test-answer-label", Input).value = "guess"  # another answer's label
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: any("own" in n.message for n in app._notifications))
    assert isinstance(app.screen, TaskTestAnswerScreen)
    assert app.screen.query_one("#test-answer-label", Input).value == "guess"


async def test_a_teachers_verdict_is_set_shown_in_the_history_changed_and_removed(pilot, studio):
    request = ComputeTaskFeedbackRequest(
        userId="anna", taskType=TaskType.FREEFORM_TEXT, answer={"content": "Magic."}
    )
    engine = (await studio.compute_feedback_for_task(TASK, request)).result.points.verdict
    teacher = Correctness.PARTIAL if engine is not Correctness.PARTIAL else Correctness.CORRECT
    app = pilot.app
    screen = await open_task(pilot, TASK)
    await pilot.click("#--content-tab-history-tab")
    table = screen.query_one("#history-table", DataTable)
    await wait_until(pilot, lambda: table.row_count == 1)
    assert str(table.get_row_at(0)[3]) == ""
    table.focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, InteractionScreen))
    bar = app.screen.query_one(OverrideBar)
    assert "no teacher's verdict" in text_of(bar.query_one("#override-status"))
    assert not bar.query_one("#override-remove").display

    bar.query_one("#override-verdict", Select).value = teacher
    bar.query_one("#override-note", Input).value = "half of it"
    bar.query_one("#override-keep", Checkbox).value = True
    await pilot.click("#override-set")
    await wait_until(pilot, lambda: bar.record.override is not None)
    status = text_of(bar.query_one("#override-status"))
    assert f"Engine: {engine.value}" in status.replace("✔ ", "").replace("◐ ", "").replace("✘ ", "")
    assert (
        "Teacher: " in status
        and teacher.value in status
        and "local user" in status
        and "half of it" in status
    )
    assert "Kept as test answer" in text_of(bar.query_one("#override-gold"))
    [kept] = (await studio.list_test_answers("default", TASK)).answers
    assert (kept.answer, kept.expected.verdict) == ({"content": "Magic."}, teacher)

    await pilot.press("escape")  # back to the history, read anew
    await wait_until(
        pilot, lambda: table.row_count == 1 and str(table.get_row_at(0)[3]).endswith(teacher.value)
    )
    screen.query_one("#history-verdict", Select).value = teacher.value  # the teacher's verdict counts
    await wait_until(pilot, lambda: table.display and table.row_count == 1)

    table.focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, InteractionScreen))
    bar = app.screen.query_one(OverrideBar)
    assert bar.query_one("#override-remove").display
    await pilot.click("#override-remove")
    await wait_until(pilot, lambda: bar.record.override is None)
    assert (await studio.get_interaction(bar.record.interactionId)).override is None
