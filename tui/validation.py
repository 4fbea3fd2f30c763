"""Check a task document as the service would, and say where each problem is.

The editor validates on every keystroke with the wire models and the cross-field rules of
core.api, so authors see the service's own messages beside the field before they save.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from core.api import TASK_ADAPTER, InvalidParameter, TaskBase, check_task

Loc = tuple[Any, ...]

FRIENDLIER = {"string_pattern_mismatch": "no “/”, and no space at the start"}
"""Pydantic messages that would show a regular expression, said so that an author can act on them
(the only patterns of a task are those of its identifiers)."""


def validate(document: dict) -> tuple[TaskBase | None, dict[Loc, str]]:
    """The task and no problems, or None and the problems by location (``()`` for the whole task)."""
    try:
        task = TASK_ADAPTER.validate_python(document)
    except ValidationError as exc:
        problems: dict[Loc, str] = {}
        for error in exc.errors():
            loc = (
                error["loc"][1:] if error["loc"] and error["loc"][0] == document.get("type") else error["loc"]
            )
            problems.setdefault(tuple(loc), FRIENDLIER.get(error["type"], error["msg"]))
        return None, problems
    try:
        check_task(task)
    except InvalidParameter as exc:
        return None, {(): exc.message}
    return task, {}
