"""The terminal app's words in the author's language (core.client.i18n).

The language is fixed when the app starts: FEEDBACK_STUDIO_UI_LANGUAGE, else the system locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English. It is read when this module is imported, so
that tables built at import (key bindings, field labels) are in it too.
"""

from __future__ import annotations

import os
from datetime import datetime

from core.client import i18n

LANGUAGE = i18n.ui_language(os.environ.get("FEEDBACK_STUDIO_UI_LANGUAGE"))


def _(message: str) -> str:
    return i18n.translate(LANGUAGE, message)


def plural(singular: str, several: str, n: int) -> str:
    return i18n.plural(LANGUAGE, singular, several, n)


def number(value: float, digits: int = 2) -> str:
    return i18n.number(value, LANGUAGE, digits)


def date_time(value: datetime) -> str:
    return i18n.date_time(value, LANGUAGE)
