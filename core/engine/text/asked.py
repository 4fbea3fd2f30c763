"""How many items a question asks for, when it says so: "name two benefits and two drawbacks",
"state at least 4 objectives", "nenne zwei Gründe".

A list-like sample solution often offers more items than a learner must give ("one of the
following …"); the feedback then counts the items given against the number asked for, not
against every item of the list. Read only after a verb that asks ("name", "nenne", "citez"), so
that "a 3 m rail" or "explain in 2 sentences" ask for nothing.
"""

from __future__ import annotations

from core.engine.text.languages import number_words
from core.engine.text.tokens import Analysis

ASKING_VERBS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"name", "give", "list", "state", "describe", "explain", "mention", "identify", "provide"}
    ),
    "de": frozenset(
        {
            "nenne",
            "nennen",
            "nennt",
            "gib",
            "geben",
            "beschreibe",
            "beschreiben",
            "erkläre",
            "erklären",
            "zähle",
            "zählen",
            "führe",
            "führen",
        }
    ),
    "fr": frozenset(
        {
            "citez",
            "cite",
            "donnez",
            "donne",
            "nommez",
            "nomme",
            "indiquez",
            "indique",
            "décrivez",
            "décris",
            "expliquez",
            "explique",
        }
    ),
    "it": frozenset(
        {
            "elenca",
            "elencate",
            "indica",
            "indicate",
            "cita",
            "citate",
            "descrivi",
            "descrivete",
            "nomina",
            "spiega",
            "spiegate",
            "fornisci",
        }
    ),
    "es": frozenset({"nombra", "nombre", "cita", "indica", "enumera", "describe", "explica", "menciona"}),
}
BETWEEN: dict[str, frozenset[str]] = {
    "en": frozenset({"the", "at", "least", "and", "or"}),
    "de": frozenset({"die", "mindestens", "und", "oder", "auf"}),
    "fr": frozenset({"les", "au", "moins", "et", "ou"}),
    "it": frozenset({"i", "le", "gli", "almeno", "e", "o"}),
    "es": frozenset({"los", "las", "al", "menos", "y", "o"}),
}
"""Words that may stand between the verb and the number ("name the 2 phases", "state at least 4",
"name and describe two challenges"), and the conjunction before a further count ("two benefits
and two drawbacks")."""
REACH = 4
"""A further count ("and two drawbacks") follows the noun of the first within this many words."""


def asked_items(statement: Analysis) -> int | None:
    """The number of items the question asks for, summed over its requests; None if it names none."""
    base = statement.base
    verbs, between = ASKING_VERBS.get(base, frozenset()), BETWEEN.get(base, frozenset())
    numbers = number_words(base)
    words = [t.norm for t in statement.tokens]
    counted: dict[int, int] = {}
    for index, word in enumerate(words):
        if word not in verbs:
            continue
        position = index + 1
        while position < len(words) and (words[position] in between or words[position] in verbs):
            position += 1
        if position == len(words) or not (count := _count(words[position], numbers)):
            continue
        counted[position] = count
        # "two benefits and two drawbacks": a further count after a conjunction, soon after.
        for later in range(position + 2, min(position + 2 + REACH, len(words))):
            if words[later - 1] in between and (more := _count(words[later], numbers)):
                counted[later] = more
    return sum(counted.values()) or None


def _count(word: str, numbers: dict[str, str]) -> int:
    value = numbers.get(word, word)
    return int(value) if value.isdigit() and 2 <= int(value) <= 20 else 0
