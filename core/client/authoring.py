"""What the task editors tell an author before a learner finds out: a sample solution that would
not score CORRECT on its own task.

The check runs the engine in this process on the task being edited, also when the tasks live on a
remote service, whose engine is this one or judges the same way (API.md); only freeform tasks are
judged from text, so only they are checked. Judging is the slow part and runs off the event loop
(``failing_sample_solutions``); the sentence is made afterwards in the app's language
(``warning``), where the app knows it: the web app's language is the browser's, which a worker
thread cannot see.
"""

from __future__ import annotations

from collections.abc import Callable

from core.api import FreeformTextTask, TaskBase
from core.engine.freeform.self_check import SolutionCheck, check_sample_solutions


def failing_sample_solutions(task: TaskBase) -> list[SolutionCheck]:
    """The sample solutions that the engine does not judge CORRECT; none when all pass."""
    if not isinstance(task, FreeformTextTask):
        return []
    return [check for check in check_sample_solutions(task) if not check.passes]


def warning(check: SolutionCheck, _: Callable[[str], str]) -> str:
    """The editor's sentence about one failing sample solution; ``_`` is the app's translation."""
    reasons = []
    if check.missing_concepts:
        reasons.append(
            _("it does not show {names} (give a cue in the words the solution uses)").format(
                names=_names(check.missing_concepts, _)
            )
        )
    if check.misconceptions:
        reasons.append(
            _("it trips {names} (those cues also match a correct answer)").format(
                names=_names(check.misconceptions, _)
            )
        )
    why = "; ".join(reasons) or _("the judge finds too little of its own facts in it")
    return _("Sample solution {number} scores {verdict} on this task: {why}.").format(
        number=check.number, verdict=check.verdict.value, why=why
    )


def _names(names: tuple[str, ...], _: Callable[[str], str]) -> str:
    quoted = [f"“{name}”" for name in names]
    if len(quoted) == 1:
        return quoted[0]
    return _("{names} and {last}").format(names=", ".join(quoted[:-1]), last=quoted[-1])
