"""Importing and exporting task files through any Service (the embedded one or a remote).

An import never replaces a stored task without being told to: a task whose id is taken by a
different stored task is a Replacement (with the fields that would change), and the import
refuses (WouldReplace) unless the caller passes the replacements the author agreed to; those are
then saved only on top of the version that was shown, and new tasks only as new tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.api import NotFound, TaskDefinition, TestAnswersRequest, UpsertTaskResponse
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


@dataclass(frozen=True)
class Replacement:
    """An imported task whose id is taken by a different stored task."""

    taskId: str
    version: int
    """The stored version that would be replaced; an agreed replacement is saved only on top of it."""
    fields: tuple[str, ...]
    """The task's fields whose value would change (title, options, …), in the file's order."""


class WouldReplace(ValueError):
    """The import would replace stored tasks the author has not agreed to replace."""

    def __init__(self, replacements: Sequence[Replacement]) -> None:
        self.replacements = list(replacements)
        listed = "; ".join(f"{r.taskId} (version {r.version}: {', '.join(r.fields)})" for r in replacements)
        super().__init__(f"these tasks exist and would be replaced: {listed}")


async def replacements(service: Service, tenant: str, tasks: Iterable[TaskDefinition]) -> list[Replacement]:
    """The tasks that would replace a different stored task. A remote without the authoring
    extensions cannot be read, so nothing is known to be replaced there (its upsert decides)."""
    if not (await service.info()).extensions:
        return []
    found = [(await _stored(service, tenant, task))[1] for task in tasks]
    return [replacement for replacement in found if replacement is not None]


async def _stored(service: Service, tenant: str, task: TaskDefinition) -> tuple[int, Replacement | None]:
    """The stored version of the task's id (0: none) and what saving ``task`` would replace."""
    try:
        stored = await service.get_task(tenant, task.id)
    except NotFound:
        return 0, None
    before = stored.definition.model_dump(mode="json", exclude_none=True)
    after = task.model_dump(mode="json", exclude_none=True)
    changed = tuple(key for key in {**after, **before} if before.get(key) != after.get(key))
    return stored.version, Replacement(task.id, stored.version, changed) if changed else None


async def import_task(
    service: Service, tenant: str, task: TaskDefinition, agreed: Sequence[Replacement] = ()
) -> UpsertTaskResponse:
    """Save one imported task on top of what is stored: a new task only as new, a stored one only
    as ``agreed`` (on top of the version shown). WouldReplace when it would replace without
    agreement; VersionConflict when another save came in between."""
    if not (await service.info()).extensions:
        return await service.upsert_task(tenant, task)
    version, replacing = await _stored(service, tenant, task)
    if replacing is not None:
        shown = next((r for r in agreed if r.taskId == task.id), None)
        if shown is None:
            raise WouldReplace([replacing])
        version = shown.version
    return await service.upsert_task(tenant, task, expected_version=version)


async def import_files(
    service: Service,
    tenant: str,
    paths: Iterable[Path],
    progress: Callable[[int, int], None] = lambda done, total: None,
    *,
    agreed: Sequence[Replacement] = (),
) -> list[Imported]:
    """Upsert the tasks of the files, then replace each task's test answers by those of its file.

    Every file is read and checked before anything is sent, so a typo leaves the service untouched;
    so is every task that would replace a different stored one: WouldReplace lists those not
    ``agreed`` to, and nothing is sent. ``progress`` is told after every file sent how many are
    done of how many.
    """
    found = Workspace.find(paths)
    tasks = [(path, read_task(path)) for path in found.task_files]
    answer_sets = [(path, read_test_answers(path)) for path in found.answer_files]
    if answer_sets and not (await service.info()).extensions:
        raise ValueError("the service keeps no test answers (no authoring extensions); retest with --files")
    agreed_ids = {r.taskId for r in agreed}
    refused = [
        r for r in await replacements(service, tenant, [t for _, t in tasks]) if r.taskId not in agreed_ids
    ]
    if refused:
        raise WouldReplace(refused)
    done = []
    total = len(tasks) + len(answer_sets)
    for path, task in tasks:
        response = await import_task(service, tenant, task, agreed)
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
