"""Feedback on an in-text choices answer: at each choice point the learner picks one option.

The answer gives the chosen option's text; it is read leniently (outer whitespace, case and
spacing do not matter), and text that is none of the point's options is a malformed request.
An empty content means the point was left unanswered. Points: one per choice point. Aspects: a
point shows its concepts when chosen right, its misconceptions when chosen wrong (an unanswered
point shows nothing). Context index is the point's position in answer.choices, from 0.
"""

from __future__ import annotations

from core.api import (
    ChoicePoint,
    ChoicesSolution,
    IndexedContent,
    InTextChoicesAnswer,
    InTextChoicesResult,
    InTextChoicesTask,
    InvalidParameter,
    Language,
    SampleSolutionText,
    check_task,
)
from core.engine.base import EngineContext
from core.engine.judged_parts import (
    JudgedPart,
    authored_message,
    detected_aspects,
    feedback_items,
    gap_part,
    loosely,
    points_of,
    require_count,
)
from core.engine.messages import Catalogue


def compute(task: InTextChoicesTask, answer: InTextChoicesAnswer, ctx: EngineContext) -> InTextChoicesResult:
    check_task(task)
    require_count(len(answer.choices), len(task.choices), "choices")
    parts = [
        _judge_point(i, point, piece.content, ctx.catalogue, task.language)
        for i, (point, piece) in enumerate(zip(task.choices, answer.choices, strict=True))
    ]
    return InTextChoicesResult(
        allAspects=detected_aspects(parts),
        answer=answer,
        feedback=feedback_items(parts, task, ctx.catalogue.text(task.language, "choice.points_all_right")),
        points=points_of(parts),
        sampleSolution=ChoicesSolution(choices=[SampleSolutionText(content=p.correct) for p in task.choices]),
    )


def _judge_point(
    index: int, point: ChoicePoint, content: str, catalogue: Catalogue, language: Language
) -> JudgedPart[IndexedContent]:
    number = index + 1
    if not content.strip():
        message = catalogue.text(language, "choice.point_unanswered", number=number)
        return gap_part(index, content, 0.0, message, point.aspects)
    right = _option_named(point, content, number) == point.correct
    message = (
        ""
        if right
        else authored_message(point.feedback, point.aspects)
        or catalogue.text(language, "choice.point_wrong", number=number, content=content.strip())
    )
    return gap_part(index, content, 1.0 if right else 0.0, message, point.aspects)


def _option_named(point: ChoicePoint, content: str, number: int) -> str:
    """The option the learner chose: the one written exactly so, else the one equal but for case."""
    text = content.strip()
    exact = next((o for o in point.options if o.strip() == text), None)
    chosen = (
        exact if exact is not None else next((o for o in point.options if loosely(o) == loosely(text)), None)
    )
    if chosen is None:
        options = ", ".join(repr(o) for o in point.options)
        raise InvalidParameter(f"choice {number}: {text!r} is not one of its options ({options})")
    return chosen
