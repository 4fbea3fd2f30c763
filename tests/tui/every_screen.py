"""Every screen of the terminal app, as a user reaches it, in one language: prints a JSON object
of what each screen shows (its cells as text), for tests/tui/test_tui_languages.py.

The terminal app reads its language once, when it starts (tui/i18n.py), as a user's terminal
does: so each language runs in a process of its own,

    FEEDBACK_STUDIO_UI_LANGUAGE=de python -m tests.tui.every_screen DATABASE_URL

The journey: the library, its key help (F1) on the table and on the filter, the command palette
and a search in it that finds nothing, the delete question, export and import; the new-task
dialog and the editor of every task type with an error in it, its key help and the question on
leaving it; a task answered (multiple choice, free text with its evidence), its history and an
answer of it, the retest, the test answers and one opened, the versions; a simulation; the
connection and health, and the tutor chat.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, RadioButton, TextArea

from core.api import TaskType
from core.config import Settings
from tests.tui.helpers import SIZE, library_loaded, screen_text, settle, wait_until
from tui.app import FeedbackStudioApp

MC = "mc-photosynthesis-en"
FREEFORM = "ff-bulb-circuit-en"
SIMULATION = "sim-customer-objections-en"


def on(name: str) -> Callable[[Pilot], bool]:
    """Whether the screen in view is of the class called ``name`` (by name: modules move)."""
    return lambda pilot: type(pilot.app.screen).__name__ == name


class Journey:
    def __init__(self, pilot: Pilot) -> None:
        self.pilot, self.app = pilot, pilot.app
        self.shots: dict[str, str] = {}

    async def until(self, condition: Callable[[], object]) -> None:
        await wait_until(self.pilot, condition, within=60)

    async def screen(self, name: str) -> None:
        await self.until(lambda: type(self.app.screen).__name__ == name and self.app.screen.is_mounted)
        await self.pilot.pause()

    async def shot(self, name: str) -> None:
        await settle(self.pilot, within=60)
        await self.pilot.pause(0.05)
        self.shots[name] = screen_text(self.app)
        notes = [f"{n.title}: {n.message}" for n in self.app._notifications]
        if notes:
            self.shots[f"{name}, notifications"] = "\n".join(notes)

    def nothing_found(self) -> bool:
        commands = self.app.screen.query_one("CommandList", OptionList)
        return commands.option_count == 1 and commands.get_option_at_index(0).id == "--no-matches"

    async def keys_help(self, name: str) -> None:
        await self.pilot.press("f1")
        await self.until(lambda: self.app.screen.query("HelpPanel"))
        await self.shot(f"{name}, keys (F1)")
        await self.pilot.press("f1")
        await self.until(lambda: not self.app.screen.query("HelpPanel"))

    async def press(self, *keys: str) -> None:
        await self.pilot.press(*keys)

    async def run(self) -> None:
        await self.until(lambda: library_loaded(self.app))
        await self.shot("library")
        await self.keys_help("library")

        await self.press("ctrl+p")
        await self.screen("Palette")
        await self.pilot.pause(0.5)
        await self.shot("command palette")
        await self.press(*"zzzq")
        await self.until(self.nothing_found)
        await self.shot("command palette, nothing found")
        await self.press("escape")
        await self.screen("LibraryScreen")

        await self.press("slash")
        await self.until(lambda: isinstance(self.app.focused, Input))
        await self.keys_help("library filter")
        await self.press("escape")

        for key, name in (("x", "delete question"), ("o", "export"), ("i", "import")):
            self.app.screen.query_one(DataTable).focus()
            await self.press(key)
            await self.until(lambda: type(self.app.screen).__name__ != "LibraryScreen")
            await self.pilot.pause(0.2)
            await self.shot(name)
            await self.press("escape")
            await self.screen("LibraryScreen")

        for task_type in TaskType:
            await self.editor(task_type)

        await self.answered_task()
        await self.freeform()
        await self.simulation()

        await self.press("f2")
        await self.screen("ConnectionScreen")
        info = self.app.screen.query_one("#connection-info")
        await self.until(lambda: not info.loading and info.content)
        await self.shot("connection and health")
        await self.press("escape")

        await self.press("f3")
        await self.screen("ChatScreen")
        await self.until(lambda: self.app.screen.query_one("ChatView").tutor_id is not None)
        await self.shot("tutor chat")
        await self.keys_help("tutor chat")

    async def editor(self, task_type: TaskType) -> None:
        await self.press("n")
        await self.screen("NewTaskScreen")
        if task_type is TaskType.FREEFORM_TEXT:
            await self.shot("new task")
        self.app.screen.query_one(OptionList).highlighted = list(TaskType).index(task_type)
        await self.press("enter")
        await self.screen("EditorScreen")
        editor = self.app.screen
        await self.shot(f"editor, {task_type.value}")
        editor.query_one(".field-id Input", Input).value = "a/b"
        editor.query_one(".field-title Input", Input).value = "x" * 300
        await self.until(lambda: editor.query_one("#save").disabled)
        await self.shot(f"editor, {task_type.value}, with errors")
        if task_type is TaskType.FREEFORM_TEXT:
            editor.query(TextArea).first().focus()
            await self.keys_help("editor, a text field")
        await self.press("escape")
        await self.screen("ConfirmScreen")
        await self.shot(f"editor, {task_type.value}, leave unsaved")
        await self.pilot.click("#confirm")
        await self.screen("LibraryScreen")

    async def open(self, task_id: str):
        await self.screen("LibraryScreen")
        table = self.app.screen.query_one(DataTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(task_id))
        await self.press("enter")
        await self.until(
            lambda: type(self.app.screen).__name__ == "TaskScreen" and self.app.screen.definition is not None
        )
        await self.pilot.pause()
        return self.app.screen

    async def tab(self, key: str, name: str) -> None:
        await self.press(key)
        await self.pilot.pause(0.3)
        await self.until(lambda: not any(w.loading for w in self.app.screen.query("*")))
        await self.shot(name)

    async def answered_task(self) -> None:
        screen = await self.open(MC)
        await self.shot("task, multiple choice")
        await self.keys_help("task")
        await self.pilot.click(next(b for b in screen.query(RadioButton) if str(b.label) == "Oxygen"))
        await self.press("ctrl+g")
        await self.until(lambda: screen.query("FeedbackView"))
        await self.shot("task, multiple choice, feedback")
        await self.tab("f6", "task, history")
        table = screen.query_one("#history-tab DataTable", DataTable)
        await self.until(lambda: table.row_count > 0)
        table.focus()
        await self.press("enter")
        await self.screen("InteractionScreen")
        await self.shot("an answer of the history")
        await self.press("escape")
        await self.screen("TaskScreen")
        await self.tab("f7", "task, retest")
        await self.tab("f8", "task, test answers")
        await self.tab("f9", "task, versions")
        await self.tab("f10", "task, class sets")
        await self.press("escape")

    async def freeform(self) -> None:
        screen = await self.open(FREEFORM)
        screen.query_one("#answer-text", TextArea).text = (
            "The bulb needs a closed circuit: one wire from the plus pole to the bulb and "
            "another back to the minus pole. The battery uses up the current."
        )
        await self.press("ctrl+g")
        await self.until(lambda: screen.query("FeedbackView"))
        await self.shot("task, free text, feedback")
        await self.press("escape")

    async def simulation(self) -> None:
        await self.open(SIMULATION)
        await self.shot("task, simulation")
        await self.press("escape")


async def main(database_url: str) -> dict[str, str]:
    app = FeedbackStudioApp(Settings(database_url=database_url, seed_demo=True))
    journey = None
    async with app.run_test(size=SIZE) as pilot:
        journey = Journey(pilot)
        try:
            await journey.run()
        except Exception as exc:  # the screens so far, and where the journey stopped
            journey.shots["journey failed"] = f"{type(exc).__name__}: {exc}\n{screen_text(app)}"
        await settle(pilot, within=60)
    return journey.shots


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1])), ensure_ascii=False))
