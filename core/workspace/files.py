"""Tasks as files: one task a file, JSON or YAML, to keep in version control and edit in any editor.

An export writes every task of a tenant, its test answers (where the service keeps them) and the
JSON Schema the task files refer to. The content is a function of the task alone, so a round trip
export → import → export gives the same bytes, and a diff of two exports shows only real edits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.api import (
    TASK_ADAPTER,
    InvalidParameter,
    TaskBase,
    TaskDefinition,
    TestAnswerSet,
    check_task,
)
from core.workspace.documents import Format, format_of, parse, safe_file_stem, write
from core.workspace.expectations import is_answer_file, write_test_answers
from core.workspace.schema import SCHEMA_FILE, schema_text

SCHEMA_REF = f"./{SCHEMA_FILE}"


def task_document(task: TaskBase) -> dict[str, Any]:
    """The task in the field order of its model, without the optional fields it leaves empty."""
    return task.model_dump(mode="json", by_alias=True, exclude_none=True)


def task_file_path(directory: Path, task_id: str, fmt: Format) -> Path:
    return directory / f"{safe_file_stem(task_id)}.{fmt}"


def write_task(directory: Path, task: TaskBase, fmt: Format) -> Path:
    return write(task_file_path(directory, task.id, fmt), task_document(task), fmt, SCHEMA_REF)


def read_task(path: Path) -> TaskDefinition:
    """A task file's task, checked as the service would check it; ValueError names the file."""
    task = parse(path, TASK_ADAPTER, "a task definition")
    try:
        check_task(task)
    except InvalidParameter as exc:
        raise ValueError(f"{path}: {exc.message}") from None
    return task


@dataclass(frozen=True)
class Workspace:
    """The task files and test-answer files found under some paths."""

    task_files: list[Path]
    answer_files: list[Path]

    @classmethod
    def find(cls, paths: Iterable[Path]) -> Workspace:
        """Files given, and the .json/.yaml/.yml files of folders given (not recursing, not schemas)."""
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files += sorted(p for p in path.iterdir() if p.is_file() and format_of(p))
            elif path.is_file():
                files.append(path)
            else:
                raise ValueError(f"{path}: no such file or folder")
        files = [f for f in files if not f.name.endswith(".schema.json")]
        return cls(
            task_files=[f for f in files if not is_answer_file(f)],
            answer_files=[f for f in files if is_answer_file(f)],
        )


def write_files(
    directory: Path, tasks: Iterable[TaskBase], answer_sets: Iterable[TestAnswerSet], fmt: Format
) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    schema = directory / SCHEMA_FILE
    schema.write_text(schema_text(), encoding="utf-8")
    return [
        schema,
        *(write_task(directory, task, fmt) for task in tasks),
        *(write_test_answers(directory, answers, fmt) for answers in answer_sets),
    ]
