"""The tutor's model server in Settings: look for one on this machine, list the models of an
address, and save a chosen model once it has answered a short check (core.client.model_servers).
It applies to the embedded service; a remote's model server is set on that server."""

from __future__ import annotations

from nicegui import ui

from core.client import model_servers
from core.client.model_servers import (
    ModelServerError,
    base_url_of,
    check_and_save,
    current_choice,
    embedded_settings,
    find_local,
    list_models,
)
from webui.components.busy import sends
from webui.i18n import _
from webui.page_services import PageServices
from webui.theme import section_title


class ModelServerCard:
    def __init__(self, studio: PageServices) -> None:
        self.studio = studio

    async def build(self) -> None:
        with ui.card().classes("w-full max-w-2xl gap-2").props("flat bordered").mark("model-server"):
            section_title(_("Model server for the tutor"))
            # a remote is not opened for this (the page must open while a remote hangs)
            service = None if self.studio.connection().is_remote else await self.studio.service()
            if service is None or embedded_settings(service) is None:
                ui.label(_("The remote service's model server is set on that server.")).classes("text-sm")
                return
            ui.label(
                _(
                    "An OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM) for tutors whose "
                    "engine is the language model. A model is saved once it has answered a short check."
                )
            ).classes("text-sm opacity-80")
            choice = current_choice(service)
            with ui.row().classes("w-full gap-2 no-wrap max-sm:flex-wrap"):
                self.url = ui.input(
                    _("Address of the model server"),
                    value=choice.base_url if choice else "",
                    placeholder="http://127.0.0.1:11434/v1",
                )
                self.url.classes("w-full").props("outlined dense").mark("model-url")
                self.key = ui.input(_("API key, if it needs one"), password=True, password_toggle_button=True)
                self.key.classes("w-64").props("outlined dense").mark("model-key")
            models = [choice.model] if choice else []
            self.model = ui.select(models, label=_("Model"), value=choice.model if choice else None)
            self.model.classes("w-full").props("outlined dense").mark("model-choice")
            with ui.row().classes("gap-2"):
                sends(ui.button(_("Find on this machine"), icon="travel_explore"), self._find).props(
                    "outline"
                )
                sends(ui.button(_("List models"), icon="list"), self._list).props("outline")
                sends(ui.button(_("Check and save"), icon="save"), self._save).props("unelevated")
            self.status = (
                ui.label(
                    _("Tutors with the language model use {model} at {url}.").format(
                        model=choice.model, url=choice.base_url
                    )
                    if choice
                    else _("No model server set: tutors answer with the built-in grounded tutor.")
                )
                .classes("text-sm")
                .mark("model-status")
            )

    def _offer(self, models: tuple[str, ...] | list[str]) -> None:
        self.model.set_options(list(models), value=models[0] if models else None)

    async def _find(self) -> None:
        found = await find_local()
        if not found:
            ports = ", ".join(f"{port} ({name})" for name, port in model_servers.LOCAL_SERVERS)
            self.status.set_text(
                _("No model server answers on this machine's ports {ports}.").format(ports=ports)
            )
            return
        first = found[0]
        self.url.value = first.base_url
        self._offer(first.models)
        names = ", ".join(f"{server.name} ({server.base_url})" for server in found)
        self.status.set_text(
            _("Found {servers}; {count} models at the first.").format(servers=names, count=len(first.models))
        )

    async def _list(self) -> None:
        try:
            url = base_url_of(self.url.value or "")
            models = await list_models(url, (self.key.value or "").strip() or None)
        except ModelServerError as exc:
            self.status.set_text(f"✘ {exc}")
            return
        self._offer(models)
        self.status.set_text(_("{count} models at {url}.").format(count=len(models), url=url))

    async def _save(self) -> None:
        model = self.model.value or ""
        try:
            key = (self.key.value or "").strip() or None
            reply = await check_and_save(await self.studio.service(), self.url.value or "", model, key)
        except ModelServerError as exc:
            message = _("Not saved: {reason}").format(reason=exc)
            self.status.set_text(f"✘ {message}")
            ui.notify(message, type="negative", multi_line=True, close_button=True)
            return
        self.status.set_text(
            _("✔ Saved: {model} answered “{reply}”; tutors with the language model use it.").format(
                model=model, reply=reply[:40]
            )
        )
        ui.notify(_("Model saved"), type="positive")
