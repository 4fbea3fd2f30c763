"""SIMULATION feedback: what the learner showed in a role-play conversation.

The transcript comes from the answer ({messages}) or, for an answer by {conversationId}, from the
stored session (``ctx.transcript``). Only the learner's turns (role ``user``) are judged, each as a
freeform text against the task's aspects, so the spans the freeform engine finds become
{messageIndex, content, offset, length} that sit exactly on the learner's words. A concept counts
once it shows in any turn; a misconception anywhere costs its points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from core.api import (
    AspectDefinition,
    AspectType,
    ChatTurn,
    Correctness,
    DetectedAspect,
    FeedbackItem,
    FreeformTextAnswer,
    FreeformTextResult,
    FreeformTextTask,
    InvalidParameter,
    MessageSpan,
    Points,
    SampleSolutionText,
    SimulationAnswer,
    SimulationResult,
    SimulationTask,
    TextSpan,
)
from core.engine import compute_result
from core.engine.base import EngineContext, to_aspect, topic_for

LEARNER = "user"


def _as_freeform(task: SimulationTask) -> FreeformTextTask:
    """The task as the freeform engine sees one learner turn: same aspects, same sample solution."""
    return FreeformTextTask(
        id=task.id,
        title=task.title,
        problemStatement=task.problemStatement,
        language=task.language,
        aspects=task.aspects,
        sampleSolutions=[SampleSolutionText(content=task.sampleSolution)] if task.sampleSolution else [],
    )


def shown_aspects(
    task: SimulationTask, text: str, ctx: EngineContext
) -> list[tuple[AspectDefinition, list[TextSpan]]]:
    """The task's aspects that ``text`` shows, each with its spans in ``text``, in the task's order.

    Raises EngineUnavailable when this build has no freeform engine.
    """

    result = cast(
        FreeformTextResult, compute_result(_as_freeform(task), FreeformTextAnswer(content=text), ctx)
    )
    spans = {d.aspect.name: list(d.context) for d in result.allAspects}
    return [(a, spans[a.name]) for a in task.aspects if spans.get(a.name)]


def transcript_of(answer: SimulationAnswer, ctx: EngineContext) -> Sequence[ChatTurn]:
    if answer.conversationId:
        if ctx.transcript is None:
            raise InvalidParameter(
                f"the transcript of conversation {answer.conversationId!r} is not available"
            )
        return ctx.transcript
    return answer.messages or []


def compute(task: SimulationTask, answer: SimulationAnswer, ctx: EngineContext) -> SimulationResult:
    transcript = transcript_of(answer, ctx)
    found: dict[str, list[MessageSpan]] = {}
    for index, turn in enumerate(transcript):
        if turn.role != LEARNER:
            continue
        for aspect, spans in shown_aspects(task, turn.content, ctx):
            found.setdefault(aspect.name, []).extend(
                MessageSpan(messageIndex=index, content=s.content, offset=s.offset, length=s.length)
                for s in spans
            )
    concepts = [a for a in task.aspects if a.type is AspectType.CONCEPT]
    wrong = [a for a in task.aspects if a.type is AspectType.MISCONCEPTION and a.name in found]
    shown = [a for a in concepts if a.name in found]
    achievable = sum(a.points for a in concepts) or 1.0
    achieved = max(sum(a.points for a in shown) - sum(a.points for a in wrong), 0.0)
    if not concepts and not wrong:
        achieved = achievable if any(t.role == LEARNER for t in transcript) else 0.0
    points = Points(achievedPoints=achieved, achievablePoints=achievable)
    return SimulationResult(
        allAspects=[
            DetectedAspect[list[MessageSpan]](aspect=to_aspect(a), context=found[a.name])
            for a in task.aspects
            if a.name in found
        ],
        answer=answer,
        feedback=_items(task, ctx, shown, wrong, [a for a in concepts if a.name not in found], found, points),
        points=points,
        sampleSolution=SampleSolutionText(content=task.sampleSolution) if task.sampleSolution else None,
    )


def _items(
    task: SimulationTask,
    ctx: EngineContext,
    shown: list[AspectDefinition],
    wrong: list[AspectDefinition],
    missing: list[AspectDefinition],
    found: dict[str, list[MessageSpan]],
    points: Points,
) -> list[FeedbackItem[MessageSpan]]:
    def text(key: str, aspect: AspectDefinition | None = None) -> str:
        params = {"name": aspect.name, "description": aspect.description or aspect.name} if aspect else {}
        return ctx.catalogue.text(task.language, f"simulation.{key}", **params)

    def item(
        message: str, correctness: Correctness, aspect: AspectDefinition | None
    ) -> FeedbackItem[MessageSpan]:
        return FeedbackItem[MessageSpan](
            message=message,
            aspects=[to_aspect(aspect)] if aspect else [],
            correctness=correctness,
            topic=topic_for(aspect, task.display_title),
            context=found.get(aspect.name, []) if aspect else [],
        )

    missing_correctness = Correctness.PARTIAL if points.achievedPoints > 0 else Correctness.WRONG
    items = [item(text("misconception", a), Correctness.WRONG, a) for a in wrong]
    items += [item(text("missing", a), missing_correctness, a) for a in missing]
    items += [item(text("shown", a), Correctness.CORRECT, a) for a in shown]
    if not wrong and not missing:
        items.insert(0, item(text("all_shown"), Correctness.CORRECT, None))
    return items
