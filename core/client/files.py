"""Importing and exporting task files through any Service (the embedded one or a remote)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from core.api import TestAnswersRequest
from core.service.base import Service
from core.workspace.documents import Format
from core.workspace.expectations import read_test_answers
from core.workspace.files import Workspace, read_task, write_files


@dataclass(frozen=True)
class Imported:
    path: Path
    taskId: str
    action: str
    """CREATED, UPDATED, UNCHANGED for a task; the number of test answers for a test-answer file."""


async def import_files(
    service: Service,
    tenant: str,
    paths: Iterable[Path],
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> list[Imported]:
    """Upsert the tasks of the files, then replace each task's test answers by those of its file.

    Every file is read and checked before anything is sent, so a typo leaves the service untouched.
    ``progress`` is told after every file sent how many are done of how many.
    """
    found = Workspace.find(paths)
    tasks = [(path, read_task(path)) for path in found.task_files]
    answer_sets = [(path, read_test_answers(path)) for path in found.answer_files]
    if answer_sets and not (await service.info()).extensions:
        raise ValueError("the service keeps no test answers (no authoring extensions); retest with --files")
    done = []
    total = len(tasks) + len(answer_sets)
    for path, task in tasks:
        response = await service.upsert_task(tenant, task)
        done.append(Imported(path, task.id, response.action.value))
        progress(len(done), total)
    for path, answers in answer_sets:
        stored = await service.put_test_answers(
            tenant, answers.taskId, TestAnswersRequest(answers=answers.answers)
        )
        done.append(Imported(path, answers.taskId, f"{len(stored.answers)} test answers"))
        progress(len(done), total)
    return done


async def export_files(service: Service, tenant: str, directory: Path, fmt: Format) -> list[Path]:
    """Write every task of the tenant (and its test answers) into the folder, with the schema."""
    tasks, answer_sets = [], []
    for summary in sorted(await service.list_tasks(tenant), key=lambda s: s.taskId):
        tasks.append((await service.get_task(tenant, summary.taskId)).definition)
        answer_sets.append(await service.list_test_answers(tenant, summary.taskId))
    return write_files(directory, tasks, [a for a in answer_sets if a.answers], fmt)
