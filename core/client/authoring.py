"""Saving a task from an editor, and what the editors tell an author before a learner finds out:
a sample solution that would not score CORRECT on its own task.

Both editors save through :func:`save_and_check`: the save, then the service's judgement of the
saved task's sample solutions (``Service.check_sample_solutions``), made by the engine that judges
the task's answers, on whichever service keeps the task, a remote one too. Only freeform tasks are
judged from text, so only they are checked; a remote without the authoring extensions cannot
check and is not asked. A check that fails does not undo the save: the outcome says why it was not
made. The sentences are made afterwards in the app's language (:meth:`SaveOutcome.warnings`),
where the app knows it: the web app's language is the browser's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.api import FreeformTextTask, SampleSolutionCheck, ServiceError, TaskDefinition, UpsertTaskResponse
from core.client.library import TaskLibrary

Translate = Callable[[str], str]


@dataclass(frozen=True)
class SaveOutcome:
    response: UpsertTaskResponse
    failing: tuple[SampleSolutionCheck, ...] = ()
    """The sample solutions the engine does not judge CORRECT; none when all pass."""
    unchecked: str = ""
    """Why the sample solutions could not be checked (the save stands); empty when they were."""

    def warnings(self, _: Translate) -> list[str]:
        """What the editor tells the author after the save, one sentence each; ``_`` is the app's
        translation."""
        lines = [warning(check, _) for check in self.failing]
        if self.unchecked:
            lines.append(_("The sample solutions were not checked: {reason}.").format(reason=self.unchecked))
        return lines


async def save_and_check(
    library: TaskLibrary, task: TaskDefinition, expected_version: int | None = None
) -> SaveOutcome:
    """Save ``task`` (see TaskLibrary.save; a VersionConflict leaves it unsaved and unchecked),
    then check its sample solutions on the service that keeps it."""
    response = await library.save(task, expected_version)
    if not isinstance(task, FreeformTextTask) or not library.extensions:
        return SaveOutcome(response)
    try:
        checked = await library.service.check_sample_solutions(library.tenant_id, task.id)
    except ServiceError as exc:
        return SaveOutcome(response, unchecked=exc.message)
    return SaveOutcome(response, tuple(check for check in checked.checks if not check.passes))


def warning(check: SampleSolutionCheck, _: Translate) -> str:
    """The editor's sentence about one failing sample solution; ``_`` is the app's translation."""
    reasons = []
    if check.missingConcepts:
        reasons.append(
            _("it does not show {names} (give a cue in the words the solution uses)").format(
                names=_names(check.missingConcepts, _)
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


def _names(names: list[str], _: Translate) -> str:
    quoted = [f"“{name}”" for name in names]
    if len(quoted) == 1:
        return quoted[0]
    return _("{names} and {last}").format(names=", ".join(quoted[:-1]), last=quoted[-1])
