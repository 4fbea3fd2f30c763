"""What the task editors tell an author before a learner finds out: a sample solution that would
not score CORRECT on its own task.

The check runs the engine in this process on the task being edited, also when the tasks live on a
remote service, whose engine is this one or judges the same way (API.md); only freeform tasks are
judged from text, so only they are checked. Sentences are the apps' English until they are
translated.
"""

from __future__ import annotations

from core.api import FreeformTextTask, TaskBase
from core.engine.freeform.self_check import SolutionCheck, check_sample_solutions


def sample_solution_warnings(task: TaskBase) -> list[str]:
    """One sentence per sample solution that the engine does not judge CORRECT; none when all pass."""
    if not isinstance(task, FreeformTextTask):
        return []
    return [_sentence(check) for check in check_sample_solutions(task) if not check.passes]


def _sentence(check: SolutionCheck) -> str:
    reasons = []
    if check.missing_concepts:
        reasons.append(
            f"it does not show {_names(check.missing_concepts)} (give a cue in the words the solution uses)"
        )
    if check.misconceptions:
        reasons.append(f"it trips {_names(check.misconceptions)} (those cues also match a correct answer)")
    why = "; ".join(reasons) or "the judge finds too little of its own facts in it"
    return f"Sample solution {check.number} scores {check.verdict.value} on this task: {why}."


def _names(names: tuple[str, ...]) -> str:
    quoted = [f"“{name}”" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
