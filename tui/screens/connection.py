"""Connection and health: which service the app speaks to (embedded or remote, with a token),
switching between them, and the two health checks (the API, and a real tutor round trip)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Static

from core.config import Settings
from tui.calls import service_call

if TYPE_CHECKING:
    from tui.app import FeedbackStudioApp


class ConnectionScreen(Screen):
    app: FeedbackStudioApp

    BINDINGS: ClassVar = [Binding("escape", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="connection"):
            yield Static("Connection", classes="screen-title")
            yield Static(id="connection-info")
            yield Static("Switch service", classes="section-title")
            yield Label(
                "Leave the address empty to use the embedded service on this machine.", classes="hint"
            )
            with Horizontal(classes="form-row"):
                yield Input(placeholder="https://feedback.example.org", id="remote-url", compact=True)
                yield Input(placeholder="bearer token", id="remote-token", password=True, compact=True)
                yield Button("Connect", id="connect", variant="primary", compact=True)
            yield Static("Health", classes="section-title")
            with Horizontal(classes="form-row"):
                yield Button("Check the service", id="check-api", compact=True)
                yield Label("not checked yet", id="api-health", classes="hint")
            with Horizontal(classes="form-row"):
                yield Button("Check a tutor round trip", id="check-chat", compact=True)
                yield Label("not checked yet", id="chat-health", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        settings = self.app.settings
        if settings and settings.remote_url:
            self.query_one("#remote-url", Input).value = settings.remote_url
        self.show_info()

    @work(exclusive=True, group="connection-info")
    async def show_info(self) -> None:
        async with service_call(self, "Reading the service", busy=self.query_one("#connection-info")):
            await self.app.ready()
            self.query_one("#connection-info", Static).update(self._info_table())

    def _info_table(self) -> Table:
        info, settings = self.app.info, self.app.settings
        assert info is not None
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        if info.mode == "remote":
            table.add_row("Service", f"remote at {settings.remote_url if settings else '?'}")
            table.add_row("Token", "given" if settings and settings.token else "none")
        else:
            where = settings.database_url if settings else "given by the caller"
            table.add_row("Service", "embedded (on this machine, no network)")
            table.add_row("Database", where)
        table.add_row("Principal", info.principal)
        table.add_row("Tenant", info.defaultTenantId)
        permissions = ", ".join(info.permissions.get(info.defaultTenantId, [])) or "none"
        table.add_row("Permissions", permissions)
        table.add_row("Version", f"{info.name} {info.version} · API {info.apiVersion}")
        extensions = "yes" if info.extensions else "no: task library, history and tutor list are hidden"
        table.add_row("Authoring extensions", extensions)
        return table

    @on(Button.Pressed, "#connect")
    @on(Input.Submitted, "#remote-url,#remote-token")
    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        url = self.query_one("#remote-url", Input).value.strip() or None
        token = self.query_one("#remote-token", Input).value.strip() or None
        base = self.app.settings or Settings()
        settings = base.model_copy(update={"remote_url": url, "token": token})
        before = self.app.service
        await self.app.open_service(settings).wait()
        if self.app.service is not before:
            self.notify(f"Now using the {'remote' if url else 'embedded'} service.", title="Connected")
            self.show_info()

    @on(Button.Pressed, "#check-api")
    @work(exclusive=True, group="health-api")
    async def check_api(self) -> None:
        label = self.query_one("#api-health", Label)
        async with service_call(self, "Health check", busy=label):
            started = time.perf_counter()
            status = await (await self.app.ready()).healthcheck()
            label.update(f"✔ {status.status} in {(time.perf_counter() - started) * 1000:.0f} ms")
            label.set_classes("health-ok")

    @on(Button.Pressed, "#check-chat")
    @work(exclusive=True, group="health-chat")
    async def check_chat(self) -> None:
        label = self.query_one("#chat-health", Label)
        async with service_call(self, "Tutor health check", busy=label):
            started = time.perf_counter()
            reply = await (await self.app.ready()).healthcheck_chat()
            elapsed = (time.perf_counter() - started) * 1000
            label.update(f"✔ the tutor answered in {elapsed:.0f} ms: “{reply.message[:60]}”")
            label.set_classes("health-ok")
