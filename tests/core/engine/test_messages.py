"""The message catalogues: every sentence exists in every language and takes the same parameters.

A message is one sentence or a list of phrasings of it; every phrasing of every language takes the
parameters of the English one."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from core.api import Language
from core.assets import load_catalogue
from core.config import ASSETS_DIR

MESSAGES = ASSETS_DIR / "messages"
TRANSLATIONS = ["de", "fr", "it", "es"]


def table(language: str) -> dict[str, list[str]]:
    """Every message of a language as its phrasings, keyed '<area>.<name>' as the catalogue keys them."""
    return {
        f"{file.stem}.{key}": [text] if isinstance(text, str) else text
        for file in sorted((MESSAGES / language).glob("*.json"))
        for key, text in json.loads(file.read_text(encoding="utf-8")).items()
    }


def parameters(phrasings: list[str]) -> set[str]:
    """The parameters of a message; every phrasing takes the same ones."""
    each = [{name for _, name, _, _ in string.Formatter().parse(p) if name is not None} for p in phrasings]
    assert all(names == each[0] for names in each), phrasings
    return each[0]


ENGLISH = table("en")


def sample_params(key: str) -> dict[str, object]:
    return {name: 7 for name in parameters(ENGLISH[key])}


def variants(key: str) -> range:
    return range(len(ENGLISH[key]))


def test_english_has_the_engines_messages() -> None:
    assert {"choice.option_wrong", "choice.point_wrong", "blanks.gap_spelling"} <= ENGLISH.keys()


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_language_has_every_english_message_with_the_same_parameters(language: str) -> None:
    translated = table(language)

    assert sorted(ENGLISH.keys() - translated.keys()) == []
    assert sorted(translated.keys() - ENGLISH.keys()) == []
    assert {k: parameters(t) for k, t in translated.items()} == {k: parameters(t) for k, t in ENGLISH.items()}


@pytest.mark.parametrize("language", list(Language))
def test_every_message_formats_in_every_language(language: Language) -> None:
    catalogue = load_catalogue()
    for key in ENGLISH:
        for variant in variants(key):
            text = catalogue.phrasing(language, key, variant, **sample_params(key))
            assert text.strip()
            assert "{" not in text


def test_swiss_german_writes_ss_where_german_writes_sharp_s() -> None:
    catalogue = load_catalogue()
    german = [
        catalogue.phrasing(Language.DE_DE, key, v, **sample_params(key))
        for key in ENGLISH
        for v in variants(key)
    ]
    swiss = [
        catalogue.phrasing(Language.DE_CH, key, v, **sample_params(key))
        for key in ENGLISH
        for v in variants(key)
    ]

    assert any("ß" in text for text in german)
    assert not any("ß" in text for text in swiss)
    assert swiss == [text.replace("ß", "ss") for text in german]


def test_catalogue_files_are_the_same_in_every_language() -> None:
    areas = {lang: sorted(p.name for p in (MESSAGES / lang).glob("*.json")) for lang in ["en", *TRANSLATIONS]}
    assert all(files == areas["en"] for files in areas.values()), areas


def test_catalogues_are_valid_utf8_json_objects_of_sentences_or_phrasings() -> None:
    for file in Path(MESSAGES).glob("*/*.json"):
        content = json.loads(file.read_text(encoding="utf-8"))
        assert isinstance(content, dict), file
        for value in content.values():
            assert isinstance(value, str) or (value and all(isinstance(v, str) for v in value)), (file, value)


def test_the_tutor_has_two_phrasings_of_every_move_it_may_make_twice_in_a_row() -> None:
    """A reply is never the one before it: repeated moves need another way to say them."""
    repeatable = [
        "no_solution",
        "probe",
        "rephrase",
        "off_topic",
        "same_attempt",
        "keyword_list",
        "hint_where_to_look",
    ]
    for language in ["en", *TRANSLATIONS]:
        tutor = table(language)
        assert all(len(tutor[f"tutor.{move}"]) >= 2 for move in repeatable), language
