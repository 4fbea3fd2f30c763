"""Check a task document as the service would, and say where each problem is, for both editors.

The editors validate with the wire models and the cross-field rules of core.api, so authors see
the service's own messages beside the field before they save. Places are said as an author counts:
"options › 2 › content" is the second option, not pydantic's 0-based "options.1.content".
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from core.api import TASK_ADAPTER, InvalidParameter, TaskBase, check_task
from core.api.tasks import Identifier

Loc = tuple[Any, ...]

FRIENDLIER = {"string_pattern_mismatch": "no “/”, and no space at the start"}
"""Pydantic messages that would show a regular expression, said so that an author can act on them
(the only patterns of a task are those of its identifiers)."""


def validate(document: dict[str, Any]) -> tuple[TaskBase | None, dict[Loc, str]]:
    """The task and no problems, or None and the problems by location (``()`` for the whole task)."""
    try:
        task = TASK_ADAPTER.validate_python(document)
    except ValidationError as exc:
        problems: dict[Loc, str] = {}
        for error in exc.errors():
            # The first place is the task kind's tag ("MultipleChoiceTask"), whichever spelling the
            # document used: it is no field.
            loc = error["loc"][1:] if error["loc"] and str(error["loc"][0]).endswith("Task") else error["loc"]
            problems.setdefault(tuple(loc), FRIENDLIER.get(error["type"], error["msg"]))
        return None, problems
    try:
        check_task(task)
    except InvalidParameter as exc:
        return None, {(): exc.message}
    return task, {}


_ID = TypeAdapter(Identifier)


def id_problem(value: str) -> str | None:
    """What is wrong with a task id by the API's rules (empty, "/", hidden characters), or None."""
    try:
        _ID.validate_python(value)
    except ValidationError as exc:
        error = exc.errors()[0]
        return FRIENDLIER.get(error["type"], error["msg"]).removeprefix("Value error, ")
    return None


def field_path(loc: Loc) -> str:
    """A problem's place as an author counts: names as they are, positions from 1."""
    return " › ".join(str(part + 1) if isinstance(part, int) else str(part) for part in loc)


def problem_lines(problems: dict[Loc, str]) -> list[str]:
    """One line a problem: its place and what is wrong (the whole task's problems without a place)."""
    return [message if not loc else f"{field_path(loc)}: {message}" for loc, message in problems.items()]
