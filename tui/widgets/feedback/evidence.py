"""The learner's answer with the feedback's evidence highlighted at its offsets.

Items colour their context by correctness (background); detected aspects underline theirs
(green a concept, red a misconception). Each task type shows its answer as the learner gave it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from rich.text import Text

from core.api import (
    AspectType,
    ChatTurn,
    Correctness,
    DetectedAspect,
    Feedback,
    FeedbackItem,
    FreeformTextResult,
    InTextChoicesResult,
    InTextChoicesTask,
    InTextFillInBlanksResult,
    InTextFillInBlanksTask,
    MessageSpan,
    MultipleChoiceResult,
    MultipleResponsesResult,
    SimulationResult,
    TaskBase,
    TextSpan,
)
from tui.i18n import _
from tui.widgets.statement import learner_view

EVIDENCE_STYLES: dict[str, str] = {
    Correctness.CORRECT: "on #1d4a31",
    Correctness.PARTIAL: "on #5a4a17",
    Correctness.WRONG: "on #5c2423",
    Correctness.UNKNOWN: "on #30363d",
}
ASPECT_STYLES: dict[AspectType, str] = {
    AspectType.CONCEPT: "underline bold #2fbf71",
    AspectType.MISCONCEPTION: "underline bold #e5534b",
}
Span = tuple[int, int, str]


def highlight(text: str, spans: Iterable[Span]) -> Text:
    """``text`` with each (offset, length, style) applied; spans outside the text are clipped."""
    result = Text(text)
    for offset, length, style in spans:
        start = max(0, min(offset, len(text)))
        end = max(start, min(offset + length, len(text)))
        if end > start:
            result.stylize(style, start, end)
    return result


S = TypeVar("S", TextSpan, MessageSpan)
"""Where a piece of evidence is: in a free-text answer, or in a learner's turn of a conversation."""


def _spans(items: list[FeedbackItem[S]], aspects: list[DetectedAspect[list[S]]]) -> list[tuple[S, Span]]:
    """(context, span) of the items first, then of the aspects, so aspect underlines stay visible."""
    spans = [
        (c, (c.offset, c.length, EVIDENCE_STYLES[item.correctness])) for item in items for c in item.context
    ]
    spans += [
        (c, (c.offset, c.length, ASPECT_STYLES[found.aspect.type]))
        for found in aspects
        for c in found.context
    ]
    return spans


def _transcript_view(result: SimulationResult, transcript: Sequence[ChatTurn]) -> Text:
    spans = _spans(result.feedback, result.allAspects)
    lines = []
    for index, turn in enumerate(transcript):
        who = Text(
            _("You: ") if turn.role == "user" else _("Persona: "),
            style="bold" if turn.role == "user" else "dim",
        )
        mine = [span for c, span in spans if c.messageIndex == index]
        lines.append(who + highlight(turn.content, mine))
    return Text("\n").join(lines)


def _gaps_view(result: InTextFillInBlanksResult | InTextChoicesResult, task: TaskBase) -> Text:
    given = result.answer.blanks if isinstance(result, InTextFillInBlanksResult) else result.answer.choices
    verdicts = {c.index: item.correctness for item in result.feedback for c in item.context}

    def gap(n: int) -> Text:
        content = given[n - 1].content if 0 < n <= len(given) else ""
        style = EVIDENCE_STYLES[verdicts.get(n - 1, Correctness.UNKNOWN)]
        return Text(f" {n}: {content or '—'} ", style=f"bold {style}")

    return learner_view(task.problemStatement, gap)


def _options_view(result: MultipleChoiceResult | MultipleResponsesResult, task: TaskBase) -> Text:
    options = getattr(task, "options", [])
    if isinstance(result, MultipleChoiceResult):
        selected = [i == result.answer.selectedIndex for i in range(len(options))]
    else:
        selected = result.answer.selected
    verdicts = {c.index: item.correctness for item in result.feedback for c in item.context}
    lines = []
    for i, option in enumerate(options):
        chosen = i < len(selected) and selected[i]
        style = EVIDENCE_STYLES[verdicts.get(i, Correctness.UNKNOWN)] if chosen else ""
        lines.append(Text("● " if chosen else "○ ") + Text(option.content, style=style))
    return Text("\n").join(lines)


def answer_view(
    feedback: Feedback, task: TaskBase | None, transcript: Sequence[ChatTurn] | None = None
) -> Text:
    """The answer of ``feedback`` with its evidence; ``task`` supplies statements and option texts."""
    result = feedback.result
    if isinstance(result, FreeformTextResult):
        return highlight(
            result.answer.content, [span for _item, span in _spans(result.feedback, result.allAspects)]
        )
    if isinstance(result, SimulationResult):
        turns = transcript or result.answer.messages
        if turns:
            return _transcript_view(result, turns)
        return Text("\n").join(
            Text(f"“{c.content}”", style=s)
            for c, (_item, _span, s) in _spans(result.feedback, result.allAspects)
        )
    if isinstance(result, InTextFillInBlanksResult | InTextChoicesResult) and isinstance(
        task, InTextFillInBlanksTask | InTextChoicesTask
    ):
        return _gaps_view(result, task)
    if isinstance(result, MultipleChoiceResult | MultipleResponsesResult) and task is not None:
        return _options_view(result, task)
    return Text(str(result.answer.to_wire()), style="dim")


def sample_solution(feedback: Feedback, task: TaskBase | None) -> str:
    """The sample solution in words: texts for free answers, the right options for choices."""
    result = feedback.result
    if isinstance(result, FreeformTextResult):
        solutions = result.sampleSolutions or ([result.sampleSolution] if result.sampleSolution else [])
        return "\n".join(s.content for s in solutions)
    if isinstance(result, SimulationResult):
        return result.sampleSolution.content if result.sampleSolution else ""
    if isinstance(result, InTextFillInBlanksResult):
        return " · ".join(f"{n}: {s.content}" for n, s in enumerate(result.sampleSolution.blanks, start=1))
    if isinstance(result, InTextChoicesResult):
        return " · ".join(f"{n}: {s.content}" for n, s in enumerate(result.sampleSolution.choices, start=1))
    options = [o.content for o in getattr(task, "options", [])]
    if isinstance(result, MultipleChoiceResult):
        index = result.sampleSolution.selectedIndex
        return options[index] if 0 <= index < len(options) else _("option {number}").format(number=index + 1)
    if isinstance(result, MultipleResponsesResult):
        return "\n".join(
            o for o, right in zip(options, result.sampleSolution.selected, strict=False) if right
        )
    return ""
