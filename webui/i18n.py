"""The web app's words in the language of the browser's choice (core.client.i18n).

Each browser keeps its choice in its user storage (Settings → Language); a browser without one
gets the app's default: FEEDBACK_STUDIO_UI_LANGUAGE, else the system locale of the server's
machine. ``_()`` reads the choice where the text is built, in a page or in an event handler.
"""

from __future__ import annotations

from datetime import date, datetime

from nicegui import app

from core.client import i18n
from core.client.i18n import N_

__all__ = ["N_", "_", "choose", "date_time", "day", "language", "number", "plural"]

STORAGE_KEY = "ui_language"


def language() -> str:
    """The language of the browser this code runs for."""
    try:
        chosen = app.storage.user.get(STORAGE_KEY)
    except RuntimeError:  # no browser: start-up, or a background task
        chosen = None
    default: str = getattr(app.state, STORAGE_KEY, i18n.SOURCE_LANGUAGE)
    return i18n.supported(chosen) or default


def set_default(setting: str | None) -> None:
    """The language of browsers that chose none (from the settings, at start-up)."""
    setattr(app.state, STORAGE_KEY, i18n.ui_language(setting))


def choose(chosen: str) -> None:
    app.storage.user[STORAGE_KEY] = chosen


def _(message: str) -> str:
    return i18n.translate(language(), message)


def plural(singular: str, several: str, n: int) -> str:
    return i18n.plural(language(), singular, several, n)


def number(value: float, digits: int = 2) -> str:
    return i18n.number(value, language(), digits)


def day(value: date) -> str:
    return i18n.day(value, language())


def date_time(value: datetime) -> str:
    return i18n.date_time(value, language())
