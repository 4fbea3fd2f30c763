"""Feedback on a multiple-choice answer: the one selected option is right or it is not.

Points: 1 when the selected option is the correct one, else 0. The selected option's aspects are
detected, with context {index, selected: true}: a correct option usually carries the concept it
shows, a wrong one the misconception that leads to it. A wrong choice gets one WRONG item with the
option's feedback (else its aspect's message, else the catalogue's); the right choice gets one
CORRECT item with the option's feedback, else the catalogue's praise.
"""

from __future__ import annotations

from core.api import (
    InvalidParameter,
    MultipleChoiceAnswer,
    MultipleChoiceResult,
    MultipleChoiceTask,
    SelectedIndexSolution,
    check_task,
)
from core.engine.base import EngineContext
from core.engine.judged_parts import detected_aspects, feedback_items, option_part, points_of


def compute(
    task: MultipleChoiceTask, answer: MultipleChoiceAnswer, ctx: EngineContext
) -> MultipleChoiceResult:
    check_task(task)
    index = answer.selectedIndex
    if not 0 <= index < len(task.options):
        raise InvalidParameter(
            f"selectedIndex {index} is out of range: the task has options 0 to {len(task.options) - 1}"
        )
    option = task.options[index]
    parts = [option_part(index, option, True, ctx.catalogue, task.language)]
    praise = option.feedback or ctx.catalogue.text(task.language, "choice.option_right")
    return MultipleChoiceResult(
        allAspects=detected_aspects(parts),
        answer=answer,
        feedback=feedback_items(parts, task, praise),
        points=points_of(parts),
        sampleSolution=SelectedIndexSolution(
            selectedIndex=next(i for i, o in enumerate(task.options) if o.correct)
        ),
    )
