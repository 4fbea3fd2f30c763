"""An answer as readable, marked-up text, whatever its task type: what the feedback is about.

Each task type names its evidence differently (text spans, gap indices, option indices, spans in a
turn of a conversation); here they all become spans in one text, so one highlighter shows them.
Feedback items name what is wrong or missing; an answer part no item names is shown as correct.
Detected aspects add evidence of their own: a concept shown is correct, a misconception wrong.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from core.api import (
    AspectType,
    ChatTurn,
    Correctness,
    FreeformTextResult,
    InTextChoicesResult,
    InTextFillInBlanksResult,
    MultipleChoiceResult,
    MultipleResponsesResult,
    SimulationResult,
    TaskBase,
)
from core.api.validation import GAP
from webui.components.highlight import Span, highlight_html
from webui.i18n import _


def answer_html(task: TaskBase, result: Any, transcript: Sequence[ChatTurn] = ()) -> str:
    """The answer of a feedback result as HTML with the evidence marked (all text escaped)."""
    if isinstance(result, FreeformTextResult):
        return _freeform(result)
    if isinstance(result, InTextFillInBlanksResult | InTextChoicesResult):
        return _gaps(task, result)
    if isinstance(result, MultipleChoiceResult | MultipleResponsesResult):
        return _options(task, result)
    if isinstance(result, SimulationResult):
        return _conversation(task, result, transcript)
    return html.escape(str(result.answer))


def answer_excerpt(task: TaskBase, answer: dict[str, Any]) -> str:
    """An answer as one line of plain text, whatever its type: lists of answers (the history, a
    retest) show what was given, chosen options by their text rather than their index."""
    options = [o.content for o in getattr(task, "options", [])]
    if "content" in answer:
        return str(answer["content"])
    if "blanks" in answer or "choices" in answer:
        return " · ".join(
            str(p.get("content", "")) for p in answer.get("blanks") or answer.get("choices") or []
        )
    if "selectedIndex" in answer:
        return _option(options, answer["selectedIndex"])
    if "selected" in answer:
        chosen = [_option(options, i) for i, selected in enumerate(answer["selected"]) if selected]
        return " · ".join(chosen) or "no option chosen"
    turns = [str(t.get("content", "")) for t in answer.get("messages") or [] if t.get("role") == "user"]
    return " / ".join(turns) or "conversation"


def _option(options: Sequence[str], index: int) -> str:
    """An option's text; its number when the task no longer has it (an answer from before an edit)."""
    return options[index] if 0 <= index < len(options) else _("option {number}").format(number=index + 1)


def sample_solution_text(task: TaskBase, result: Any) -> str:
    """The sample solution of a result as plain text (gaps filled, chosen options listed)."""
    if isinstance(result, FreeformTextResult):
        solutions = result.sampleSolutions or ([result.sampleSolution] if result.sampleSolution else [])
        return "\n\n".join(s.content for s in solutions)
    if isinstance(result, InTextFillInBlanksResult):
        return fill_gaps(task.problemStatement, [b.content for b in result.sampleSolution.blanks])[0]
    if isinstance(result, InTextChoicesResult):
        return fill_gaps(task.problemStatement, [c.content for c in result.sampleSolution.choices])[0]
    options = [o.content for o in getattr(task, "options", [])]
    if isinstance(result, MultipleChoiceResult):
        index = result.sampleSolution.selectedIndex
        return options[index] if 0 <= index < len(options) else ""
    if isinstance(result, MultipleResponsesResult):
        return "\n".join(
            f"• {o}" for o, chosen in zip(options, result.sampleSolution.selected, strict=False) if chosen
        )
    if isinstance(result, SimulationResult):
        return result.sampleSolution.content if result.sampleSolution else ""
    return ""


def fill_gaps(statement: str, pieces: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """The statement with {{n}} replaced by pieces[n-1], and where each piece landed (offset, length)."""
    out, places, cursor, last = [], [(0, 0)] * len(pieces), 0, 0
    for match in GAP.finditer(statement):
        before = statement[last : match.start()]
        number = int(match.group(1))
        known = 0 < number <= len(pieces)
        piece = (pieces[number - 1] if known else "") or "…"
        cursor += len(before)
        if known:
            places[number - 1] = (cursor, len(piece))
        out += [before, piece]
        cursor += len(piece)
        last = match.end()
    out.append(statement[last:])
    return "".join(out), places


def _item_verdicts(result: Any, key: str) -> dict[int, tuple[Correctness, str]]:
    """Per indexed part of the answer: the gravest verdict of the items naming it, and their messages."""
    verdicts: dict[int, tuple[Correctness, str]] = {}
    for item in result.feedback:
        for context in item.context:
            index = getattr(context, key)
            earlier = verdicts.get(index)
            message = f"{earlier[1]} · {item.message}" if earlier else item.message
            verdicts[index] = (item.correctness, message)
    return verdicts


def _aspect_verdict(aspect_type: AspectType) -> Correctness:
    return Correctness.WRONG if aspect_type is AspectType.MISCONCEPTION else Correctness.CORRECT


def _freeform(result: FreeformTextResult) -> str:
    spans = [
        Span(c.offset, c.length, item.correctness, item.message)
        for item in result.feedback
        for c in item.context
    ]
    spans += [
        Span(c.offset, c.length, _aspect_verdict(d.aspect.type), d.aspect.name)
        for d in result.allAspects
        for c in d.context
    ]
    return highlight_html(result.answer.content, spans)


def _gaps(task: TaskBase, result: InTextFillInBlanksResult | InTextChoicesResult) -> str:
    answer = result.answer
    pieces = [p.content for p in (answer.blanks if hasattr(answer, "blanks") else answer.choices)]
    text, places = fill_gaps(task.problemStatement, pieces)
    verdicts = _item_verdicts(result, "index")
    spans = []
    for index, (offset, length) in enumerate(places):
        verdict, note = verdicts.get(index, (Correctness.CORRECT, ""))
        spans.append(Span(offset, length, verdict, note))
    return highlight_html(text, spans)


def _options(task: TaskBase, result: MultipleChoiceResult | MultipleResponsesResult) -> str:
    options = [o.content for o in getattr(task, "options", [])]
    if isinstance(result, MultipleChoiceResult):
        chosen = {result.answer.selectedIndex}
    else:
        chosen = {i for i, selected in enumerate(result.answer.selected) if selected}
    verdicts = _item_verdicts(result, "index")
    lines = []
    for index, option in enumerate(options):
        box = "☑" if index in chosen else "☐"
        line = f"{box} {option}"
        if index in verdicts:
            verdict, note = verdicts[index]
            lines.append(highlight_html(line, [Span(0, len(line), verdict, note)]))
        elif index in chosen:
            lines.append(highlight_html(line, [Span(0, len(line), Correctness.CORRECT)]))
        else:
            lines.append(html.escape(line))
    return "\n".join(lines)


def _conversation(task: TaskBase, result: SimulationResult, transcript: Sequence[ChatTurn]) -> str:
    turns = list(result.answer.messages or transcript)
    spans_by_turn: dict[int, list[Span]] = {}
    for item in result.feedback:
        for c in item.context:
            spans_by_turn.setdefault(c.messageIndex, []).append(
                Span(c.offset, c.length, item.correctness, item.message)
            )
    for detected in result.allAspects:
        for c in detected.context:
            spans_by_turn.setdefault(c.messageIndex, []).append(
                Span(c.offset, c.length, _aspect_verdict(detected.aspect.type), detected.aspect.name)
            )
    persona = getattr(getattr(task, "persona", None), "name", None) or _("Persona")
    speakers = {"user": _("Learner"), "assistant": persona}
    lines = [
        f"<b>{html.escape(speakers.get(turn.role, turn.role))}:</b> "
        + highlight_html(turn.content, spans_by_turn.get(i, []))
        for i, turn in enumerate(turns)
    ]
    return "\n".join(lines)
