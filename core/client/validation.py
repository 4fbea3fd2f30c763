"""Check a task document as the service would, and say where each problem is, for both editors.

The editors validate with the wire models and the cross-field rules of core.api, so authors see
the service's own messages beside the field before they save. Places are said as an author counts:
"options › 2 › content" is the second option, not pydantic's 0-based "options.1.content".

The messages are in the app's language: pydantic's error types and the cross-field rules of
core.api each have a message in the catalogue (``language``; English is the source), so a German
editor never says "Field required". A message of a kind not listed here is shown as it comes.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from core.api import TASK_ADAPTER, InvalidParameter, TaskDefinition, check_task
from core.api.tasks import Identifier
from core.client.i18n import N_, SOURCE_LANGUAGE, translate

Loc = tuple[Any, ...]

MESSAGES: dict[str, str] = {
    "missing": N_("Field required"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_type": N_("Input should be a text"),
    "int_type": N_("Input should be a whole number"),
    "int_parsing": N_("Input should be a whole number"),
    "int_from_float": N_("Input should be a whole number"),
    "float_type": N_("Input should be a number"),
    "float_parsing": N_("Input should be a number"),
    "bool_type": N_("Input should be true or false"),
    "bool_parsing": N_("Input should be true or false"),
    "list_type": N_("Input should be a list"),
    "dict_type": N_("Input should be a group of fields"),
    "model_type": N_("Input should be a group of fields"),
    "model_attributes_type": N_("Input should be a group of fields"),
    "enum": N_("Input should be {expected}"),
    "literal_error": N_("Input should be {expected}"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "union_tag_invalid": N_("Unknown task kind {tag}: expected {expected_tags}"),
    "union_tag_not_found": N_("The task kind is missing"),
    "string_pattern_mismatch": N_("no “/”, and no space at the start"),
    "invalid_task_type": N_("The task kind (type) is none the studio knows"),
}
"""A message for each kind of pydantic error an editor can meet (pydantic's ``type``), with the
error's context as placeholders. A pattern is said in words: the only patterns of a task are those
of its identifiers."""

COUNTED: dict[str, tuple[str, str, str]] = {
    "string_too_short": (
        "min_length",
        N_("String should have at least {count} character"),
        N_("String should have at least {count} characters"),
    ),
    "string_too_long": (
        "max_length",
        N_("String should have at most {count} character"),
        N_("String should have at most {count} characters"),
    ),
    "too_short": (
        "min_length",
        N_("List should have at least {count} item"),
        N_("List should have at least {count} items"),
    ),
    "too_long": (
        "max_length",
        N_("List should have at most {count} item"),
        N_("List should have at most {count} items"),
    ),
}
"""Messages with a count: the count's key in the error's context, then the message for one and for
several (each a message of its own: the counts of a task's limits are never 0)."""

VALUE_ERRORS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"an id may not contain control or invisible characters \((?P<code>U\+[0-9A-F]+)\)"),
        N_("an id may not contain control or invisible characters ({code})"),
    ),
]
"""The models' own checks (pydantic's ``value_error``), recognised by their English message."""

RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"a multiple-choice task needs at least two options$"),
        N_("a multiple-choice task needs at least two options"),
    ),
    (
        re.compile(r"exactly one option must be correct, found (?P<count>\d+)$"),
        N_("exactly one option must be correct, found {count}"),
    ),
    (re.compile(r"a multiple-responses task needs options$"), N_("a multiple-responses task needs options")),
    (
        re.compile(
            r"the problem statement must mark (?P<first>\{\{1\}\}) … (?P<last>\{\{\d+\}\}) once each for its (?P<count>\d+) blanks; found (?P<found>.*)$"
        ),
        N_(
            "the problem statement must mark {first} … {last} once each for its {count} blanks; found {found}"
        ),
    ),
    (
        re.compile(
            r"the problem statement must mark (?P<first>\{\{1\}\}) … (?P<last>\{\{\d+\}\}) once each for its (?P<count>\d+) choices; found (?P<found>.*)$"
        ),
        N_(
            "the problem statement must mark {first} … {last} once each for its {count} choices; found {found}"
        ),
    ),
    (
        re.compile(r"choice (?P<number>\d+): correct (?P<correct>.*) is not an option$"),
        N_("choice {number}: the correct {correct} is not one of its options"),
    ),
    (re.compile(r"a simulation task needs a persona$"), N_("a simulation task needs a persona")),
]
"""The cross-field rules of core.api (``check_task``), recognised by their English message."""

NO_MARKERS = N_("no markers")
OR = N_("or")


def _expected(text: str, language: str) -> str:
    """pydantic's list of choices ("'A', 'B' or 'C'") with the language's "or"."""
    return text.replace(" or ", f" {translate(language, OR)} ")


def error_message(error: ErrorDetails, language: str = SOURCE_LANGUAGE) -> str:
    """One pydantic error in the language (English for a kind not listed: pydantic's own)."""
    kind, context = error["type"], dict(error.get("ctx") or {})
    if kind in COUNTED:
        key, one, several = COUNTED[kind]
        count = int(context.get(key, 0))
        return translate(language, one if count == 1 else several).format(count=count)
    if kind == "value_error":
        detail = str(context.get("error", error["msg"]))
        for pattern, message in VALUE_ERRORS:
            if found := pattern.search(detail):
                return translate(language, message).format(**found.groupdict())
        return detail
    if kind in MESSAGES:
        for key in ("expected", "expected_tags"):
            if key in context:
                context[key] = _expected(str(context[key]), language)
        try:
            return translate(language, MESSAGES[kind]).format(**context)
        except (KeyError, IndexError):
            return translate(language, MESSAGES[kind])
    return error["msg"]


def rule_message(message: str, language: str = SOURCE_LANGUAGE) -> str:
    """A cross-field rule's message (core.api.check_task) in the language, without the task's id
    (the editor is that task's)."""
    text = re.sub(r"^task '.*?': ", "", message)
    for pattern, source in RULES:
        if found := pattern.search(text):
            values = found.groupdict()
            if values.get("found") == "no markers":
                values["found"] = translate(language, NO_MARKERS)
            return translate(language, source).format(**values)
    return text


def validate(
    document: dict[str, Any], language: str = SOURCE_LANGUAGE
) -> tuple[TaskDefinition | None, dict[Loc, str]]:
    """The task and no problems, or None and the problems by location (``()`` for the whole task),
    said in ``language``."""
    try:
        task = TASK_ADAPTER.validate_python(document)
    except ValidationError as exc:
        problems: dict[Loc, str] = {}
        for error in exc.errors():
            # The first place is the task kind's tag ("MultipleChoiceTask"), whichever spelling the
            # document used: it is no field.
            loc = error["loc"][1:] if error["loc"] and str(error["loc"][0]).endswith("Task") else error["loc"]
            problems.setdefault(tuple(loc), error_message(error, language))
        return None, problems
    try:
        check_task(task)
    except InvalidParameter as exc:
        return None, {(): rule_message(exc.message, language)}
    return task, {}


_ID = TypeAdapter(Identifier)


def id_problem(value: str, language: str = SOURCE_LANGUAGE) -> str | None:
    """What is wrong with a task id by the API's rules (empty, "/", hidden characters), or None."""
    try:
        _ID.validate_python(value)
    except ValidationError as exc:
        return error_message(exc.errors()[0], language)
    return None


def field_path(loc: Loc) -> str:
    """A problem's place as an author counts: names as they are, positions from 1."""
    return " › ".join(str(part + 1) if isinstance(part, int) else str(part) for part in loc)


def problem_lines(problems: dict[Loc, str]) -> list[str]:
    """One line a problem: its place and what is wrong (the whole task's problems without a place)."""
    return [message if not loc else f"{field_path(loc)}: {message}" for loc, message in problems.items()]
