"""Journeys through the task library and the editor on the embedded service."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Checkbox, DataTable, Input

from core.api import TaskType
from tests.tui.helpers import (
    footer_keys,
    new_task_editor,
    notifications,
    notified,
    open_task,
    settle,
    text_of,
    wait_until,
)
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.files import FilesScreen
from tui.screens.editor import EditorScreen
from tui.screens.library import LibraryScreen
from tui.widgets.empty import EmptyState


def rows(app) -> list[str]:
    table = app.screen.query_one(DataTable)
    return [key.value for key in table.rows] if table.display else []


def text_of_cell(cell) -> str:
    return cell.plain if hasattr(cell, "plain") else str(cell)


async def test_library_lists_the_demo_tasks_and_the_filter_narrows_them(pilot):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    assert table.row_count >= 8
    row = table.get_row("mc-photosynthesis-en")
    assert row[0] == "Multiple choice" and row[1] == "EN_US"
    assert text_of_cell(row[2]) == "Photosynthesis: the gas plants take in"

    everything = rows(app)
    await wait_until(pilot, lambda: "New" in footer_keys(app))
    library_keys = footer_keys(app)
    assert {"Edit", "Delete", "Filter"} <= set(library_keys)
    await pilot.press("slash", *"water")
    assert rows(app) == ["blanks-water-cycle-en"]
    # typing in the filter, the footer no longer offers the keys that now type letters
    await wait_until(pilot, lambda: "New" not in footer_keys(app))
    assert "Filter" in footer_keys(app)
    await pilot.press("escape")
    assert rows(app) == everything
    await wait_until(pilot, lambda: footer_keys(app) == library_keys)
    await pilot.press("slash", *"zzzz")
    assert text_of(app.screen.query_one(EmptyState)).startswith("No task matches")


async def test_the_library_sorts_by_type_or_language_and_filters_by_them(pilot):
    app = pilot.app
    table = app.screen.query_one(DataTable)

    def column(index: int) -> list[str]:
        return [text_of_cell(table.get_row_at(i)[index]) for i in range(table.row_count)]

    titles = column(2)
    assert titles == sorted(titles, key=str.casefold)  # by title at first
    await pilot.press("s")
    assert column(0) == sorted(column(0), key=str.casefold) and column(0) != column(0)[::-1]
    assert ("", "Sorted by type") in notifications(app)
    await pilot.press("s")
    assert column(1) == sorted(column(1))
    await pilot.click(app.screen.query_one(DataTable), offset=(2, 0))  # the Type column's header
    assert app.screen.order == "type"

    await pilot.press("slash", *"de_ch")
    assert set(column(1)) == {"DE_CH"} and table.row_count >= 2
    await pilot.press("escape", "slash", *"simulation")
    assert set(column(0)) == {"Simulation"}


async def test_delete_asks_first_and_cancel_keeps_the_task(pilot, studio):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index("blanks-water-cycle-en"))
    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "The water cycle" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.press("escape")
    assert "blanks-water-cycle-en" in rows(app)

    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: "blanks-water-cycle-en" not in rows(app))
    assert "blanks-water-cycle-en" not in {t.taskId for t in await studio.list_tasks("default")}


async def test_duplicate_saves_a_copy_under_a_free_id(pilot, studio):
    app = pilot.app
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index("mc-photosynthesis-en"))
    library = app.screen
    library.action_duplicate()  # u, and u again while the first copy is being saved
    library.action_duplicate()
    await wait_until(pilot, lambda: "mc-photosynthesis-en-copy" in rows(app))
    copy = (await studio.get_task("default", "mc-photosynthesis-en-copy")).definition
    assert copy.title == "Photosynthesis: the gas plants take in (copy)"
    await settle(pilot)
    assert not [n for n in app._notifications if n.severity == "error"]  # no clash of two copies
    copies = [t.taskId for t in await studio.list_tasks("default") if "-copy" in t.taskId]
    assert copies == ["mc-photosynthesis-en-copy"]

    table.move_cursor(row=table.get_row_index("mc-photosynthesis-en"))
    await pilot.press("u")  # the id the web app offers too (core.client.library.copy_id)
    await wait_until(pilot, lambda: "mc-photosynthesis-en-copy-2" in rows(app))


async def test_editor_marks_problems_at_their_fields_and_blocks_saving(pilot):
    editor = await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)
    save = editor.query_one("#save", Button)
    assert not save.disabled

    editor.query_one(".field-id Input", Input).value = "has/slash"
    await pilot.pause()
    id_error = editor.query_one(".field-id .field-error")
    assert id_error.display and text_of(id_error) == "no “/”, and no space at the start"
    assert editor.query_one(".field-id Input").has_class("-invalid")
    assert save.disabled

    editor.query_one(".field-id Input", Input).value = "planets"
    editor.query(Checkbox).first().value = False  # no option is correct any more
    await pilot.pause()
    problems = editor.query_one("#task-problems")
    assert "exactly one option must be correct, found 0" in text_of(problems)
    assert save.disabled
    await pilot.press("ctrl+s")
    assert isinstance(pilot.app.screen, EditorScreen)


async def test_editor_preview_shows_the_gaps_as_the_learner_sees_them(pilot):
    editor = await new_task_editor(pilot, TaskType.IN_TEXT_CHOICES)
    assert text_of(editor.query_one("#preview")) == "She  1: go / goes / going  to school every day."
    editor.query_one("#list-choices Input.field-options", Input).value = "go | goes"
    await pilot.pause()
    assert " 1: go / goes " in text_of(editor.query_one("#preview"))


async def test_editor_adds_and_removes_items(pilot):
    editor = await new_task_editor(pilot, TaskType.IN_TEXT_FILL_IN_BLANKS)
    await pilot.click("#list-blanks .add-item")
    await pilot.pause()
    assert len(editor.query(".item-row")) == 3
    new_row = editor.query(".item-row").last()
    assert text_of(new_row.query_one(".row-error")) == "Accepted answers: List should have at least 1 item"
    assert new_row.query_one("Input.field-acceptedAnswers").has_class("-invalid")
    new_row.query_one("Input.field-acceptedAnswers", Input).value = "5"
    await pilot.pause()
    assert "found [1, 2]" in text_of(editor.query_one("#task-problems"))  # three blanks, two gaps
    await pilot.click(editor.query("#list-blanks .remove-item").last())
    await pilot.pause()
    assert len(editor.query(".item-row")) == 2
    assert not editor.query_one("#task-problems").display


async def test_leaving_a_changed_editor_asks_before_discarding(pilot):
    app = pilot.app
    editor = await new_task_editor(pilot, TaskType.MULTIPLE_RESPONSES)
    editor.query_one(".field-title Input", Input).value = "Mammals"
    await pilot.press("escape")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: isinstance(app.screen, LibraryScreen))


async def test_a_service_error_is_shown_with_the_api_message(pilot, studio):
    app = pilot.app
    await studio.delete_task("default", "mc-photosynthesis-en")  # gone behind the app's back
    table = app.screen.query_one(DataTable)
    table.move_cursor(row=table.get_row_index("mc-photosynthesis-en"))
    await pilot.press("u")
    await wait_until(pilot, lambda: notifications(app))
    title, message = notifications(app)[-1]
    assert title == "Duplicating failed · INVALID_PARAMETER"
    assert message == "task 'mc-photosynthesis-en' does not exist in tenant 'default'"


async def test_export_then_import_task_files(pilot, studio, tmp_path):
    app = pilot.app
    await pilot.press("o")
    await wait_until(pilot, lambda: isinstance(app.screen, FilesScreen))
    app.screen.query_one("#files-path", Input).value = str(tmp_path / "out")
    await pilot.click("#go")
    await wait_until(pilot, lambda: any(title == "Exported" for title, _ in notifications(app)))
    exported = tmp_path / "out" / "mc-photosynthesis-en.json"
    assert exported.exists()

    exported.write_text(
        exported.read_text().replace("Photosynthesis: the gas plants take in", "Plants and gases")
    )
    await pilot.press("i")
    await wait_until(pilot, lambda: isinstance(app.screen, FilesScreen))
    app.screen.query_one("#files-path", Input).value = str(exported)
    await pilot.press("enter")
    # The file's task exists with another title: the import says so and asks before it replaces it.
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    question = text_of(app.screen.query_one(".dialog-question"))
    assert "• mc-photosynthesis-en (version 1): title" in question
    stored = await studio.get_task("default", "mc-photosynthesis-en")
    assert stored.definition.title == "Photosynthesis: the gas plants take in"  # nothing sent yet
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: any(title.startswith("Imported") for title, _ in notifications(app)))
    assert notifications(app)[-1][1] == "1 updated"
    assert (await studio.get_task("default", "mc-photosynthesis-en")).definition.title == "Plants and gases"
    await wait_until(
        pilot,
        lambda: "Plants and gases" in str(app.screen.query_one(DataTable).get_row("mc-photosynthesis-en")[2]),
    )


async def test_editing_a_task_from_its_screen_saves_and_shows_the_change(pilot, studio):
    app = pilot.app
    screen = await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    app.screen.query_one(".field-title Input", Input).value = "Bulbs and wires"
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: app.screen is screen and screen.definition.title == "Bulbs and wires")
    assert text_of(screen.query_one("#task-heading")).startswith("Bulbs and wires")
    stored = (await studio.get_task("default", "ff-bulb-circuit-en")).definition
    assert stored.title == "Bulbs and wires" and stored.aspects  # the rest of the task is kept


async def test_saving_a_sample_solution_that_misses_a_concept_warns_the_author(pilot, studio):
    app = pilot.app
    await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    solution = app.screen.query_one("#list-sampleSolutions Input", Input)
    solution.value = "Connect the battery to the bulb."
    await pilot.press("ctrl+s")
    await wait_until(
        pilot, lambda: any(title == "Check the sample solution" for title, _ in notifications(app))
    )
    [warning] = [message for title, message in notifications(app) if title == "Check the sample solution"]
    assert warning.startswith("Sample solution 1 scores ")
    assert "does not show" in warning
    stored = (await studio.get_task("default", "ff-bulb-circuit-en")).definition
    assert stored.sampleSolutions[0].content == "Connect the battery to the bulb."  # saved all the same


async def test_j_and_k_move_through_the_library_as_the_arrows_do(pilot):
    table = pilot.app.screen.query_one("#tasks", DataTable)
    table.focus()
    await pilot.pause()
    start = table.cursor_row
    await pilot.press("j", "j")
    assert table.cursor_row == start + 2
    await pilot.press("k")
    assert table.cursor_row == start + 1
    await pilot.press("slash", "j", "k")  # in the filter they are letters
    assert pilot.app.screen.focused.value == "jk"


async def test_opening_a_task_puts_the_cursor_in_its_answer(pilot):
    await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.pause()
    assert pilot.app.focused is not None and pilot.app.focused.id == "answer-text"


@pytest.mark.journey
async def test_a_save_on_top_of_another_authors_save_asks_before_overwriting(pilot, studio):
    """Two editors of one task (here: this app and another client of the same database)."""
    app = pilot.app
    await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    editor = app.screen
    theirs = (await studio.get_task("default", "ff-bulb-circuit-en")).definition
    await studio.upsert_task("default", theirs.model_copy(update={"title": "Their title"}))

    editor.query_one(".field-title Input", Input).value = "My title"
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "changed since you opened it" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.click("#cancel")
    await wait_until(pilot, lambda: app.screen is editor)
    assert (await studio.get_task("default", "ff-bulb-circuit-en")).definition.title == "Their title"
    assert editor.query_one(".field-title Input", Input).value == "My title"  # the edit is kept

    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await wait_until(pilot, lambda: not isinstance(app.screen, EditorScreen | ConfirmScreen))
    assert (await studio.get_task("default", "ff-bulb-circuit-en")).definition.title == "My title"


async def test_renaming_a_task_in_the_editor_never_overwrites_another(pilot, studio):
    app = pilot.app
    await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    app.screen.query_one(".field-id Input", Input).value = "mc-photosynthesis-en"
    await wait_until(pilot, lambda: "exists already" in text_of(app.screen.query_one("#task-problems")))
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "already exists" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.click("#cancel")
    stored = (await studio.get_task("default", "mc-photosynthesis-en")).definition
    assert stored.type == "MultipleChoiceTask"  # the other task is untouched


async def test_a_new_task_under_a_taken_id_replaces_nothing(pilot, studio):
    app = pilot.app
    editor = await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)
    editor.query_one(".field-id Input", Input).value = "ff-bulb-circuit-en"
    await wait_until(pilot, lambda: "exists already" in text_of(editor.query_one("#task-problems")))
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert "already exists" in text_of(app.screen.query_one(".dialog-question"))
    await pilot.click("#cancel")
    await wait_until(pilot, lambda: app.screen is editor)  # the new task is still being written
    stored = await studio.get_task("default", "ff-bulb-circuit-en")
    assert (stored.definition.type, stored.version) == ("FreeformTextTask", 1)


async def test_export_into_a_folder_with_those_files_asks_and_a_file_is_no_folder(pilot, tmp_path):
    app = pilot.app
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "mc-photosynthesis-en.json"
    mine.write_text("my own edits")

    async def export(path) -> None:
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, FilesScreen))
        app.screen.query_one("#files-path", Input).value = str(path)
        await pilot.click("#go")

    await export(out)
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    question = text_of(app.screen.query_one(".dialog-question"))
    assert "writes over: mc-photosynthesis-en.json" in question
    await pilot.click("#cancel")
    await wait_until(pilot, lambda: isinstance(app.screen, LibraryScreen))
    assert mine.read_text() == "my own edits"  # nothing written without the author's yes

    await export(mine)  # a file where a folder should be
    _, message = await notified(pilot, "Not exported")
    assert message == f"{mine} is a file, not a folder: choose a folder (it is created if missing)."
    assert not any("unexpectedly" in title for title, _ in notifications(app))

    await export(out)
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.click("#confirm")
    await notified(pilot, "Exported")
    assert mine.read_text() != "my own edits"
