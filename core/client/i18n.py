"""The apps' own words in the author's language: gettext catalogues made with Babel.

Both apps mark their strings with ``_()`` (translated where they are used) or ``N_()`` (a string
kept in a table at import time and translated where it is shown). The catalogues live in
``core/client/locale/<lang>/LC_MESSAGES/studio.po`` with their compiled ``.mo`` beside them;
``make translations`` extracts the marked strings, updates the catalogues and compiles them, and
``tests/core/client/test_translations.py`` fails when a marked string has no translation or a
``.mo`` is older than its ``.po``. Content that authors write (tasks, feedback in the task's
language) is not the apps' to translate.

Dates and numbers are formatted for the language with Babel's CLDR data.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path

from babel.dates import format_date as babel_date
from babel.dates import format_datetime as babel_datetime
from babel.numbers import format_decimal

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "studio"
UI_LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano"}
"""The languages the apps speak, each named in itself (as a language menu shows them)."""
SOURCE_LANGUAGE = "en"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str) -> str:
    """Marks a string for extraction where it cannot be translated yet (a table built at import)."""
    return message


def supported(tag: str | None) -> str | None:
    """The UI language a locale tag names ("de_CH.UTF-8", "fr-FR", "it"), if the apps speak it."""
    if not tag:
        return None
    base = tag.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in UI_LANGUAGES else None


def system_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system locale, as gettext reads it (LANGUAGE may list several)."""
    for variable in LOCALE_VARIABLES:
        for tag in environ.get(variable, "").split(":"):
            if language := supported(tag):
                return language
    return SOURCE_LANGUAGE


def ui_language(setting: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The setting (FEEDBACK_STUDIO_UI_LANGUAGE) where the apps speak it, else the system's."""
    return supported(setting) or system_language(environ)


def accepted(header: str | None) -> str | None:
    """The language the apps speak that a browser's Accept-Language header ranks first
    ("fr-CH, fr;q=0.9, de;q=0.8" → "fr"), or None: a page shown before the browser has chosen
    (the login page) speaks the browser's language."""
    ranked: list[tuple[float, str]] = []
    for item in (header or "").split(","):
        tag, _, weight = item.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        if quality > 0:
            ranked.append((quality, tag.strip()))
    ranked.sort(key=lambda pair: -pair[0])  # stable: the header's order among equal weights
    return next((language for _, tag in ranked if (language := supported(tag))), None)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of a language; English, and any missing catalogue, is the source itself."""
    return gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def translate(language: str, message: str) -> str:
    return translations(language).gettext(message)


def plural(language: str, singular: str, several: str, n: int) -> str:
    return translations(language).ngettext(singular, several, n)


def number(value: float, language: str, digits: int = 2) -> str:
    """A number as the language writes it (1,234.5 · 1.234,5 · 1 234,5)."""
    return format_decimal(value, format=f"#,##0.{'#' * digits}" if digits else "#,##0", locale=language)


def day(value: date, language: str) -> str:
    """A day as the language writes it, short (25.11.26 · 11/25/26)."""
    return babel_date(value, format="short", locale=language)


def date_time(value: datetime, language: str) -> str:
    """A moment as the language writes it, short (25.11.26, 14:03 · 11/25/26, 2:03 PM)."""
    return babel_datetime(value, format="short", locale=language)
