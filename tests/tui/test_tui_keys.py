"""Keys as a fast typist uses them: what is typed while the focus moves reaches the field it was
meant for; every way out of an editor with unsaved changes asks; a connection switch never lets
an edit land on another service's task; the keys lazygit and k9s users reach for."""

from __future__ import annotations

from textual.widgets import DataTable, HelpPanel, Input, TabbedContent, TextArea

from core.api import TaskType
from core.config import Settings
from core.service import connect
from tests.tui.helpers import (
    burst,
    library_loaded,
    new_task_editor,
    notifications,
    open_task,
    settle,
    wait_until,
)
from tests.tui.test_tui_app import run_command
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.chat import ChatScreen
from tui.screens.connection import ConnectionScreen
from tui.screens.editor import EditorScreen
from tui.screens.library import LibraryScreen
from tui.screens.task import TaskScreen
from tui.widgets.chat.view import ChatView

MC = "mc-photosynthesis-en"


async def edit_title(pilot, task_id: str, title: str) -> EditorScreen:
    """Open ``task_id`` in the editor from the library (e) and type a new title."""
    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index(task_id))
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    editor = app.screen
    editor.query_one(".field-title Input", Input).value = title
    await pilot.pause()
    return editor


def record_exit(app) -> list[object]:
    exits: list[object] = []
    app.exit = lambda *args, **kwargs: exits.append(args)
    return exits


# --- 1. unsaved edits are never lost without a question ----------------------------------------


async def test_quitting_with_unsaved_edits_asks_first(pilot):
    app = pilot.app
    exits = record_exit(app)
    editor = await edit_title(pilot, MC, "Plants and gases")
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert not exits
    await pilot.press("escape")  # cancel: the edit is still there
    await wait_until(pilot, lambda: app.screen is editor)
    assert editor.query_one(".field-title Input", Input).value == "Plants and gases"
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: exits)


async def test_q_quits_at_once_where_nothing_is_unsaved(pilot):
    exits = record_exit(pilot.app)
    await pilot.press("q")
    await wait_until(pilot, lambda: exits)
    assert not isinstance(pilot.app.screen, ConfirmScreen)


async def test_the_palettes_task_library_asks_before_closing_a_changed_editor(pilot):
    app = pilot.app
    editor = await edit_title(pilot, MC, "Plants and gases")
    await run_command(pilot, "task library", "Task library")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.screen is editor)
    await run_command(pilot, "task library", "Task library")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: isinstance(app.screen, LibraryScreen))


# --- 2. a connection switch never saves an edit over another service's task ----------------------


async def test_switching_the_service_mid_edit_asks_and_never_saves_over_the_remotes_task(
    pilot, studio, live_server
):
    app = pilot.app
    token = await live_server.token("default")
    remote = await connect(Settings(remote_url=live_server.base_url, token=token))
    try:
        task = (await studio.get_task("default", MC)).definition
        await remote.upsert_task("default", task)  # the same task, at version 1 on both
        await edit_title(pilot, MC, "Plants and gases")
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        app.screen.query_one("#remote-url", Input).value = live_server.base_url
        app.screen.query_one("#remote-token", Input).value = token
        await pilot.click("#connect")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "unsaved changes to mc-photosynthesis-en" in str(app.screen.question)
        await pilot.press("escape")  # cancel: still the embedded service, the editor kept
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        assert app.info.mode == "local"
        assert any(isinstance(s, EditorScreen) for s in app.screen_stack)

        await pilot.click("#connect")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
        await wait_until(
            pilot, lambda: app.info.mode == "remote" and isinstance(app.screen, ConnectionScreen)
        )
        await wait_until(pilot, lambda: len(app.screen_stack) == 2)  # the editor closed with the old service
        assert not any(isinstance(s, EditorScreen) for s in app.screen_stack)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LibraryScreen))
        stored = await remote.get_task("default", MC)
        assert stored.definition.title == task.title and stored.version == 1
        await settle(pilot)
    finally:
        await remote.aclose()


# --- 3. keys typed while the focus moves --------------------------------------------------------


async def test_keys_typed_right_after_slash_go_to_the_filter_not_to_commands(pilot):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    rows = table.row_count
    await burst(pilot, "/", "u")
    await wait_until(pilot, lambda: app.screen.query_one("#filter", Input).value == "u")
    await settle(pilot)
    assert not notifications(app)  # nothing duplicated
    await pilot.press("escape")
    await wait_until(pilot, lambda: table.row_count == rows)

    await pilot.press("r")  # during a reload too
    await burst(pilot, "/", *"ff-strom")
    await wait_until(pilot, lambda: app.screen.query_one("#filter", Input).value == "ff-strom")
    await settle(pilot)
    assert not notifications(app)  # not sorted, reloaded or exported


async def test_an_answer_typed_while_the_task_opens_lands_in_the_answer(pilot):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index("ff-bulb-circuit-en"))
    answer = "A closed circuit: wire from plus to bulb and back to minus."
    await burst(pilot, "enter", *answer)
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen) and app.screen.query(TextArea))
    area = app.screen.query_one("#answer-text", TextArea)
    await wait_until(pilot, lambda: area.text == answer)
    assert isinstance(app.screen_stack[0], LibraryScreen) and not notifications(app)
    await settle(pilot)


async def test_keys_typed_while_the_editor_opens_reach_its_field_not_the_library(pilot, studio):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index(MC))
    await burst(pilot, "e", "x", "u")  # x and u would delete and duplicate in the library
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    field = app.screen.query_one(".field-id Input", Input)
    await wait_until(pilot, lambda: field.value.endswith("xu"))
    await settle(pilot)
    assert not notifications(app)
    assert len(await studio.list_tasks("default")) == table.row_count


async def test_a_message_typed_while_the_chat_opens_is_kept(pilot):
    app = pilot.app
    await burst(pilot, "f3", *"hello")
    await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))
    chat = app.screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.query_one("#chat-input", Input).value == "hello")
    await settle(pilot)


# --- 4. keys lazygit and k9s users expect -------------------------------------------------------


async def test_question_mark_shows_the_keys_and_g_G_go_to_the_first_and_last_row(pilot):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    await pilot.press("G")
    assert table.cursor_row == table.row_count - 1
    await pilot.press("g")
    assert table.cursor_row == 0
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: bool(app.screen.query(HelpPanel)))


async def test_the_task_tabs_have_keys_that_work_from_the_answer(pilot):
    app = pilot.app
    screen = await open_task(pilot, MC)
    tabs = screen.query_one(TabbedContent)
    assert "F7" in str(tabs.get_tab("retest-tab").label)
    await pilot.press("f7")
    await wait_until(pilot, lambda: tabs.active == "retest-tab")
    await pilot.press("f6")
    await wait_until(pilot, lambda: tabs.active == "history-tab")
    await pilot.press("f5")
    await wait_until(pilot, lambda: tabs.active == "try")
    await wait_until(
        pilot, lambda: app.focused is not None and screen.query_one("#try").query(type(app.focused))
    )
    await settle(pilot)


async def test_q_in_an_unsaved_new_task_asks_before_quitting(pilot):
    app = pilot.app
    exits = record_exit(app)
    editor = await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)
    editor.query_one(".field-title Input", Input).value = "Planets"
    await pilot.pause()
    editor.set_focus(editor.query_one("#save"))
    await pilot.press("q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert not exits
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: exits)
    assert library_loaded(app)


async def test_keys_typed_after_a_tab_key_do_not_land_in_the_answer_left_behind(pilot):
    app = pilot.app
    screen = await open_task(pilot, "ff-bulb-circuit-en")
    area = screen.query_one("#answer-text", TextArea)
    assert app.focused is area
    await burst(pilot, "f7", *"jkx")
    tabs = screen.query_one(TabbedContent)
    await wait_until(pilot, lambda: tabs.active == "retest-tab" and app.focused is not area)
    await settle(pilot)
    assert area.text == ""
