"""Settings ("/settings"): which service this browser talks to, its health, and the look.

The connection is kept per browser: one teacher may look at a remote server while the embedded
service keeps serving everyone else. The health check makes real calls, the chat one included
(it goes through the configured tutor engine, as /tutor/healthcheck/chat does).
"""

from __future__ import annotations

import asyncio
import textwrap
from typing import Any

from nicegui import app, events, ui

from core.client.i18n import UI_LANGUAGES
from webui.components.busy import sends
from webui.components.model_server import ModelServerCard
from webui.i18n import _, choose, language
from webui.page_services import Connection, PageServices, failure_text
from webui.theme import frame, section_title


def register(studio: PageServices) -> None:
    @ui.page("/settings")
    async def settings_page() -> None:
        with frame(_("Settings")):
            SettingsPage(studio).build()
            await ModelServerCard(studio).build()


class SettingsPage:
    def __init__(self, studio: PageServices) -> None:
        self.studio = studio

    def build(self) -> None:
        current = self.studio.connection()
        with ui.card().classes("w-full max-w-2xl gap-3").props("flat bordered"):
            section_title(_("Connection"))
            self.mode = ui.radio(
                {
                    "local": _("Embedded service (this machine's database)"),
                    "remote": _("Remote service of the API"),
                },
                value="remote" if current.is_remote else "local",
            ).props("dense")
            with ui.column().classes("w-full gap-2").bind_visibility_from(self.mode, "value", value="remote"):
                self.url = ui.input(
                    _("Base URL"), value=current.remote_url or "", placeholder="https://feedback.example.org"
                )
                self.url.classes("w-full").props("outlined dense")
                self.token = ui.input(
                    _("Bearer token"), value=current.token or "", password=True, password_toggle_button=True
                )
                self.token.classes("w-full").props("outlined dense")
            with ui.row().classes("gap-2"):
                sends(ui.button(_("Save and check"), icon="save"), self._save).props("unelevated")
                ui.button(_("Check health"), icon="monitor_heart", on_click=self._check).props("outline")
            self.health = ui.column().classes("w-full gap-1")
        with ui.card().classes("w-full max-w-2xl gap-2").props("flat bordered"):
            section_title(_("Appearance"))
            ui.select(UI_LANGUAGES, label=_("Language"), value=language(), on_change=self._language).props(
                "outlined dense"
            ).classes("w-48").mark("ui-language")
            ui.switch(_("Dark mode")).bind_value(app.storage.user, "dark")

    @staticmethod
    def _language(event: events.ValueChangeEventArguments[Any]) -> None:
        """The page is built again in the chosen language (every page reads it when it is built)."""
        choose(event.value)
        ui.navigate.reload()

    async def _save(self) -> None:
        if self.mode.value == "remote":
            url = (self.url.value or "").strip().rstrip("/")
            if not url.startswith(("http://", "https://")):
                ui.notify(_("The base URL must start with http:// or https://"), type="warning")
                return
            chosen = Connection(url, (self.token.value or "").strip() or None)
        else:
            chosen = Connection()
        try:  # a remote that cannot be reached is not saved: the pages would all fail on it
            await self.studio.open_service(chosen)
        except Exception as exc:
            ui.notify(
                _("Not saved: {reason}").format(reason=failure_text(exc)),
                type="negative",
                multi_line=True,
                close_button=True,
            )
            return
        self.studio.choose(chosen)
        ui.notify(
            _("Connected to the {connection}").format(connection=self.studio.connection().label),
            type="positive",
        )
        await self._check()

    async def _check(self) -> None:
        """The checks run side by side, each within the deadline of a call (core.client.deadlines):
        a remote that hangs is reported in 10 s, not once per check."""
        self.health.clear()
        with self.health:
            spinner = ui.spinner()
        checks = [
            (_("Service"), self._service_health),
            (_("Identity"), self._identity),
            (_("Tutor chat"), self._chat_health),
        ]
        outcomes = await asyncio.gather(*(check() for _name, check in checks), return_exceptions=True)
        for (name, _run), outcome in zip(checks, outcomes, strict=True):
            if isinstance(outcome, str):
                ok, detail = True, outcome
            elif isinstance(outcome, Exception):  # a health check reports whatever fails
                ok, detail = False, failure_text(outcome)
            else:
                raise outcome  # a cancellation: the page is gone
            with self.health, ui.row().classes("items-center gap-2"):
                ui.icon("check_circle" if ok else "error", color="positive" if ok else "negative")
                ui.label(f"{name}: {detail}")
        spinner.delete()

    async def _service_health(self) -> str:
        status = await (await self.studio.service()).healthcheck()
        return f"{status.status} ({self.studio.connection().label})"

    async def _identity(self) -> str:
        info = await (await self.studio.service()).info()
        return _("{name} {version}, API {api}, as {principal} on tenant {tenant}").format(
            name=info.name,
            version=info.version,
            api=info.apiVersion,
            principal=info.principal,
            tenant=info.defaultTenantId,
        )

    async def _chat_health(self) -> str:
        reply = await (await self.studio.service()).healthcheck_chat()
        return _("answered “{reply}”").format(reply=textwrap.shorten(reply.message, 80, placeholder="…"))
