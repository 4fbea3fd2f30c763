"""Retest and reassign through any Service: by the service's own retest where it keeps test answers
(the authoring extensions), else through the public compute calls with the tasks and test answers
of files; reassign accepts new feedback into a task's graded answers."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

from core.api import (
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    FeedbackResult,
    GradedAnswer,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InvalidParameter,
    NotFound,
    RetestReport,
    TaskBase,
    TaskRetest,
)
from core.service.base import Service
from core.workspace.expectations import aspect_names, read_test_answers
from core.workspace.files import Workspace, read_task
from core.workspace.retest import RETEST_USER, Compute, retest_answers


async def retest(
    service: Service,
    tenant: str,
    task_ids: Sequence[str] = (),
    files: Path | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> RetestReport:
    """Retest on any service: by its own retest where it has the extensions and no files are given,
    else through the public compute calls with the tasks and test answers of the files (an earlier
    answer the service keeps as a test answer is then checked against that test answer's
    expectation, not only compared with the feedback it was given).

    ``progress`` is told, after every task, how many are done of how many (the command shows a
    progress bar): the service's own retest is asked task by task for that."""
    extensions = (await service.info()).extensions
    if files is None:
        if not extensions:
            raise InvalidParameter(
                "this service keeps no test answers (no authoring extensions): give them as files"
            )
        wanted = list(task_ids) or sorted(s.taskId for s in await service.list_tasks(tenant))
        report = RetestReport(tenantId=tenant)
        for done, task_id in enumerate(wanted, 1):
            report.tasks.extend((await service.retest(tenant, [task_id])).tasks)
            progress(done, len(wanted))
        return report
    found = Workspace.find([files])
    tasks: dict[str, TaskBase] = {task.id: task for task in map(read_task, found.task_files)}
    answer_sets = {s.taskId: s.answers for s in map(read_test_answers, found.answer_files)}
    wanted = list(task_ids) or sorted(tasks.keys() | answer_sets.keys())
    report = RetestReport(tenantId=tenant)
    for done, task_id in enumerate(wanted, 1):
        task = tasks.get(task_id)
        if task is None and extensions:
            task = await _stored_definition(service, tenant, task_id)
        if task is None:
            raise InvalidParameter(f"{files} holds no task file for {task_id!r}")
        interactions = await service.list_interactions(tenant, task_id) if extensions else []
        # the service's own test answers (gold answers kept in the apps) get no line here, but an
        # earlier answer that is one of them is checked against what the author expects of it
        kept = (await service.list_test_answers(tenant, task_id)).answers if interactions else []
        compute = _public_compute(service, tenant, task, from_file=task_id in tasks)
        answers = await retest_answers(
            answer_sets.get(task_id, []), interactions, compute, aspect_names(task), expected_elsewhere=kept
        )
        report.tasks.append(
            TaskRetest(
                taskId=task_id, taskType=task.task_type.schema_name, title=task.display_title, answers=answers
            )
        )
        progress(done, len(wanted))
    return report


async def _stored_definition(service: Service, tenant: str, task_id: str) -> TaskBase | None:
    try:
        return (await service.get_task(tenant, task_id)).definition
    except NotFound:
        return None


def _public_compute(service: Service, tenant: str, task: TaskBase, *, from_file: bool) -> Compute:
    """A task from a file travels with each request (API.md 3, rule 1); a stored one is named."""

    async def compute(answer: dict[str, Any]) -> FeedbackResult:
        common = {"userId": RETEST_USER, "tenantId": tenant, "taskType": task.task_type, "answer": answer}
        if from_file:
            request = ComputeFeedbackRequest.model_validate({**common, "taskDefinition": task})
            return (await service.compute_feedback(request)).result
        by_id = ComputeTaskFeedbackRequest.model_validate(common)
        return (await service.compute_feedback_for_task(task.id, by_id)).result

    return compute


async def reassign(
    service: Service, tenant: str, task: TaskRetest, labels: Collection[str] | None = None
) -> GradedAnswersResponse | None:
    """Accept the new feedback of some answers as graded answers of the task (API.md 3: reassign).

    By default the answers whose feedback changed and that fail no expectation; or those labelled.
    Returns None when there was nothing to accept.
    """
    graded = [
        GradedAnswer(
            answer=a.answer,
            correctness=a.after.verdict,
            points=a.after.achievedPoints,
            feedback="\n".join(a.after.messages) or None,
        )
        for a in task.answers
        if a.after is not None and (a.label in labels if labels is not None else a.changed and a.passed)
    ]
    if not graded:
        return None
    return await service.add_graded_answers(tenant, task.taskId, GradedAnswersRequest(answers=graded))
