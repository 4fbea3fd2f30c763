"""Retest: recompute feedback against a task's current definition and show what changed (API.md 3).

Two sources of answers are recomputed: the author's test answers, checked against what they must
get, and the answers of earlier interactions, compared with the feedback they were given. The same
:func:`retest_answers` serves the embedded service (which computes without recording anything) and
any service reached only through the public compute calls, where the test answers come from files.
Reassign then lets the author accept new feedback into the task's graded answers.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from core.api import (
    AnswerRetest,
    AnswerSource,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    FeedbackResult,
    FeedbackSnapshot,
    GradedAnswer,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InteractionRecord,
    InvalidParameter,
    NotFound,
    RetestReport,
    ServiceError,
    TaskBase,
    TaskRetest,
    TestAnswer,
)
from core.service.base import Service
from core.workspace.expectations import aspect_names, expectation_failures, read_test_answers
from core.workspace.files import Workspace, read_task

RETEST_USER = "feedback-studio-retest"
"""The userId of the computations a retest makes through the public calls; its interactions are
not earlier answers and are left out of later retests."""
MAX_DISTINCT_ANSWERS = 200
"""Distinct answers of earlier interactions recomputed per task, the newest first."""

Compute = Callable[[dict[str, Any]], Awaitable[FeedbackResult]]


async def retest_answers(
    test_answers: Sequence[TestAnswer],
    interactions: Sequence[InteractionRecord],
    compute: Compute,
    known_aspects: set[str] | None = None,
) -> list[AnswerRetest]:
    """Recompute the test answers, then each distinct answer of the interactions (newest first)."""
    results = []
    for test in test_answers:
        after, error = await _attempt(compute, test.answer)
        results.append(
            AnswerRetest(
                source=AnswerSource.TEST_ANSWER,
                label=test.label,
                answer=test.answer,
                after=after,
                error=error,
                expected=test.expected,
                failures=expectation_failures(test.expected, after, error, known_aspects),
            )
        )
    for same in _distinct_answers(interactions)[:MAX_DISTINCT_ANSWERS]:
        newest = same[0]
        after, error = await _attempt(compute, newest.answer)
        results.append(
            AnswerRetest(
                source=AnswerSource.INTERACTION,
                label=newest.interactionId,
                answer=newest.answer,
                occurrences=len(same),
                before=FeedbackSnapshot.of(newest.feedback.result),
                after=after,
                error=error,
            )
        )
    return results


async def _attempt(compute: Compute, answer: dict[str, Any]) -> tuple[FeedbackSnapshot | None, str | None]:
    """The new feedback, or why there is none: an answer may no longer fit the edited task."""
    try:
        return FeedbackSnapshot.of(await compute(answer)), None
    except ServiceError as exc:
        return None, exc.message
    except ValueError as exc:
        return None, str(exc)


def _distinct_answers(interactions: Iterable[InteractionRecord]) -> list[list[InteractionRecord]]:
    groups: dict[str, list[InteractionRecord]] = {}
    for record in interactions:
        if record.userId != RETEST_USER:
            groups.setdefault(json.dumps(record.answer, sort_keys=True), []).append(record)
    return list(groups.values())


async def retest(
    service: Service,
    tenant: str,
    task_ids: Sequence[str] = (),
    files: Path | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> RetestReport:
    """Retest on any service: by its own retest where it has the extensions and no files are given,
    else through the public compute calls with the tasks and test answers of the files.

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
    tasks = {task.id: task for task in map(read_task, found.task_files)}
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
        compute = _public_compute(service, tenant, task, from_file=task_id in tasks)
        answers = await retest_answers(
            answer_sets.get(task_id, []), interactions, compute, aspect_names(task)
        )
        report.tasks.append(
            TaskRetest(taskId=task_id, taskType=task.type, title=task.display_title, answers=answers)
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
        common = dict(userId=RETEST_USER, tenantId=tenant, taskType=task.task_type, answer=answer)
        if from_file:
            return (
                await service.compute_feedback(ComputeFeedbackRequest(**common, taskDefinition=task))
            ).result
        return (await service.compute_feedback_for_task(task.id, ComputeTaskFeedbackRequest(**common))).result

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
