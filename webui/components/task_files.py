"""Task definitions as files: one task a JSON document, the shape the API's upsert takes.

Imports accept one task or a list of them per file and validate each against the wire contract,
so a file that the API would refuse is refused here with the same reasons.
"""

from __future__ import annotations

import json

from pydantic import TypeAdapter, ValidationError

from core.api import TaskBase, TaskDefinition

TASK = TypeAdapter(TaskDefinition)


def task_to_json(task: TaskBase) -> str:
    return json.dumps(task.to_wire(), indent=2, ensure_ascii=False) + "\n"


def tasks_from_json(name: str, data: bytes) -> list[TaskBase]:
    """The tasks of one uploaded file; ValueError says which file and what does not fit."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{name}: not a JSON document ({exc})") from None
    documents = document if isinstance(document, list) else [document]
    tasks = []
    for i, item in enumerate(documents):
        try:
            tasks.append(TASK.validate_python(item))
        except ValidationError as exc:
            raise ValueError(f"{name}, task {i + 1}: {describe(exc)}") from None
    return tasks


def describe(exc: ValidationError, limit: int = 5) -> str:
    """A pydantic error as a few lines an author can act on (field path: problem)."""
    lines = [
        f"{'.'.join(str(p) for p in err['loc'] if not str(p).endswith('Task')) or 'task'}: {err['msg']}"
        for err in exc.errors()[:limit]
    ]
    more = exc.error_count() - limit
    return "; ".join(lines) + (f"; and {more} more" if more > 0 else "")
