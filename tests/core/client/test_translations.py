"""The apps' catalogues: every string the apps mark is translated into German, French and Italian,
with the same placeholders, and the compiled catalogues are those of the current .po files."""

from __future__ import annotations

import ast
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from core.client.i18n import (
    DOMAIN,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    UI_LANGUAGES,
    date_time,
    day,
    number,
    translate,
)

ROOT = Path(__file__).resolve().parents[3]
KEYWORDS = {"_": None, "N_": None, "plural": (1, 2)}
TRANSLATED = [language for language in UI_LANGUAGES if language != SOURCE_LANGUAGE]


def marked_strings() -> set[str | tuple[str, str]]:
    """Every string the apps mark, as `make translations` extracts it (babel.cfg's method map)."""
    found: set[str | tuple[str, str]] = set()
    for folder in ("tui", "webui", "core/client"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else tuple(message))
    return found


MARKED = marked_strings()


CALL = re.compile(r"""\b_\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\)""")
"""A call of ``_`` on one string literal, as the source spells it."""


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def catalogue_path(language: str, suffix: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.{suffix}"


def test_the_apps_mark_their_strings() -> None:
    assert {"Library", "New task", "Save task", ("{count} answer", "{count} answers")} <= MARKED


def test_every_string_the_apps_translate_is_extracted() -> None:
    """A ``_("…")`` the extractor does not see (inside an f-string, say) is never in a catalogue:
    the screen shows it in English whatever the language."""
    unseen = []
    for folder in ("tui", "webui", "core/client"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for literal in CALL.findall(path.read_text(encoding="utf-8")):
                if ast.literal_eval(literal) not in MARKED:
                    unseen.append(f"{path.relative_to(ROOT)}: {literal}")
    assert unseen == [], "take the _() call out of the f-string: `make translations` skips it"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_string_is_translated_with_the_same_placeholders(language: str) -> None:
    with catalogue_path(language, "po").open("rb") as file:
        catalogue = read_po(file)
    missing, unfinished, wrong = [], [], []
    for source in sorted(MARKED, key=str):
        message = catalogue.get(source)
        if message is None:
            missing.append(source)
            continue
        texts = list(message.string) if isinstance(message.string, tuple) else [message.string]
        if message.fuzzy or not all(texts):
            unfinished.append(source)
        originals = source if isinstance(source, tuple) else (source,)
        if any(placeholders(t) != placeholders(originals[0]) for t in texts):
            wrong.append(source)
    assert (missing, unfinished, wrong) == ([], [], []), "run `make translations` and translate them"


def messages(mo: bytes) -> dict[object, object]:
    """A compiled catalogue's translations: what the apps read, without the header that names the
    Babel release that compiled it (a new release must not fail the suite)."""

    def frozen(text: object) -> object:
        return tuple(text) if isinstance(text, list | tuple) else text

    return {frozen(m.id): frozen(m.string) for m in read_mo(io.BytesIO(mo)) if m.id}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_that_of_the_po_file(language: str) -> None:
    with catalogue_path(language, "po").open("rb") as file:
        catalogue = read_po(file)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    shipped = messages(catalogue_path(language, "mo").read_bytes())
    assert messages(compiled.getvalue()) == shipped, "run `make translations`"
    assert len(shipped) > 100


def test_the_apps_speak_each_language_and_write_numbers_and_dates_its_way() -> None:
    from datetime import datetime

    assert [translate(language, "New task") for language in UI_LANGUAGES] == [
        "New task",
        "Neue Aufgabe",
        "Nouvelle tâche",
        "Nuovo compito",
    ]
    assert number(1234.5, "de") == "1.234,5" and number(1234.5, "en") == "1,234.5"
    assert date_time(datetime(2026, 11, 25, 14, 3), "de") == "25.11.26, 14:03"
    assert (
        day(datetime(2026, 11, 25).date(), "de") == "25.11.26"
        and day(datetime(2026, 11, 25).date(), "en") == "11/25/26"
    )


@pytest.mark.parametrize(
    ("setting", "environ", "language"),
    [
        (None, {"LANG": "de_CH.UTF-8"}, "de"),
        (None, {"LANGUAGE": "pt:it", "LANG": "fr_FR.UTF-8"}, "it"),
        (None, {"LC_ALL": "C.UTF-8"}, "en"),
        ("fr", {"LANG": "de_DE.UTF-8"}, "fr"),
        ("tlh", {"LANG": "it_IT"}, "it"),
    ],
)
def test_the_language_is_the_settings_else_the_systems(setting, environ, language) -> None:
    from core.client.i18n import ui_language

    assert ui_language(setting, environ) == language


def test_a_remote_that_does_not_answer_is_said_in_the_apps_language() -> None:
    """The client's own words for a hung remote (core.client.deadlines) follow the app's language;
    a failure the service described keeps the service's message (None here)."""
    from core.client.deadlines import failure_words, not_answering

    error = not_answering("http://127.0.0.1:9", 10)
    assert "does not answer: nothing came back within 10 s" in error.message
    german = failure_words(error, lambda message: translate("de", message))
    assert german is not None and german.startswith("der Server unter http://127.0.0.1:9 antwortet nicht")
    assert failure_words(ValueError("refused"), str) is None
