"""The Retest tab (issue 9): after an edit of a task, an earlier answer shows its changed verdict,
and the author can accept the new feedback as a graded answer."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from textual.widgets import Checkbox, DataTable, RadioButton

from core.api import TaskType
from tests.tui.helpers import new_task_editor, notifications, open_task, text_of, wait_until
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.editor import EditorScreen
from tui.screens.task import TaskScreen
from tui.widgets.feedback.view import FeedbackView
from tui.widgets.retest import RetestPanel


async def open_retest(pilot, screen: TaskScreen) -> RetestPanel:
    """Click the Retest tab and wait until the report is shown."""
    panel = screen.query_one(RetestPanel)
    await pilot.click("#--content-tab-retest-tab")
    await wait_until(pilot, lambda: panel.report is not None and not panel.loading)
    return panel


def cells(panel: RetestPanel) -> list[list[str]]:
    table = panel.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.journey
async def test_retest_shows_the_changed_verdict_of_an_earlier_answer_and_accepts_it(pilot):
    app = pilot.app
    await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)  # Mercury (correct) or Venus
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen) and app.screen.definition)
    screen = app.screen
    await pilot.pause()
    await pilot.click(next(b for b in screen.query(RadioButton) if str(b.label) == "Mercury"))
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: screen.query(FeedbackView))

    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    mercury, venus = app.screen.query(Checkbox)
    mercury.value, venus.value = False, True  # Venus is correct now
    await pilot.pause()
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: app.screen is screen and screen.definition.options[1].correct)
    await wait_until(pilot, lambda: screen.query(RetestPanel))

    panel = await open_retest(pilot, screen)
    assert (
        text_of(panel.query_one("#retest-summary")) == "1 answer · 1 changed · 0 failed · against version 2"
    )
    [row] = cells(panel)
    assert row[0] == "earlier" and "Mercury" in row[1]
    assert row[2] == "✔ CORRECT → ✘ WRONG"
    assert row[3] == "0/1 (-1)" and row[4] == "changed"

    await pilot.click("#retest-accept")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "1 changed answer" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.click("#confirm")
    accept = panel.query_one("#retest-accept")
    assert accept.disabled  # pressed again while the first is on its way, it would add the answer twice
    await wait_until(pilot, lambda: ("New feedback accepted", "1 graded answer added") in notifications(app))
    await wait_until(pilot, lambda: str(accept.label) == "Accepted")
    assert accept.disabled  # the earlier answer still shows its change; accepting it again would add it again
    await pilot.click(accept)
    assert app.screen is screen
    assert await graded_count(app, screen.task_id) == 1


async def graded_count(app, task_id: str) -> int:
    query = text("SELECT count(*) FROM graded_answers WHERE task_id = :task")
    count: int = await app.service.runtime.db.run_read(
        lambda c: c.execute(query, {"task": task_id}).scalar_one()
    )
    return count


async def test_retest_without_answers_says_what_to_do_and_needs_the_extensions(pilot):
    screen = await open_task(pilot, "mr-renewable-energy-en")
    panel = await open_retest(pilot, screen)
    empty = panel.query_one("#retest-empty")
    assert empty.display and not panel.query_one(DataTable).display
    assert "Answer the task in the “Try” tab" in text_of(empty)
    assert "feedback-studio tasks import" in text_of(empty)

    pilot.app.info = pilot.app.info.model_copy(update={"extensions": False})  # a foreign remote
    assert [pane.id for pane in screen.compose_tabs(screen.definition)] == ["try"]
