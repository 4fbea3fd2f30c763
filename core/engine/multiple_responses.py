"""Feedback on a multiple-responses answer: every option is judged on its own.

Points: one per option, achieved when the learner's choice for it is right (a correct option
selected, a wrong one left out); so 4 options with 3 judged right give 3 of 4 points, PARTIAL.
Each option judged wrong gets its own item (the option's feedback, else its aspect's message,
else the catalogue's "not right" or "also right"), context [{index, selected}]; when all options
are right there is one CORRECT item whose context lists every option. The aspects of each
selected option are detected, with context {index, selected: true}.

Ticking nothing, or ticking everything, is no answer to "which of these …": it would earn the
points of every option it happens to get right (half of them, PARTIAL, on a balanced task), so it
is WRONG with no points and an item that says why, unless it is the solution itself.
"""

from __future__ import annotations

from core.api import (
    Correctness,
    FeedbackItem,
    InvalidParameter,
    MultipleResponsesAnswer,
    MultipleResponsesResult,
    MultipleResponsesTask,
    OptionSelection,
    Points,
    SelectedSolution,
    check_task,
)
from core.engine.base import EngineContext, topic_for
from core.engine.judged_parts import detected_aspects, feedback_items, option_part, points_of


def compute(
    task: MultipleResponsesTask, answer: MultipleResponsesAnswer, ctx: EngineContext
) -> MultipleResponsesResult:
    check_task(task)
    if len(answer.selected) != len(task.options):
        raise InvalidParameter(
            f"selected has {len(answer.selected)} entries, but the task has {len(task.options)} options"
        )
    solution = SelectedSolution(selected=[o.correct for o in task.options])
    blanket = _blanket_choice(answer.selected)
    if blanket is not None and answer.selected != solution.selected:
        item = FeedbackItem[OptionSelection](
            message=ctx.catalogue.text(task.language, f"choice.{blanket}"),
            correctness=Correctness.WRONG,
            topic=topic_for(None, task.display_title),
        )
        return MultipleResponsesResult(
            answer=answer,
            feedback=[item],
            points=Points(achievedPoints=0, achievablePoints=len(task.options)),
            sampleSolution=solution,
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
        sampleSolution=solution,
    )


def _blanket_choice(selected: list[bool]) -> str | None:
    """The catalogue key for an answer that ticks nothing or everything, else None."""
    if not any(selected):
        return "options_none_ticked"
    if all(selected):
        return "options_all_ticked"
    return None
