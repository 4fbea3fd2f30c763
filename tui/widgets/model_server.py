"""The tutor's model server on the connection screen: look for one on this machine, list the models
of an address, and save a chosen model once it has answered a short check
(core.client.model_servers). It applies to the embedded service; a remote's is set on that server."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

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
from tui.i18n import _
from tui.service_calls import studio


class ModelServerForm(Vertical):
    DEFAULT_CSS = """
    ModelServerForm { height: auto; }
    ModelServerForm #model-url { width: 2fr; background: $surface; }
    ModelServerForm #model-key { width: 1fr; background: $surface; }
    ModelServerForm #model-choice { width: 1fr; }
    ModelServerForm .model-failed { color: $error; }
    ModelServerForm .model-saved { color: $success; }
    """

    def compose(self) -> ComposeResult:
        yield Static(_("Model server for the tutor"), classes="section-title")
        yield Label(
            _(
                "An OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM) for tutors whose "
                "engine is the language model. A model is saved once it has answered a short check."
            ),
            classes="hint",
        )
        with Horizontal(classes="form-row"):
            yield Input(placeholder="http://127.0.0.1:11434/v1", id="model-url", compact=True)
            yield Input(
                placeholder=_("API key, if it needs one"), id="model-key", password=True, compact=True
            )
        with Horizontal(classes="form-row"):
            yield Button(_("Find on this machine"), id="find-models", compact=True)
            yield Button(_("List models"), id="list-models", compact=True)
            yield Select[str]([], prompt=_("model"), id="model-choice", compact=True)
            yield Button(_("Check and save"), id="save-model", variant="primary", compact=True)
        yield Label("", id="model-status", classes="hint")

    def on_mount(self) -> None:
        self.show_current()

    def status(self, text: str, kind: str = "") -> None:
        label = self.query_one("#model-status", Label)
        label.update(text)
        label.set_classes(f"hint {kind}".strip())

    def offer(self, models: Sequence[str], chosen: str | None = None) -> None:
        select = self.query_one("#model-choice", Select)
        select.set_options([(name, name) for name in models])
        if chosen in models:
            select.value = chosen
        elif models:
            select.value = models[0]

    @work(exclusive=True, group="model-server")
    async def show_current(self) -> None:
        service = await studio(self).ready()
        if embedded_settings(service) is None:
            self.status(_("The remote service's model server is set on that server."))
            for button in self.query(Button):
                button.disabled = True
            return
        choice = current_choice(service)
        if choice is None:
            self.status(_("No model server set: tutors answer with the built-in grounded tutor."))
            return
        self.query_one("#model-url", Input).value = choice.base_url
        self.offer([choice.model], choice.model)
        self.status(
            _("Tutors with the language model use {model} at {url}.").format(
                model=choice.model, url=choice.base_url
            )
        )

    @on(Button.Pressed, "#find-models")
    @work(exclusive=True, group="model-server")
    async def find(self) -> None:
        self.status(_("Looking on this machine…"))
        found = await find_local()
        if not found:
            ports = ", ".join(f"{port} ({name})" for name, port in model_servers.LOCAL_SERVERS)
            self.status(
                _("No model server answers on this machine's ports {ports}.").format(ports=ports),
                "model-failed",
            )
            return
        first = found[0]
        self.query_one("#model-url", Input).value = first.base_url
        self.offer(first.models)
        names = ", ".join(f"{server.name} ({server.base_url})" for server in found)
        self.status(
            _("Found {servers}; {count} models at the first.").format(servers=names, count=len(first.models))
        )

    @on(Button.Pressed, "#list-models")
    @on(Input.Submitted, "#model-url,#model-key")
    @work(exclusive=True, group="model-server")
    async def show_models(self) -> None:
        address, key = self._address()
        try:
            url = base_url_of(address)
            models = await list_models(url, key)
        except ModelServerError as exc:
            self.status(f"✘ {exc}", "model-failed")
            return
        self.offer(models)
        self.status(_("{count} models at {url}.").format(count=len(models), url=url))

    @on(Button.Pressed, "#save-model")
    @work(exclusive=True, group="model-server")
    async def save(self) -> None:
        address, key = self._address()
        chosen = self.query_one("#model-choice", Select).value
        model = chosen if isinstance(chosen, str) else ""
        self.status(_("Checking {model}…").format(model=model or "?"))
        try:
            reply = await check_and_save(await studio(self).ready(), address, model, key)
        except ModelServerError as exc:
            self.status(_("✘ Not saved: {reason}").format(reason=exc), "model-failed")
            return
        self.status(
            _("✔ Saved: {model} answered “{reply}”; tutors with the language model use it.").format(
                model=model, reply=reply[:40]
            ),
            "model-saved",
        )

    def _address(self) -> tuple[str, str | None]:
        key = self.query_one("#model-key", Input).value.strip() or None
        return self.query_one("#model-url", Input).value, key
