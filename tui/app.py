"""The Feedback Studio terminal app: one App holding the service connection, screens per area.

The first screen appears before the service is ready: connecting (migrations, imports, a remote
round trip) runs in a worker, and every screen's worker awaits :meth:`FeedbackStudioApp.ready`.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.theme import Theme

from core.api import ServiceError, ServiceInfo
from core.client.deadlines import failure_words, open_remote
from core.client.library import TaskLibrary
from core.client.vocabulary import TYPE_LABELS
from core.config import Settings
from core.service import Service, connect
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _
from tui.labels import service_word, type_label
from tui.navigation import OpenChat, OpenTask
from tui.screens.library import LibraryScreen
from tui.textual_words import Palette, translate_bindings, translated

THEME = Theme(
    name="feedback-studio",
    primary="#5b8def",
    secondary="#8a7cf0",
    accent="#f0a35b",
    success="#2fbf71",
    warning="#e0b43a",
    error="#e5534b",
    foreground="#d8dee9",
    background="#12151b",
    surface="#1a1f27",
    panel="#242b36",
    dark=True,
)


class FeedbackStudioApp(App[int | None]):
    """Either give ``settings`` (the app connects itself) or an open ``service`` (the caller closes it)."""

    CSS_PATH = "app.tcss"
    TITLE = "Feedback Studio"
    # Textual declares it `ClassVar[...] | None`, which mypy reads as an instance variable.
    HORIZONTAL_BREAKPOINTS: ClassVar = [(0, "-narrow"), (100, "-wide")]  # type: ignore[misc]
    """An 80-column terminal gets the narrow layouts of app.tcss (nothing cut off at 80×24)."""
    BINDINGS: ClassVar = [
        # priority: a key that opens a screen is acted on before the keys typed after it are
        # routed, so they reach the screen it opens (see hold_keys)
        Binding("f1", "help", _("Help"), priority=True),
        Binding("f2", "connection", _("Connection"), priority=True),
        Binding("f3", "chat", _("Tutor chat"), priority=True),
        Binding("question_mark", "help", _("Help"), show=False),
        Binding("q", "quit", _("Quit"), show=False),
        # Textual's own palette key, with its words in the app's language (Textual adds it in
        # English unless the app binds it)
        Binding(
            "ctrl+p",
            "command_palette",
            _("palette"),
            show=False,
            priority=True,
            tooltip=_("Open the command palette"),
        ),
    ]
    KEYS_HELD_AT_MOST = 30.0
    """Seconds that keys typed while a screen opens wait for its field before they are dropped."""

    class ReleaseKeys(Message):
        """The focus has arrived: the keys held meanwhile go to it (or are dropped)."""

        def __init__(self, discard: bool) -> None:
            super().__init__()
            self.discard = discard

    class Connected(Message):
        """A connection worker finished: the service to use from now on and what it offers."""

        def __init__(self, service: Service, info: ServiceInfo, settings: Settings | None) -> None:
            super().__init__()
            self.service, self.info, self.settings = service, info, settings

    def __init__(self, settings: Settings | None = None, *, service: Service | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.service: Service | None = service
        self.info: ServiceInfo | None = None
        self._owns_service = service is None
        self._connected = asyncio.Event()
        self._library: TaskLibrary | None = None
        self.connections = 0
        """How many connections were made: a screen opened on an earlier one must not write."""
        self._held: list[events.Key] | None = None
        self._hold_timer: Any = None

    # --- connection ---------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        return LibraryScreen()

    def on_mount(self) -> None:
        self.register_theme(THEME)
        self.theme = THEME.name
        self.open_service(self.settings if self.service is None else None)

    @work(exclusive=True, group="connection")
    async def open_service(self, settings: Settings | None) -> None:
        """Connect by ``settings`` (or just read the injected service's info) and report back."""
        try:
            if settings is None:
                service = self.service
                assert service is not None  # no settings: the app was given its service
            else:
                await asyncio.to_thread(_preload, settings)
                service = await _open(settings)
            info = await service.info()
        except ServiceError as exc:
            self._connection_failed(failure_words(exc, _) or exc.message)
        except Exception as exc:  # a wrong database URL or an unreachable host: the user must act
            self._connection_failed(f"{type(exc).__name__}: {exc}")
        else:
            self.post_message(self.Connected(service, info, settings))
        finally:
            collect_after_start_up()

    def _connection_failed(self, message: str) -> None:
        self.notify(message, title=_("Could not connect"), severity="error", timeout=15, markup=False)
        self.action_connection()

    async def on_feedback_studio_app_connected(self, message: Connected) -> None:
        previous = self.service if self._owns_service else None
        if message.settings is not None:
            self.settings = message.settings
            self._owns_service = True
        switched = self._library is not None
        self.service, self.info = message.service, message.info
        self.connections += 1
        # a new connection, a new library: a remote without the extensions remembers anew
        self._library = TaskLibrary(
            message.service, message.info.defaultTenantId, extensions=message.info.extensions
        )
        self.sub_title = _("{mode} · tenant {tenant}").format(
            mode=service_word(message.info.mode), tenant=message.info.defaultTenantId
        )
        self._connected.set()
        if switched:
            await self._close_screens_of_the_old_service()
        if previous is not None and previous is not message.service:
            await previous.aclose()

    async def _close_screens_of_the_old_service(self) -> None:
        """A task, an editor or a chat shows the old service's objects: after a switch they close
        (an editor's unsaved changes were asked about first), the library lists the new one's."""
        from tui.screens.connection import ConnectionScreen

        if len(self.screen_stack) <= 2 and isinstance(self.screen, ConnectionScreen):
            return  # only the library beneath, which reloads on resuming
        on_connection = isinstance(self.screen, ConnectionScreen)
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        if on_connection:
            await self.push_screen(ConnectionScreen())

    async def ready(self) -> Service:
        """The service, once connected; workers await this before their first call."""
        await self._connected.wait()
        assert self.service is not None
        return self.service

    @property
    def tenant_id(self) -> str:
        return self.info.defaultTenantId if self.info else ""

    @property
    def extensions(self) -> bool:
        """Whether the service offers the authoring extensions (a foreign remote does not)."""
        return bool(self.info and self.info.extensions)

    async def library(self) -> TaskLibrary:
        """The task library of this connection, once connected (core.client.library)."""
        await self._connected.wait()
        assert self._library is not None
        return self._library

    async def reconnect(self, settings: Settings) -> bool:
        """Connect by ``settings``; whether the app now speaks to another service (on a failure
        it keeps the one it had, and the connection screen shows why)."""
        before = self.service
        await self.open_service(settings).wait()
        return self.service is not before

    async def on_unmount(self) -> None:
        if self._owns_service and self.service is not None:
            await self.service.aclose()

    # --- navigation ---------------------------------------------------------------------------

    def on_open_task(self, message: OpenTask) -> None:
        from tui.screens.task import TaskScreen

        self.push_screen(TaskScreen(message.task_id))

    def on_open_chat(self, message: OpenChat) -> None:
        self.action_chat(message.task_id, message.title)

    def action_connection(self) -> None:
        from tui.screens.connection import ConnectionScreen

        if not isinstance(self.screen, ConnectionScreen):
            self.push_screen(ConnectionScreen())

    def action_chat(self, task_id: str | None = None, title: str | None = None) -> None:
        from tui.screens.chat import ChatScreen

        if not isinstance(self.screen, ChatScreen):
            self.push_screen(ChatScreen(task_id=task_id, task_title=title))

    DIALOG_WAITS_FOR = frozenset({"help", "connection", "chat", "quit"})
    """The app's actions a dialog holds back (q, ?, F1–F3, ctrl+q): it is answered first."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a dialog asks (a ModalScreen: the delete question, export, import, a test
        answer) the app's own keys do nothing; the command palette's commands still run."""
        return not (action in self.DIALOG_WAITS_FOR and isinstance(self.screen, ModalScreen))

    def action_help(self) -> None:
        """F1 shows the keys of the screen in view beside it (Textual's help panel); again, hides it."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_library(self) -> None:
        self.discard_then(_("Leave the editor and discard your changes?"), self._to_library)

    def _to_library(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    async def action_quit(self) -> None:
        """ctrl+q, q and the palette's quit: unsaved edits of a task are asked about first."""
        self.discard_then(_("Quit and discard your unsaved changes to the task?"), self.exit)

    def unsaved_edits(self) -> str | None:
        """The id of the task whose editor has unsaved changes, if one is open."""
        from tui.screens.editor import EditorScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, EditorScreen) and screen.unsaved:
                return screen.draft.id
        return None

    def discard_then(self, question: str, then: Callable[[], object]) -> None:
        """Run ``then`` at once, or, while an editor holds unsaved changes, after the author agrees
        to discard them (every way out of an editor asks: escape, quit, the palette, a switch)."""
        if self.unsaved_edits() is None:
            then()
            return

        self.push_screen(ConfirmScreen(question, _("Discard")), lambda yes: yes and then())

    # --- keys typed while the focus moves -------------------------------------------------------

    def hold_keys(self) -> None:
        """Keys typed from now on wait until :meth:`release_keys`: the focus is on its way to a
        field (a screen opens, a task loads), and they belong there, not to what had the focus."""
        if self._held is None:
            self._held = []
        if self._hold_timer is not None:
            self._hold_timer.stop()
        self._hold_timer = self.set_timer(self.KEYS_HELD_AT_MOST, lambda: self.release_keys(discard=True))

    def release_keys(self, *, discard: bool = False) -> None:
        """The focus has arrived: replay the held keys to it, after the moves queued before this
        call (``discard``: the screen did not open; its keys must not act on the one beneath)."""
        self.post_message(self.ReleaseKeys(discard))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self._held is not None:
            self._held.append(event)
            return
        await super().on_event(event)

    async def on_feedback_studio_app_release_keys(self, message: ReleaseKeys) -> None:
        held, self._held = self._held or [], None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if message.discard:
            return
        for index, key in enumerate(held):
            if self._held is not None:  # a replayed key opened something: the rest waits again
                self._held.extend(held[index:])
                return
            await super().on_event(key)

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Every screen that opens takes the keys typed while it opens: held until it has placed
        its focus (a screen that waits for the service releases them itself: WAITS_FOR_FOCUS)."""
        self.hold_keys()
        translate_bindings()  # the classes of the screen's widgets, imported since
        if isinstance(screen, Screen):
            screen._bindings = translated(screen._bindings)
        result = super().push_screen(screen, *args, **kwargs)
        if isinstance(screen, Screen) and not getattr(screen, "WAITS_FOR_FOCUS", False):
            screen.call_after_refresh(self.release_keys)
        return result

    # --- the command palette, in the app's language -----------------------------------------

    def action_command_palette(self) -> None:
        # Textual takes an App[object]; App is invariant in its return type (int | None here).
        if self.use_command_palette and not Palette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        self.push_screen(Palette(providers=[ThemeProvider], placeholder=_("Search for themes…")))

    def action_screenshot_here(self) -> None:
        """Save the screen as an SVG file in the working folder and say where."""
        path = self.save_screenshot()
        self.notify(_("Saved to {path}").format(path=path), title=_("Screenshot"), markup=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's own commands (theme, quit, keys, maximize, screenshot) in the app's language,
        then the app's."""
        yield SystemCommand(_("Theme"), _("Change the current theme"), self.action_change_theme)
        yield SystemCommand(_("Quit"), _("Quit the application"), self.action_quit)
        if screen.query("HelpPanel"):
            yield SystemCommand(_("Keys"), _("Hide the keys and widget help panel"), self.action_help)
        else:
            yield SystemCommand(
                _("Keys"), _("Show the keys of this screen and the focused field"), self.action_help
            )
        if screen.maximized is not None:
            yield SystemCommand(
                _("Minimize"), _("Restore the widget to its normal size"), screen.action_minimize
            )
        elif screen.focused is not None and screen.focused.allow_maximize:
            yield SystemCommand(_("Maximize"), _("Maximize the focused widget"), screen.action_maximize)
        yield SystemCommand(
            _("Screenshot"),
            _("Save an SVG picture of the screen"),
            lambda: self.set_timer(0.1, self.action_screenshot_here),
        )
        yield SystemCommand(_("Task library"), _("Back to the table of tasks"), self.action_library)
        yield SystemCommand(_("Tutor chat"), _("Chat with a tutor; the reply streams in"), self.action_chat)
        yield SystemCommand(
            _("Connection and health"),
            _("Local or remote service, token, health checks"),
            self.action_connection,
        )
        library = self.screen_stack[0]
        if isinstance(library, LibraryScreen):
            for task_type in TYPE_LABELS:
                label = type_label(task_type)
                yield SystemCommand(
                    _("New task: {type}").format(type=label),
                    _("Open the editor on a new task of this type: {type}").format(type=label),
                    lambda t=task_type: library.new_task(t),
                )
        for task in self._library.listed if self._library else []:
            yield SystemCommand(
                _("Open task: {title}").format(title=task.title or task.taskId),
                _("{id} · try answers, history").format(id=task.taskId),
                lambda t=task.taskId: self.post_message(OpenTask(t)),
            )


def _preload(settings: Settings) -> None:
    """Import the service's heavy modules off the event loop so the first screen stays responsive."""
    importlib.import_module("core.service.remote" if settings.remote_url else "core.service.local")


def collect_after_start_up() -> None:
    """Turn the garbage collector back on once the first connection is made, if the command
    turned it off for the start (core.cli): what start-up built lives as long as the process, so
    it is frozen out of the collector's sight rather than walked by every full collection."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def run(settings: Settings) -> int | None:
    """Entry point of ``feedback-studio tui``: run the app until the user quits."""
    return FeedbackStudioApp(settings).run()


translate_bindings()  # the classes defined so far, the app's own included, before any is made


async def _open(settings: Settings) -> Service:
    """The embedded service, or a remote opened and called within deadlines (a remote that hangs
    is reported, never waited for: core.client.deadlines)."""
    return await (open_remote(settings) if settings.remote_url else connect(settings))
