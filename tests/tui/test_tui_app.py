"""The app around the screens: connection and health, the command palette, and what a foreign
remote (no authoring extensions) hides."""

from __future__ import annotations

from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import DataTable, Input, RadioButton, RadioSet

from core.api import ServiceInfo, TaskType
from core.config import Settings
from core.service import connect
from tests.conftest import free_port
from tests.tui.helpers import (
    SIZE,
    library_loaded,
    new_task_editor,
    notified,
    settle,
    text_of,
    wait_until,
)
from tui.app import FeedbackStudioApp
from tui.screens.chat import ChatScreen
from tui.screens.connection import ConnectionScreen
from tui.screens.library import NO_LIST, NO_TASKS
from tui.screens.task import TaskScreen
from tui.widgets.empty import EmptyState
from tui.widgets.feedback.view import FeedbackView


async def test_connection_screen_shows_the_embedded_service_and_runs_both_health_checks(pilot):
    app = pilot.app
    await pilot.press("f2")
    await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen))
    info = app.screen.query_one("#connection-info")
    await wait_until(pilot, lambda: not info.loading and info.content)
    shown = "\n".join(str(row) for row in info.content.columns[1].cells)
    assert "embedded (on this machine, no network)" in shown and "access, delete, write" in shown

    await pilot.click("#check-api")
    await pilot.click("#check-chat")
    api, chat = app.screen.query_one("#api-health"), app.screen.query_one("#chat-health")
    await wait_until(pilot, lambda: text_of(api).startswith("✔") and text_of(chat).startswith("✔"))
    assert text_of(api).startswith("✔ OK in")
    assert text_of(chat).startswith("✔ the tutor answered in")


async def run_command(pilot, search: str, first_hit: str) -> None:
    """Search the command palette and run the best match, once ``first_hit`` is listed first."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    app.screen.query_one(CommandInput).value = search  # one search, not one per typed letter
    hits = app.screen.query_one(CommandList)
    await wait_until(
        pilot, lambda: hits.option_count and first_hit in str(hits.get_option_at_index(0).prompt)
    )
    await pilot.press("down", "enter")


async def test_command_palette_opens_the_tutor_chat_and_tasks(pilot):
    app = pilot.app
    await run_command(pilot, "tutor chat", "Tutor chat")
    await wait_until(pilot, lambda: isinstance(app.screen, ChatScreen))

    await pilot.press("escape")
    await run_command(pilot, "water cycle", "Open task: The water cycle")
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen))
    assert app.screen.task_id == "blanks-water-cycle-en"


class ForeignRemote:
    """The embedded service presenting itself as a remote without the authoring extensions."""

    def __init__(self, service) -> None:
        self._service = service

    def __getattr__(self, name):
        return getattr(self._service, name)

    async def info(self) -> ServiceInfo:
        info = await self._service.info()
        return info.model_copy(update={"mode": "remote", "extensions": False})


async def test_a_remote_without_extensions_hides_the_library_but_keeps_new_tasks(studio):
    app = FeedbackStudioApp(service=ForeignRemote(studio))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        empty = app.screen.query_one(EmptyState)
        assert empty.display and text_of(empty) == NO_LIST
        assert not app.screen.query_one(DataTable).display

        await pilot.press("f3")
        await wait_until(
            pilot, lambda: isinstance(app.screen, ChatScreen) and app.screen.query_one("#tutor-id").display
        )
        app.screen.query_one("#tutor-id", Input).value = "tutor-photosynthesis-en"
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: app.screen.query_one("#tutor-chat").tutor_id == "tutor-photosynthesis-en"
        )
        await settle(pilot)


async def test_the_app_works_against_a_remote_server(live_server):
    """The same journey over HTTP: RemoteService against a real server of this API, with a token."""
    token = await live_server.token("default")
    service = await connect(Settings(remote_url=live_server.base_url, token=token))
    try:
        app = FeedbackStudioApp(service=service)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: library_loaded(app))
            assert app.info.mode == "remote" and app.extensions
            assert text_of(app.screen.query_one(EmptyState)) == NO_TASKS  # nothing seeded on that server
            editor = await new_task_editor(pilot, TaskType.MULTIPLE_CHOICE)
            editor.query_one(".field-title Input", Input).value = "Planets"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen) and app.screen.definition)
            app.screen.query_one(RadioSet).query(RadioButton).first().value = True
            await pilot.press("ctrl+g")
            await wait_until(pilot, lambda: app.screen.query(FeedbackView))
            assert text_of(app.screen.query_one(".verdict-banner")) == "✔ CORRECT · 1 / 1 points"
            await settle(pilot)
    finally:
        await service.aclose()


async def test_an_unreachable_remote_is_reported_and_the_connection_screen_opens():
    app = FeedbackStudioApp(
        Settings(remote_url=f"http://127.0.0.1:{free_port()}", token="t", remote_timeout_seconds=2)
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen) and app.screen.is_mounted)
        _, message = await notified(pilot, "Could not connect")
        assert message
        await pilot.pause()
        assert app.screen.query_one("#remote-url", Input).value.startswith("http://127.0.0.1:")


async def test_the_app_speaks_the_language_it_was_started_in(studio, monkeypatch) -> None:
    """FEEDBACK_STUDIO_UI_LANGUAGE (or the system locale) picks it when the app starts."""
    import tui.i18n

    monkeypatch.setattr(tui.i18n, "LANGUAGE", "de")
    app = FeedbackStudioApp(service=studio)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        table = app.screen.query_one("#tasks", DataTable)
        labels = [str(column.label) for column in table.columns.values()]
        assert {"Typ", "Sprache", "Titel", "Letzte Urteile"} <= set(labels)
        assert app.screen.query_one("#filter", Input).placeholder.startswith("Nach Titel, Kennung")
        await settle(pilot)


async def test_f1_shows_the_keys_of_the_screen_and_hides_them_again(pilot) -> None:
    from textual.widgets import HelpPanel

    await pilot.press("f1")
    await wait_until(pilot, lambda: bool(pilot.app.screen.query(HelpPanel)))
    await pilot.press("f1")
    await wait_until(pilot, lambda: not pilot.app.screen.query(HelpPanel))
