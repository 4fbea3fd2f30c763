"""Feedback computation: pure, synchronous, no I/O; one module per task type.

:func:`compute_result` is the single entry point the service calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from core.api import Answer, FeedbackResult, FreeformTextTask, TaskBase, TaskType
from core.engine.base import EngineContext, EngineUnavailable

if TYPE_CHECKING:
    from core.engine.freeform.self_check import SolutionCheck

_MODULES = {
    TaskType.MULTIPLE_CHOICE: "core.engine.multiple_choice",
    TaskType.MULTIPLE_RESPONSES: "core.engine.multiple_responses",
    TaskType.IN_TEXT_FILL_IN_BLANKS: "core.engine.blanks",
    TaskType.IN_TEXT_CHOICES: "core.engine.in_text_choices",
    TaskType.FREEFORM_TEXT: "core.engine.freeform",
    TaskType.SIMULATION: "core.engine.simulation",
}
_computers: dict[TaskType, Callable[..., Any]] = {}


def _computer(task_type: TaskType) -> Callable[[Any, Any, EngineContext], FeedbackResult]:
    if task_type not in _computers:
        try:
            module = import_module(_MODULES[task_type])
        except ModuleNotFoundError as exc:
            if exc.name != _MODULES[task_type]:
                raise
            raise EngineUnavailable(
                f"feedback for {task_type.value} tasks is not available in this build"
            ) from None
        _computers[task_type] = module.compute
    return _computers[task_type]


def compute_result(task: TaskBase, answer: Answer, ctx: EngineContext) -> FeedbackResult:
    """The feedback result for an answer to a task (the answer's shape already fits the type)."""
    return _computer(task.task_type)(task, answer, ctx)


def prepared(task: TaskBase, ctx: EngineContext) -> bool:
    """Whether judging an answer to `task` under `ctx` finds built what it needs: the freeform
    engine's model of the task (its graded answers included); the other types need nothing."""
    if not isinstance(task, FreeformTextTask) or not _has_engine(task.task_type):
        return True
    from core.engine.freeform.model import cached_model

    return cached_model(task, ctx) is not None


def prepare(task: TaskBase, ctx: EngineContext) -> None:
    """Build what :func:`prepared` asks about. A task with many long graded answers takes up to
    seconds: a caller on an event loop runs this in a worker thread, not in the loop."""
    if isinstance(task, FreeformTextTask) and _has_engine(task.task_type):
        from core.engine.freeform.model import task_model

        task_model(task, ctx)


def sample_solution_checks(task: TaskBase, ctx: EngineContext) -> list[SolutionCheck]:
    """How the engine judges each sample solution of ``task`` as a learner's answer under ``ctx``
    (:mod:`core.engine.freeform.self_check`). Only freeform tasks are judged from text; the other
    types take their solution from the task itself, so nothing is checked."""
    if not isinstance(task, FreeformTextTask) or not _has_engine(task.task_type):
        return []
    from core.engine.freeform.self_check import check_sample_solutions

    return check_sample_solutions(task, ctx=ctx)


def review_order(task: TaskBase, answers: Sequence[Answer], ctx: EngineContext, limit: int) -> list[int]:
    """``min(limit, len(answers))`` indices into ``answers`` in the order an author should grade
    them so that the judge learns most (freeform text: :mod:`core.engine.freeform.review`). Other
    types are judged exactly: each distinct answer once, the most frequent first, then the repeats."""
    if isinstance(task, FreeformTextTask) and _has_engine(task.task_type):
        from core.engine.freeform.review import review_order as freeform_order

        return freeform_order(task, [str(getattr(a, "content", "")) for a in answers], ctx, limit)
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    for i, answer in enumerate(answers):
        key = answer.model_dump_json()
        first.setdefault(key, i)
        counts[key] = counts.get(key, 0) + 1
    distinct = [first[k] for k in sorted(first, key=lambda k: (-counts[k], first[k]))]
    repeats = sorted(set(range(len(answers))) - set(distinct))
    return [*distinct, *repeats][:limit]


def _has_engine(task_type: TaskType) -> bool:
    """Whether this build has the engine of `task_type` (compute_result says so when it has not)."""
    try:
        _computer(task_type)
    except EngineUnavailable:
        return False
    return True


__all__ = [
    "EngineContext",
    "EngineUnavailable",
    "compute_result",
    "prepare",
    "prepared",
    "review_order",
    "sample_solution_checks",
]
