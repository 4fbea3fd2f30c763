"""What a screen shows in English although the app speaks German, French or Italian: the apps'
own strings from the catalogue (an English message on screen is one left untranslated, or not
marked for translation), and words the apps show without marking them (Textual's key help and
command palette, pydantic's messages, NiceGUI's pages).

The catalogue's messages are searched as the user reads them: without their placeholders, each
literal part of four letters or more, the first words of a long one (a long message wraps). A
part that the language's own translations use too is no English ("Feedback", "Simulation",
"Tutor"), nor is a word of the content on screen that authors wrote (a demo task in English).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from core.client.i18n import DOMAIN, LOCALE_DIR
from core.client.templates import ID_STEMS
from core.client.vocabulary import AUTHOR_ID, REHEARSAL_LEARNER_ID, TEACHER_ID

ROOT = Path(__file__).resolve().parent.parent

KNOWN_ENGLISH = (
    # Textual's command palette, its built-in commands and its key help (F1)
    "Search for commands",
    "No matches found",
    "Quit the application",
    "Quit the app and return",
    "Change the current theme",
    "Show help for the focused widget",
    "Save an SVG",
    "Focus Next",
    "Focus Previous",
    "Copy selected text",
    "Move cursor",
    "Delete character",
    "Scroll Up",
    "Cursor up",
    "Toggle dark mode",
    # pydantic's messages in an editor
    "Field required",
    "Input should be",
    "String should have",
    "List should have",
    "Extra inputs are not permitted",
    "Value error",
    # the rules of core.api
    "must be correct, found",
    "needs at least two options",
    "once each for its",
    # NiceGUI's own pages and controls
    "Page not found",
    "Connection lost",
    "Trying to reconnect",
)
"""English the apps show without a catalogue entry, unless translated where they show it."""

KEY_NAMES = "esc end home space tab enter shift ctrl alt super del pgup pgdn"
"""The keys as Textual's help and footer name them: a key's name, not a word of the apps."""

MIN_LETTERS = 4
LEADING_WORDS = 4


def _literal_parts(message: str) -> list[str]:
    """The parts of a message a screen shows as written: between its placeholders and markup."""
    text = re.sub(r"\[/?[a-z ]*\]", " ", message)  # Textual markup: [b]…[/]
    text = text.replace("{{", "{").replace("}}", "}")
    parts = re.split(r"\{[^{}]*\}|\n|…|·|:|;|\(|\)|“|”|„|\"", text)
    found = []
    for part in parts:
        words = part.strip(" .,!?–—-'’*").split()
        if not words:
            continue
        found.append(" ".join(words))
        if len(words) > LEADING_WORDS:
            found.append(" ".join(words[:LEADING_WORDS]))
    return [p for p in found if sum(c.isalpha() for c in p) >= MIN_LETTERS]


def _catalogue(language: str):
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        return read_po(file)


def _texts(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


@cache
def translations(language: str) -> str:
    """Every translation of the language's catalogue, one text."""
    return " \n ".join(t for m in _catalogue(language) if m.id for t in _texts(m.string))


@cache
def english_words(language: str) -> frozenset[str]:
    """The words of the apps' English (three letters or more, in lower case) that none of the
    language's translations uses: one on a screen in the language is English left over, marked
    for translation or not ("yes", "evidence", "unchanged")."""
    english = set().union(*(_words(t) for m in _catalogue(language) if m.id for t in _texts(m.id)))
    return frozenset(english - _words(translations(language)))


@cache
def english_parts(language: str) -> dict[str, str]:
    """Each literal part of the catalogue's English that must not be on a screen in ``language``,
    with the message it belongs to."""
    catalogue = _catalogue(language)
    translations_ = translations(language)
    own_words = set(re.findall(r"\w+", translations_))
    parts: dict[str, str] = {}
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for source in ids:
            for part in _literal_parts(source):
                if part in translations_:
                    continue  # the language writes it so too
                if " " not in part and part in own_words:
                    continue
                parts.setdefault(part, source)
    return parts


def _pattern(part: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + r"\s+".join(map(re.escape, part.split())) + r"(?![\w])")


GENERATED_IDS = re.compile(r"\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b[0-9a-f]{6,}\b")
"""Ids the service makes (UUIDs, their hex tails): letters in them are no words of the apps."""


def english_on_screen(text: str, language: str, content: str = "") -> list[str]:
    """The English in ``text``, a screen of an app speaking ``language``: each a catalogue part
    ("…  (from msgid …)") or a known English phrase. ``content`` is what authors wrote that the
    screen may show (tasks, tutors, answers): its words are theirs, not the app's."""
    content_words = set(re.findall(r"\w+", content))
    text = GENERATED_IDS.sub(" ", text)  # an interaction's id may hold "bad" or "add" in its hex
    found = sorted(
        f"{word!r} (an English word of the apps)"
        for word in _words(text) & english_words(language) - _words(content)
    )
    for phrase in KNOWN_ENGLISH:
        if _pattern(phrase).search(text) and phrase not in content:
            found.append(phrase)
    for part, source in english_parts(language).items():
        if " " not in part and part in content_words:
            continue
        if part in content:
            continue
        if _pattern(part).search(text):
            found.append(f"{part!r} (from {source!r})")
    return found


@cache
def demo_content() -> str:
    """What authors wrote that the apps show over the demo data: the demo tasks and tutors, the
    engine's messages (in the task's language: an English task's feedback is English), the ids
    the apps make (the tenant, an answering author, a new task's id) and the keys' names."""
    files = [
        *ROOT.glob("assets/tasks/*.json"),
        *ROOT.glob("assets/tutors/*.json"),
        *ROOT.glob("assets/messages/**/*"),
    ]
    texts = [path.read_text(encoding="utf-8") for path in sorted(files) if path.is_file()]
    ids = ["default", AUTHOR_ID, TEACHER_ID, REHEARSAL_LEARNER_ID, *ID_STEMS.values(), KEY_NAMES]
    return "\n".join([*texts, *ids])
