"""The app's keys (q, ?, F1 help, F2 connection, F3 chat) do not act while a dialog asks something
(the delete question, export, import) or while the user types in a field: the dialog is answered
first, and a q or ? typed into a field is a letter of it."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from core.api import TaskType
from tests.tui.helpers import new_task_editor, wait_until

DIALOG_KEYS = ("q", "question_mark", "f1", "f2", "f3")


def screen_name(pilot) -> str:
    return type(pilot.app.screen).__name__


@pytest.mark.parametrize(
    ("opens", "dialog"), [("x", "ConfirmScreen"), ("o", "FilesScreen"), ("i", "FilesScreen")]
)
async def test_the_apps_keys_wait_while_a_dialog_is_open(pilot, opens: str, dialog: str) -> None:
    await pilot.press(opens)
    await wait_until(pilot, lambda: screen_name(pilot) == dialog and pilot.app.focused is not None)
    stack = list(pilot.app.screen_stack)
    for key in DIALOG_KEYS:
        pilot.app.set_focus(pilot.app.screen.query("Button").first())  # not a field: a key here is no letter
        await pilot.press(key)
        await pilot.pause()
        assert pilot.app.screen_stack == stack, f"{key} acted behind the {dialog}"
        assert not pilot.app.screen.query("HelpPanel"), f"{key} opened the help over the {dialog}"
        assert pilot.app.is_running
    await pilot.press("escape")
    await wait_until(pilot, lambda: screen_name(pilot) == "LibraryScreen")


async def test_q_and_question_mark_typed_into_a_field_are_letters(pilot) -> None:
    editor = await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)
    title = editor.query_one(".field-title Input", Input)
    title.focus()
    await pilot.press("q", "u", "question_mark")
    await wait_until(pilot, lambda: title.value == "qu?")
    assert screen_name(pilot) == "EditorScreen" and pilot.app.is_running
    assert not pilot.app.screen.query("HelpPanel")


async def test_the_filter_takes_q_and_question_mark_as_letters(pilot) -> None:
    await pilot.press("slash", "q", "question_mark")
    field = pilot.app.screen.query_one("#filter", Input)
    await wait_until(pilot, lambda: field.value == "q?")
    assert screen_name(pilot) == "LibraryScreen" and pilot.app.is_running
