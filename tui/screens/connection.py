"""Connection and health: which service the app speaks to (embedded or remote, with a token),
switching between them, and the two health checks (the API, and a real tutor round trip)."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.table import Table
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Header, Input, Label, Static

from core.config import Settings
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _, number
from tui.labels import service_word
from tui.service_calls import service_call, studio
from tui.widgets.footer import KeysFooter
from tui.widgets.model_server import ModelServerForm


class ConnectionScreen(Screen[None]):
    BINDINGS: ClassVar = [Binding("escape", "app.pop_screen", _("Back"))]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="connection"):
            yield Static(_("Connection"), classes="screen-title")
            yield Static(id="connection-info")
            yield Static(_("Switch service"), classes="section-title")
            yield Label(
                _("Leave the address empty to use the embedded service on this machine."), classes="hint"
            )
            with Horizontal(classes="form-row"):
                yield Input(placeholder="https://feedback.example.org", id="remote-url", compact=True)
                yield Input(placeholder=_("bearer token"), id="remote-token", password=True, compact=True)
                yield Button(_("Connect"), id="connect", variant="primary", compact=True)
            yield Static(_("Health"), classes="section-title")
            with Horizontal(classes="form-row"):
                yield Button(_("Check the service"), id="check-api", compact=True)
                yield Label(_("not checked yet"), id="api-health", classes="hint")
            with Horizontal(classes="form-row"):
                yield Button(_("Check a tutor round trip"), id="check-chat", compact=True)
                yield Label(_("not checked yet"), id="chat-health", classes="hint")
            yield ModelServerForm(id="model-server")
        yield KeysFooter()

    def on_mount(self) -> None:
        settings = studio(self).settings
        if settings and settings.remote_url:
            self.query_one("#remote-url", Input).value = settings.remote_url
        self.show_info()

    @work(exclusive=True, group="connection-info")
    async def show_info(self) -> None:
        async with service_call(self, _("Reading the service"), busy=self.query_one("#connection-info")):
            await studio(self).ready()
            self.query_one("#connection-info", Static).update(self._info_table())

    def _info_table(self) -> Table:
        info, settings = studio(self).info, studio(self).settings
        assert info is not None
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        if info.mode == "remote":
            table.add_row(
                _("Service"), _("remote at {url}").format(url=settings.remote_url if settings else "?")
            )
            table.add_row(_("Token"), _("given") if settings and settings.token else _("none"))
        else:
            where = settings.database_url if settings else _("given by the caller")
            table.add_row(_("Service"), _("embedded (on this machine, no network)"))
            table.add_row(_("Database"), where)
        table.add_row(_("Principal"), service_word(info.principal))
        table.add_row(_("Tenant"), info.defaultTenantId)
        permissions = ", ".join(service_word(p) for p in info.permissions.get(info.defaultTenantId, []))
        permissions = permissions or _("none")
        table.add_row(_("Permissions"), permissions)
        table.add_row(
            _("Version"),
            _("{name} {version} · API {api}").format(
                name=info.name, version=info.version, api=info.apiVersion
            ),
        )
        extensions = _("yes") if info.extensions else _("no: task library, history and tutor list are hidden")
        table.add_row(_("Authoring extensions"), extensions)
        return table

    @on(Button.Pressed, "#connect")
    @on(Input.Submitted, "#remote-url,#remote-token")
    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        url = self.query_one("#remote-url", Input).value.strip() or None
        token = self.query_one("#remote-token", Input).value.strip() or None
        base = studio(self).settings or Settings()
        settings = base.model_copy(update={"remote_url": url, "token": token})
        if (editing := studio(self).unsaved_edits()) is not None:
            question = _(
                "You have unsaved changes to {id}. Switching the service closes the editor and "
                "discards them (a task of the other service is never overwritten with them)."
            ).format(id=editing)
            if not await self.app.push_screen_wait(ConfirmScreen(question, _("Discard and switch"))):
                return
        if await studio(self).reconnect(settings):
            self.notify(
                _("Now using the remote service.") if url else _("Now using the embedded service."),
                title=_("Connected"),
            )
            if self.is_attached:  # else the app closed it with the old service's screens
                self.show_info()

    @on(Button.Pressed, "#check-api")
    @work(exclusive=True, group="health-api")
    async def check_api(self) -> None:
        label = self.query_one("#api-health", Label)
        async with service_call(self, _("Health check"), busy=label):
            started = time.perf_counter()
            status = await (await studio(self).ready()).healthcheck()
            label.update(f"✔ {status.status} in {(time.perf_counter() - started) * 1000:.0f} ms")
            label.set_classes("health-ok")

    @on(Button.Pressed, "#check-chat")
    @work(exclusive=True, group="health-chat")
    async def check_chat(self) -> None:
        label = self.query_one("#chat-health", Label)
        async with service_call(self, _("Tutor health check"), busy=label):
            started = time.perf_counter()
            reply = await (await studio(self).ready()).healthcheck_chat()
            elapsed = (time.perf_counter() - started) * 1000
            label.update(
                _("✔ the tutor answered in {ms} ms: “{reply}”").format(
                    ms=number(elapsed, 0), reply=reply.message[:60]
                )
            )
            label.set_classes("health-ok")
