"""The task's glossary in the terminal app's editor: a term added, saved and kept by the service."""

from __future__ import annotations

from textual.widgets import Input

from tests.tui.helpers import open_task, wait_until
from tui.screens.editor import EditorScreen


async def test_a_glossary_term_is_added_in_the_editor_and_saved(pilot, studio):
    app = pilot.app
    screen = await open_task(pilot, "ff-bulb-circuit-en")
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
    editor = app.screen
    assert not editor.query("#list-glossary .item-row")  # the demo task has no glossary
    await pilot.click("#list-glossary .add-item")
    await wait_until(pilot, lambda: len(editor.query("#list-glossary .item-row")) == 1)
    row = editor.query_one("#list-glossary .item-row")
    row.query_one("Input.field-term", Input).value = "filament"
    row.query_one("Input.field-explanation", Input).value = "The very thin wire inside the bulb."
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: app.screen is screen)
    stored = (await studio.get_task("default", "ff-bulb-circuit-en")).definition
    assert [(e.term, e.explanation) for e in stored.glossary or []] == [
        ("filament", "The very thin wire inside the bulb.")
    ]
