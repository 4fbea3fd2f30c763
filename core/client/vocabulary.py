"""The product's words, written once for both apps: what the task types are called, which reasons
fit a rating, and who the apps say is asking.

Labels are marked ``N_()``: each app translates them where it shows them, in its own language
(``tui.i18n._``, ``webui.i18n._``), so a label reads the same in the terminal and in the browser.
"""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

from core.api import (
    AspectType,
    Correctness,
    Matching,
    RatingSubtype,
    RatingType,
    TaskType,
    try_parse_task_type,
)
from core.client.i18n import N_

TYPE_LABELS: dict[TaskType, str] = {
    TaskType.FREEFORM_TEXT: N_("Free text"),
    TaskType.MULTIPLE_CHOICE: N_("Multiple choice"),
    TaskType.MULTIPLE_RESPONSES: N_("Multiple responses"),
    TaskType.IN_TEXT_FILL_IN_BLANKS: N_("Fill in the blanks"),
    TaskType.IN_TEXT_CHOICES: N_("Choices in text"),
    TaskType.SIMULATION: N_("Simulation"),
}
"""The author-facing name of each task type (untranslated; in the order the apps offer them)."""


def type_label_source(task_type: str | TaskType) -> str:
    """The untranslated label of a task type given in any of its API spellings; an unknown name
    is shown as it is (a foreign remote may know more types than this client)."""
    parsed = try_parse_task_type(task_type)
    return TYPE_LABELS[parsed] if parsed else str(task_type)


VERDICT_LABELS: dict[Correctness, str] = {
    Correctness.CORRECT: N_("CORRECT"),
    Correctness.PARTIAL: N_("PARTIAL"),
    Correctness.WRONG: N_("WRONG"),
    Correctness.UNKNOWN: N_("UNKNOWN"),
}
"""A verdict as a word (untranslated; the apps show it in capitals, as a stamp)."""

ASPECT_TYPE_LABELS: dict[AspectType, str] = {
    AspectType.CONCEPT: N_("Concept"),
    AspectType.MISCONCEPTION: N_("Misconception"),
}
"""The kind of an aspect as a word (untranslated)."""

MATCHING_LABELS: dict[Matching, str] = {
    Matching.EXACT: N_("Exactly as written"),
    Matching.CASE_INSENSITIVE: N_("Ignoring upper and lower case"),
    Matching.FUZZY: N_("Allowing small typos"),
    Matching.NUMERIC: N_("As a number"),
}
"""How a blank's answer is matched, in words (untranslated)."""

CHOICE_LABELS: dict[str, str] = {
    str(k): v for k, v in [*ASPECT_TYPE_LABELS.items(), *MATCHING_LABELS.items()]
}
"""The words of the editors' fixed choices by their wire value ("CASE_INSENSITIVE")."""

SERVICE_WORDS: dict[str, str] = {
    "local": N_("local"),
    "remote": N_("remote"),
    "local user": N_("local user"),
    "access": N_("access"),
    "write": N_("write"),
    "delete": N_("delete"),
}
"""Words a service reports that the apps show (ServiceInfo: its mode, the embedded principal's
name, the permissions), untranslated; any other value is a name and shown as it is."""


def service_word_source(value: str) -> str:
    return SERVICE_WORDS.get(value, value)


def language_name(code: str, language: str) -> str:
    """A task language's name ("DE_CH") in the app's ``language``: "allemand (Suisse)" (CLDR)."""
    try:
        return Locale.parse(code.replace("EN_UK", "EN_GB")).get_display_name(language) or code
    except (ValueError, UnknownLocaleError):
        return code


def verdict_label_source(verdict: str) -> str:
    """The untranslated word of a verdict in any spelling of the wire ("CORRECT"); an unknown one
    as it is."""
    try:
        return VERDICT_LABELS[Correctness(verdict)]
    except ValueError:
        return str(verdict)


RATING_SUBTYPES: dict[RatingType, tuple[RatingSubtype, ...]] = {
    RatingType.GOOD: (
        RatingSubtype.CLEAR_EXPLANATION,
        RatingSubtype.HELPFUL_HINT,
        RatingSubtype.MOTIVATION_BOOST,
        RatingSubtype.CORRECT_ANSWER,
        RatingSubtype.LEARNED_SOMETHING_NEW,
        RatingSubtype.LIKED_FORMAT,
    ),
    RatingType.BAD: (
        RatingSubtype.UNCLEAR_EXPLANATION,
        RatingSubtype.UNHELPFUL,
        RatingSubtype.TOO_STRICT,
        RatingSubtype.INCORRECT_FEEDBACK,
        RatingSubtype.TOO_GENERIC,
        RatingSubtype.NOT_RELEVANT,
    ),
}
"""The reasons that fit each kind of rating: a GOOD rating cannot carry a complaint (API.md 2.7)."""


SUBTYPE_LABELS: dict[RatingSubtype, str] = {
    RatingSubtype.CLEAR_EXPLANATION: N_("Clear explanation"),
    RatingSubtype.HELPFUL_HINT: N_("Helpful hint"),
    RatingSubtype.MOTIVATION_BOOST: N_("Motivation boost"),
    RatingSubtype.CORRECT_ANSWER: N_("Correct answer"),
    RatingSubtype.LEARNED_SOMETHING_NEW: N_("Learned something new"),
    RatingSubtype.LIKED_FORMAT: N_("Liked the format"),
    RatingSubtype.UNCLEAR_EXPLANATION: N_("Unclear explanation"),
    RatingSubtype.UNHELPFUL: N_("Unhelpful"),
    RatingSubtype.TOO_STRICT: N_("Too strict"),
    RatingSubtype.INCORRECT_FEEDBACK: N_("Incorrect feedback"),
    RatingSubtype.TOO_GENERIC: N_("Too generic"),
    RatingSubtype.NOT_RELEVANT: N_("Not relevant"),
}
"""A rating reason as words (untranslated: each app translates it where it shows it)."""

COPY_TITLE = N_("{title} (copy)")
"""The title of a duplicated task, made from the original's (untranslated)."""


AUTHOR_ID = "studio-author"
"""The userId of answers an author tries in either app, so its interactions read as the author's."""

TEACHER_ID = "studio-teacher"
"""The userId of a teacher's chat with a tutor in either app."""

REHEARSAL_LEARNER_ID = "studio-learner"
"""The userId of the learner an author plays when rehearsing a simulation in either app."""


VERDICTS: tuple[Correctness, ...] = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)
"""The verdicts a person gives (a teacher's override, an author's gold answer, a test answer's
expectation, a filter of the history); UNKNOWN is the engine's alone, where it cannot judge."""
