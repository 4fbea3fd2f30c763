"""Settings (pydantic-settings; environment prefix FEEDBACK_STUDIO_, or the command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from platformdirs import user_data_path
from pydantic import Field
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

APP_NAME = "feedback-studio"
MODEL_SERVER_KEYS = ("llm_base_url", "llm_model", "llm_api_key")
"""The settings the apps' Settings save for the model server (core.client.model_servers)."""


def default_database_url() -> str:
    path = user_data_path(APP_NAME, appauthor=False, ensure_exists=True) / "studio.sqlite3"
    return f"sqlite+aiosqlite:///{path}"


def model_server_file() -> Path:
    """Where the apps keep the model server chosen in their Settings, beside the database."""
    return user_data_path(APP_NAME, appauthor=False, ensure_exists=True) / "model-server.json"


class SavedModelServer(PydanticBaseSettingsSource):
    """The model server saved by the apps, below the environment and the command line: a file
    that is missing or unreadable gives nothing (the tutor then has no model, as before)."""

    def __call__(self) -> dict[str, Any]:
        try:
            saved = json.loads(model_server_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(saved, dict):
            return {}
        return {k: v for k, v in saved.items() if k in MODEL_SERVER_KEYS and isinstance(v, str) and v}

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ reads the whole file at once


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FEEDBACK_STUDIO_", extra="ignore")

    database_url: str = Field(default_factory=default_database_url)
    host: str = "127.0.0.1"
    port: int = 8000
    public_base_url: str | None = None
    """Base of taskLink; defaults to http://{host}:{port}."""

    remote_url: str | None = None
    token: str | None = None
    remote_timeout_seconds: float = 30.0

    default_tenant: str = "default"
    seed_demo: bool = True
    """Seed the demo tasks and tutors into an empty embedded database."""

    tutor_engine: Literal["grounded", "llm"] = "grounded"
    llm_base_url: str | None = None
    llm_model: str = "llama3.2"
    llm_api_key: str | None = None
    llm_timeout_seconds: float = 30.0
    """Connect and read time-out of the model server, and the longest wait for its first text
    (keep-alive comments are no text)."""
    llm_deadline_seconds: float = 60.0
    """The whole reply of the model, retries after a busy answer (429/503) included; past it the
    learner gets the grounded tutor's reply."""

    simulation_default_minutes: float = 30.0
    max_body_bytes: int = 1_000_000
    rate_limit_per_minute: int = 0
    """Requests a token may make per minute; 0 turns the limit off."""

    log_level: str = "INFO"

    opentelemetry: bool = False
    """FastAPI's native OpenTelemetry (a span, metrics and logs for every request, through the
    global providers that an OpenTelemetry SDK configures). Off, the app does not ask those
    providers on every request whether one is configured (docs/deploy.md)."""

    web_password: str | None = None
    """Opens the web app's pages when it asks for a login; unset, a random token is printed."""
    web_login: bool | None = None
    """Whether the web app's pages ask for a login; unset, they do when bound beyond loopback."""

    learner_tasks: list[str] = Field(default_factory=list)
    """Learner mode of the web app (`web --learners TASK…`): only these tasks, to answer, with their
    tutor; no authoring, no settings, no remote connections."""

    ui_language: str | None = None
    """The apps' language (en, de, fr, it); unset: the system locale's (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG), else English. The web app can switch per browser in Settings."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            env_settings,
            dotenv_settings,
            file_secret_settings,
            SavedModelServer(settings_cls),
        )

    @property
    def base_url(self) -> str:
        return (self.public_base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
