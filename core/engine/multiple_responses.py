"""Feedback on a multiple-responses answer: every option is judged on its own.

Points: one per option, achieved when the learner's choice for it is right (a correct option
selected, a wrong one left out); so 4 options with 3 judged right give 3 of 4 points, PARTIAL.
Each option judged wrong gets its own item (the option's feedback, else its aspect's message,
else the catalogue's "not right" or "also right"), context [{index, selected}]; when all options
are right there is one CORRECT item whose context lists every option. The aspects of each
selected option are detected, with context {index, selected: true}.
"""

from __future__ import annotations

from core.api import (
    InvalidParameter,
    MultipleResponsesAnswer,
    MultipleResponsesResult,
    MultipleResponsesTask,
    SelectedSolution,
    check_task,
)
from core.engine.base import EngineContext
from core.engine.judged_parts import detected_aspects, feedback_items, option_part, points_of


def compute(
    task: MultipleResponsesTask, answer: MultipleResponsesAnswer, ctx: EngineContext
) -> MultipleResponsesResult:
    check_task(task)
    if len(answer.selected) != len(task.options):
        raise InvalidParameter(
            f"selected has {len(answer.selected)} entries, but the task has {len(task.options)} options"
        )
    parts = [
        option_part(i, option, selected, ctx.catalogue, task.language)
        for i, (option, selected) in enumerate(zip(task.options, answer.selected, strict=True))
    ]
    return MultipleResponsesResult(
        allAspects=detected_aspects(parts),
        answer=answer,
        feedback=feedback_items(parts, task, ctx.catalogue.text(task.language, "choice.options_all_right")),
        points=points_of(parts),
        sampleSolution=SelectedSolution(selected=[o.correct for o in task.options]),
    )
