"""The JSON Schema of a task file, generated from the wire models so that it never drifts from them.

Editors (VS Code, JetBrains, anything with the YAML language server) use it to check and complete
task files: exported files refer to it. Two things are adjusted after generation, both to say
what the service really accepts: ``type`` is required (it picks the kind) and takes either
spelling (``FreeformTextTask`` or ``FREEFORM_TEXT``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.api import TASK_ADAPTER, TASK_MODELS

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILE = "task.schema.json"
DEFAULT_OUTPUT = Path("docs") / SCHEMA_FILE


def task_schema() -> dict[str, Any]:
    schema = TASK_ADAPTER.json_schema()
    for kind, model in TASK_MODELS.items():
        definition = schema["$defs"][model.__name__]
        definition["properties"]["type"] = {
            "enum": [kind.schema_name, kind.value],
            "title": "Type",
            "description": "The kind of task, as its schema name or its enum name.",
        }
        definition["required"] = ["id", "type", *(r for r in definition["required"] if r != "id")]
    return {
        "$schema": DIALECT,
        "title": "Feedback Studio task",
        "description": "One task definition of the Learner Feedback and Tutoring Service API (generated).",
        **schema,
    }


def schema_text() -> str:
    return json.dumps(task_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schema(path: Path = DEFAULT_OUTPUT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8")
    return path
