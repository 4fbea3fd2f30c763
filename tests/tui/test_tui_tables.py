"""Tables fit the terminal: at 80 and 120 columns, in English and German, the id of every task and
the verdict columns of the retest and the test answers are on screen, whole; the long free text
(a title, an answer) is what gets cut."""

from __future__ import annotations

import pytest

from core.api import ComputeTaskFeedbackRequest, MultipleChoiceAnswer, TestAnswer, TestAnswersRequest
from tests.tui.helpers import library_loaded, open_task, screen_text, settle, wait_until
from tui.app import FeedbackStudioApp
from tui.widgets.retest import RetestPanel
from tui.widgets.task_test_answers import TaskTestAnswersPanel

MC = "mc-photosynthesis-en"
SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
async def test_every_task_id_is_whole_on_screen(studio, monkeypatch, size, language):
    import tui.i18n

    monkeypatch.setattr(tui.i18n, "LANGUAGE", language)
    app = FeedbackStudioApp(service=studio)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        await pilot.pause()
        shown = screen_text(app)
        ids = [t.taskId for t in await studio.list_tasks("default")]
        visible = size[1] - 6  # header, filter, column labels, footer
        assert {"Id", "Kennung"} & set(shown.split()), shown
        for task_id in sorted(ids, key=lambda i: i)[:visible]:
            if any(line.rstrip().endswith(task_id) for line in shown.splitlines()):
                continue
            # sorted by title, so not every id is above the fold at 24 rows
            row = app.screen.query_one("#tasks").get_row_index(task_id)
            assert row >= visible, f"{task_id} is not whole on screen:\n{shown}"
        await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
async def test_the_retest_and_test_answers_show_their_verdicts(studio, size):
    task = (await studio.get_task("default", MC)).definition
    request = ComputeTaskFeedbackRequest(
        userId="learner", taskType=task.task_type, answer=MultipleChoiceAnswer(selectedIndex=0)
    )
    await studio.compute_feedback_for_task(MC, request)
    long = TestAnswer.model_validate(
        {"label": "co2-with-a-long-label", "answer": {"selectedIndex": 1}, "expected": {"verdict": "CORRECT"}}
    )
    await studio.put_test_answers("default", MC, TestAnswersRequest(answers=[long]))
    app = FeedbackStudioApp(service=studio)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        screen = await open_task(pilot, MC)
        await pilot.press("f7")
        panel = screen.query_one(RetestPanel)
        await wait_until(pilot, lambda: panel.report is not None and not panel.loading)
        await pilot.pause()
        shown = screen_text(app)
        assert "Verdict" in shown and "✔ CORRECT" in shown and "✘ WRONG → ✘ WRONG" in shown, shown
        table = panel.query_one("#retest-table")
        assert "Aspects" in shown or table.max_scroll_x > 0  # the rest is a scroll away

        await pilot.press("f8")
        answers = screen.query_one(TaskTestAnswersPanel)
        await wait_until(pilot, lambda: answers.answers and not answers.loading)
        await pilot.pause()
        shown = screen_text(app)
        assert "Must get" in shown and "co2-with-a-long-label" in shown and "✔ CORRECT" in shown, shown
        await settle(pilot)
