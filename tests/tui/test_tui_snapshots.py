"""SVG snapshots of the main screens (pytest-textual-snapshot). Deterministic by construction: a
fixed terminal size, the seeded demo data, a database path relative to the test's directory, and
nothing on screen that shows a clock, a duration or a generated id."""

from __future__ import annotations

from textual.widgets import Input, RadioButton, TextArea

from core.api import (
    ComputeTaskFeedbackRequest,
    MultipleChoiceAnswer,
    TaskType,
    TestAnswer,
    TestAnswersRequest,
)
from tests.tui.helpers import SIZE, library_loaded, new_task_editor, open_task, settle, wait_until
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.chat import ChatScreen
from tui.screens.connection import ConnectionScreen
from tui.widgets.chat.view import ChatView
from tui.widgets.feedback.view import FeedbackView
from tui.widgets.retest import RetestPanel

MC = "mc-photosynthesis-en"


def compare(snap_compare, app, steps=None, size: tuple[int, int] = SIZE) -> bool:
    async def run_before(pilot) -> None:
        # The app starts at a default size and is then resized to the snapshot's: on a loaded
        # machine the library had laid out its columns for the one before.
        await wait_until(pilot, lambda: (pilot.app.size.width, pilot.app.size.height) == size)
        await wait_until(pilot, lambda: library_loaded(pilot.app))
        library = pilot.app.screen_stack[0]
        await wait_until(pilot, lambda: library._shown_columns == library.columns)
        if steps:
            await steps(pilot)
        for field in pilot.app.screen.query("Input, TextArea"):  # a blinking cursor is a clock on screen
            field.cursor_blink = False
            # TextArea caches its lines under a key that holds the cursor only while it blinks: a
            # line drawn in the blink's dark phase would be reused as if drawn with the blink off,
            # so whether the cursor showed depended on the moment. Drop the cache: drawn afresh.
            field.notify_style_update()
        await settle(pilot)
        # A screen under a dialog is drawn from what its widgets last rendered: redraw every one,
        # so that the snapshot shows their state now, not at the moment the dialog covered them.
        for screen in pilot.app.screen_stack:
            screen.refresh(repaint=True, layout=True)
        # A table fits its columns to the width after a refresh, and the footer lists the keys of
        # the focused widget once it is laid out: on a loaded machine the snapshot came first.
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return snap_compare(app, terminal_size=size, run_before=run_before)


async def answer_and_wait(pilot) -> None:
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: pilot.app.screen.query(FeedbackView))


def test_library(snap_compare, snapshot_app):
    assert compare(snap_compare, snapshot_app)


def test_editor_with_learner_preview(snap_compare, snapshot_app):
    async def steps(pilot):
        editor = await new_task_editor(pilot, TaskType.IN_TEXT_FILL_IN_BLANKS)
        editor.query_one(".field-title Input", Input).value = "Water"

    assert compare(snap_compare, snapshot_app, steps)


def test_editor_with_inline_errors(snap_compare, snapshot_app):
    async def steps(pilot):
        editor = await new_task_editor(pilot, TaskType.FREEFORM_TEXT)
        editor.query_one(".field-id Input", Input).value = "bad/id"
        editor.query(".item-row Input.field-name").last().value = ""
        await wait_until(  # the check runs once after the burst of changes: wait for its outcome
            pilot,
            lambda: (
                editor.query_one("#save").disabled
                and editor.query_one(".field-id .field-error").display
                and editor.query(".item-row .row-error").last().display
            ),
        )

    assert compare(snap_compare, snapshot_app, steps)


def test_multiple_choice_feedback(snap_compare, snapshot_app):
    async def steps(pilot):
        screen = await open_task(pilot, "mc-photosynthesis-en")
        await pilot.click(next(b for b in screen.query(RadioButton) if str(b.label) == "Oxygen"))
        await answer_and_wait(pilot)

    assert compare(snap_compare, snapshot_app, steps)


def test_freeform_feedback_with_highlighted_evidence(snap_compare, snapshot_app):
    async def steps(pilot):
        screen = await open_task(pilot, "ff-bulb-circuit-en")
        screen.query_one("#answer-text", TextArea).text = (
            "The bulb needs a closed circuit: one wire from the plus pole to the bulb and "
            "another back to the minus pole. The battery uses up the current."
        )
        await answer_and_wait(pilot)

    assert compare(snap_compare, snapshot_app, steps)


def test_fill_in_blanks_feedback(snap_compare, snapshot_app):
    async def steps(pilot):
        screen = await open_task(pilot, "blanks-water-cycle-en")
        for gap, text in zip(
            screen.query(".gap-value").results(Input), ["evaporate", "steam", "rain", "90"], strict=True
        ):
            gap.value = text
        await answer_and_wait(pilot)

    assert compare(snap_compare, snapshot_app, steps)


def test_tutor_chat_after_a_reply(snap_compare, snapshot_app):
    async def steps(pilot):
        await pilot.press("f3")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChatScreen))
        chat = pilot.app.screen.query_one(ChatView)
        await wait_until(pilot, lambda: chat.tutor_id is not None)
        await pilot.click(chat.query_one("#chat-input", Input))
        chat.query_one("#chat-input", Input).value = "Why does the bulb stay dark with one wire?"
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: chat.trace_id is not None and not chat.query_one("#chat-input").disabled
        )

    assert compare(snap_compare, snapshot_app, steps)


def test_simulation_session_started(snap_compare, snapshot_app):
    async def steps(pilot):
        screen = await open_task(pilot, "sim-customer-objections-en")
        await pilot.click("#sim-start")
        chat = screen.query_one(ChatView)
        await wait_until(pilot, lambda: chat.tutor_id is not None)

    assert compare(snap_compare, snapshot_app, steps)


def test_retest_after_changing_the_correct_option(snap_compare, snapshot_app):
    async def steps(pilot):
        service = pilot.app.service
        task = (await service.get_task("default", MC)).definition
        for index in (0, 0, 1):  # oxygen twice; carbon dioxide once, the test answer's line shows it
            request = ComputeTaskFeedbackRequest(
                userId="learner", taskType=task.task_type, answer=MultipleChoiceAnswer(selectedIndex=index)
            )
            await service.compute_feedback_for_task(MC, request)
        co2 = TestAnswer.model_validate(
            {"label": "co2", "answer": {"selectedIndex": 1}, "expected": {"verdict": "CORRECT"}}
        )
        await service.put_test_answers("default", MC, TestAnswersRequest(answers=[co2]))
        oxygen, carbon_dioxide, *rest = task.options
        options = [
            oxygen.model_copy(update={"correct": True}),
            carbon_dioxide.model_copy(update={"correct": False}),
        ]
        await service.upsert_task("default", task.model_copy(update={"options": [*options, *rest]}))
        screen = await open_task(pilot, MC)
        await pilot.click("#--content-tab-retest-tab")
        panel = screen.query_one(RetestPanel)
        await wait_until(pilot, lambda: panel.report is not None and not panel.loading)

    assert compare(snap_compare, snapshot_app, steps)


def test_connection_and_health(snap_compare, snapshot_app):
    async def steps(pilot):
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConnectionScreen))
        info = pilot.app.screen.query_one("#connection-info")
        await wait_until(pilot, lambda: not info.loading and info.content)

    assert compare(snap_compare, snapshot_app, steps)


def test_delete_confirmation(snap_compare, snapshot_app):
    async def steps(pilot):
        await pilot.press("x")
        # The dialog is pushed, composed and focuses "Cancel" over the next few messages: a snapshot
        # taken on a loaded machine before the focus lands would show no focused button.
        await wait_until(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, ConfirmScreen)
                and pilot.app.focused is not None
                and pilot.app.focused.id == "cancel"
            ),
        )

    assert compare(snap_compare, snapshot_app, steps)


# --- an 80×24 terminal: the narrow layouts (nothing cut off that cannot be scrolled to) ------------
NARROW = (80, 24)


def test_library_at_80x24(snap_compare, snapshot_app):
    assert compare(snap_compare, snapshot_app, size=NARROW)


def test_tutor_chat_at_80x24(snap_compare, snapshot_app):
    """The toolbar drops its labels so the tutor choice, debug switch and New conversation fit."""

    async def steps(pilot):
        await pilot.press("f3")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChatScreen))
        chat = pilot.app.screen.query_one(ChatView)
        await wait_until(pilot, lambda: chat.tutor_id is not None)

    assert compare(snap_compare, snapshot_app, steps, size=NARROW)


def test_simulation_at_80x24(snap_compare, snapshot_app):
    """Start and Finish stand one above the other rather than Finish cut off beside Start."""

    async def steps(pilot):
        await open_task(pilot, "sim-customer-objections-en")

    assert compare(snap_compare, snapshot_app, steps, size=NARROW)


def test_task_at_80x24(snap_compare, snapshot_app):
    async def steps(pilot):
        await open_task(pilot, MC)

    assert compare(snap_compare, snapshot_app, steps, size=NARROW)
