"""What a feedback result says, computed once for both apps: the answer with its evidence marked,
the sample solution in words, and an answer in one line. Plain data; each app only draws it (the
terminal app as Rich text, the web app as HTML), so both show every task type alike.

The rendering, by task type (docs/architecture.md, "Results"):

- free text: the answer; each item's context span and each detected aspect's span is marked;
- fill-in blanks and in-text choices: the problem statement with the learner's pieces filled in
  where its ``{{n}}`` markers are (an empty piece reads "…"), each piece marked;
- multiple choice and multiple responses: one line per option of the task, ``●``/``○`` (one
  choice) or ``☑``/``☐`` (several) before it, chosen or named options marked; an index the task
  no longer has (an answer from before an edit) reads "option N";
- simulation: the conversation, one line per turn after its speaker (the learner, the persona by
  name); without the turns, the quoted evidence, one line each.

A part of a gap or option answer that no item names was judged right (the exact engines name every
part they find wrong) and is marked CORRECT. The sample solution is the same text in words: the
statement with the solution's pieces filled in, the right options' texts ("option N" for one the
task no longer has), the freeform solutions one paragraph each.

Words the apps show (a speaker, "option N") are made with the ``_`` of the app that draws them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.api import (
    AspectType,
    ChatTurn,
    Correctness,
    FeedbackResult,
    FreeformTextResult,
    InTextChoicesResult,
    InTextFillInBlanksResult,
    MultipleChoiceResult,
    MultipleResponsesResult,
    SimulationResult,
    TaskBase,
)
from core.api.validation import GAP
from core.client.i18n import N_
from core.client.learner import learner_result

Translate = Callable[[str], str]

SEVERITY = (Correctness.CORRECT, Correctness.UNKNOWN, Correctness.PARTIAL, Correctness.WRONG)
"""The verdicts from the mildest to the gravest: where marks overlap, the gravest shows."""

STILL_MISSING = N_("Something the task asks for is still missing.")
"""What a learner reads of an item about a missing concept that has no hint (core.client.learner)."""

EMPTY_PIECE = "…"
"""A gap the answer left empty, or the statement names beyond the answer's pieces."""

OPTION_BOXES = {
    MultipleChoiceResult: ("●", "○"),
    MultipleResponsesResult: ("☑", "☐"),
}
"""The box before an option (chosen, not chosen): a radio button for one choice, a tick box for several."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One piece of evidence on a segment: a feedback item's verdict and message, or a detected
    aspect (``aspect`` set; a concept counts CORRECT, a misconception WRONG) and its name."""

    verdict: Correctness
    note: str = ""
    aspect: AspectType | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    marks: tuple[Mark, ...] = ()
    speaker: bool = False
    """The name of who speaks a turn of a conversation, not words of the answer."""

    @property
    def verdict(self) -> Correctness | None:
        """The gravest verdict among the marks; None when unmarked."""
        return gravest(m.verdict for m in self.marks)

    @property
    def notes(self) -> str:
        """The marks' messages and names, each once, in order."""
        return " · ".join(dict.fromkeys(m.note for m in self.marks if m.note))


Line = tuple[Segment, ...]
"""A line of the answer as shown; a free-text answer is one line, which may hold line breaks."""


@dataclass(frozen=True, slots=True)
class RenderedResult:
    result: FeedbackResult
    """The result as the reader may read it: a learner's has the solution's words taken out."""
    answer: tuple[Line, ...]
    sample_solution: str
    """Empty where there is none, and always for a learner."""

    @property
    def answer_text(self) -> str:
        """The answer as plain text, as both apps show it."""
        return "\n".join("".join(segment.text for segment in line) for line in self.answer)


def gravest(verdicts: Iterable[Correctness]) -> Correctness | None:
    return max(verdicts, key=SEVERITY.index, default=None)


def render_result(
    task: TaskBase | None,
    result: FeedbackResult,
    _: Translate,
    transcript: Sequence[ChatTurn] = (),
    *,
    for_learner: bool = False,
) -> RenderedResult:
    """What ``result`` (of an answer to ``task``, None where it is not known: the gaps then follow
    each other, the options are named by number) says; ``transcript``: the conversation of a
    simulation whose result does not carry its turns. ``for_learner``: as a learner may read it
    (core.client.learner): no sample solution, no missing concept named."""
    if for_learner and task is not None:
        result = learner_result(task, result, _(STILL_MISSING))
    solution = "" if for_learner else sample_solution(task, result, _)
    return RenderedResult(result, _answer(task, result, _, transcript), solution)


def _answer(
    task: TaskBase | None, result: Any, _: Translate, transcript: Sequence[ChatTurn]
) -> tuple[Line, ...]:
    if isinstance(result, FreeformTextResult):
        return (marked_text(result.answer.content, _text_marks(result)),)
    if isinstance(result, InTextFillInBlanksResult | InTextChoicesResult):
        return (_gaps(task, result),)
    if isinstance(result, MultipleChoiceResult | MultipleResponsesResult):
        return _options(task, result, _)
    if isinstance(result, SimulationResult):
        return _conversation(task, result, _, transcript)
    return ((Segment(str(result.answer.to_wire())),),)


def sample_solution(task: TaskBase | None, result: Any, _: Translate) -> str:
    """The sample solution of ``result`` in words (see the module doc); empty where there is none."""
    if isinstance(result, FreeformTextResult):
        solutions = result.sampleSolutions or ([result.sampleSolution] if result.sampleSolution else [])
        return "\n\n".join(s.content for s in solutions)
    if isinstance(result, SimulationResult):
        return result.sampleSolution.content if result.sampleSolution else ""
    if isinstance(result, InTextFillInBlanksResult):
        pieces = [b.content for b in result.sampleSolution.blanks]
        return fill_gaps(statement(task, len(pieces)), pieces)[0]
    if isinstance(result, InTextChoicesResult):
        pieces = [c.content for c in result.sampleSolution.choices]
        return fill_gaps(statement(task, len(pieces)), pieces)[0]
    options = option_texts(task)
    if isinstance(result, MultipleChoiceResult):
        return option_text(options, result.sampleSolution.selectedIndex, _)
    if isinstance(result, MultipleResponsesResult):
        right = [i for i, chosen in enumerate(result.sampleSolution.selected) if chosen]
        return "\n".join(f"• {option_text(options, i, _)}" for i in right)
    return ""


def answer_excerpt(task: TaskBase | None, answer: dict[str, Any], _: Translate) -> str:
    """An answer as one line of plain text, whatever its type: lists of answers (the history, a
    retest) show what was given, chosen options by their text rather than their index."""
    options = option_texts(task)
    if "content" in answer:
        return str(answer["content"])
    if "blanks" in answer or "choices" in answer:
        return " · ".join(
            str(p.get("content", "")) for p in answer.get("blanks") or answer.get("choices") or []
        )
    if "selectedIndex" in answer:
        return option_text(options, answer["selectedIndex"], _)
    if "selected" in answer:
        chosen = [option_text(options, i, _) for i, selected in enumerate(answer["selected"]) if selected]
        return " · ".join(chosen) or _("no option chosen")
    turns = [str(t.get("content", "")) for t in answer.get("messages") or [] if t.get("role") == "user"]
    return " / ".join(turns) or _("conversation")


def option_texts(task: TaskBase | None) -> list[str]:
    return [o.content for o in getattr(task, "options", [])]


def statement(task: TaskBase | None, gaps: int) -> str:
    """The problem statement with its gap markers; without the task, the gaps one after another."""
    return (
        task.problemStatement if task is not None else " · ".join(f"{{{{{n}}}}}" for n in range(1, gaps + 1))
    )


def option_text(options: Sequence[str], index: int, _: Translate) -> str:
    """An option's text; its number when the task no longer has it (an answer from before an edit)."""
    return options[index] if 0 <= index < len(options) else _("option {number}").format(number=index + 1)


def fill_gaps(statement: str, pieces: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """The statement with {{n}} replaced by pieces[n-1] (an empty or missing one by "…"), and
    where each piece landed (offset, length)."""
    out, places, cursor, last = [], [(0, 0)] * len(pieces), 0, 0
    for match in GAP.finditer(statement):
        before = statement[last : match.start()]
        number = int(match.group(1))
        known = 0 < number <= len(pieces)
        piece = (pieces[number - 1] if known else "") or EMPTY_PIECE
        cursor += len(before)
        if known:
            places[number - 1] = (cursor, len(piece))
        out += [before, piece]
        cursor += len(piece)
        last = match.end()
    out.append(statement[last:])
    return "".join(out), places


@dataclass(frozen=True, slots=True)
class Span:
    """Evidence at a place in a text: ``text[offset:offset + length]``."""

    offset: int
    length: int
    mark: Mark


def marked_text(text: str, spans: Iterable[Span]) -> Line:
    """``text`` cut at every span's ends, each piece with the marks of the spans covering it.
    Spans outside the text are left out; one running past its end stops there."""
    usable = [s for s in spans if s.length > 0 and 0 <= s.offset < len(text)]
    cuts = sorted(
        {0, len(text)} | {s.offset for s in usable} | {min(s.offset + s.length, len(text)) for s in usable}
    )
    return tuple(
        Segment(
            text[start:end], tuple(s.mark for s in usable if s.offset <= start and end <= s.offset + s.length)
        )
        for start, end in itertools.pairwise(cuts)
    )


def _aspect_mark(aspect_type: AspectType, name: str) -> Mark:
    verdict = Correctness.WRONG if aspect_type is AspectType.MISCONCEPTION else Correctness.CORRECT
    return Mark(verdict, name, aspect_type)


def _text_marks(result: Any, turn: int | None = None) -> list[Span]:
    """The spans of the items first, then of the detected aspects (of one turn of a conversation)."""

    def here(context: Any) -> bool:
        return turn is None or context.messageIndex == turn

    spans = [
        Span(c.offset, c.length, Mark(item.correctness, item.message))
        for item in result.feedback
        for c in item.context
        if here(c)
    ]
    spans += [
        Span(c.offset, c.length, _aspect_mark(found.aspect.type, found.aspect.name))
        for found in result.allAspects
        for c in found.context
        if here(c)
    ]
    return spans


def _indexed_marks(result: Any) -> dict[int, tuple[Mark, ...]]:
    """The marks of the items naming each indexed part of the answer (a gap, an option)."""
    marks: dict[int, tuple[Mark, ...]] = {}
    for item in result.feedback:
        for context in item.context:
            marks[context.index] = (*marks.get(context.index, ()), Mark(item.correctness, item.message))
    return marks


JUDGED_RIGHT = (Mark(Correctness.CORRECT),)
"""The mark of an answered part no item names."""


def _gaps(task: TaskBase | None, result: InTextFillInBlanksResult | InTextChoicesResult) -> Line:
    given = result.answer.blanks if isinstance(result, InTextFillInBlanksResult) else result.answer.choices
    pieces = [p.content for p in given]
    text, places = fill_gaps(statement(task, len(pieces)), pieces)
    marks = _indexed_marks(result)
    spans = [
        Span(offset, length, mark)
        for index, (offset, length) in enumerate(places)
        for mark in marks.get(index, JUDGED_RIGHT)
    ]
    return marked_text(text, spans)


def _options(
    task: TaskBase | None, result: MultipleChoiceResult | MultipleResponsesResult, _: Translate
) -> tuple[Line, ...]:
    options = option_texts(task)
    if isinstance(result, MultipleChoiceResult):
        chosen = {result.answer.selectedIndex}
    else:
        chosen = {i for i, selected in enumerate(result.answer.selected) if selected}
    marks = _indexed_marks(result)
    shown = range(max([len(options) - 1, *chosen, *marks], default=-1) + 1)
    ticked, unticked = OPTION_BOXES[type(result)]
    lines = []
    for index in shown:
        if index >= len(options) and index not in chosen and index not in marks:
            continue
        mark = marks.get(index) or (JUDGED_RIGHT if index in chosen else ())
        box = ticked if index in chosen else unticked
        lines.append((Segment(f"{box} "), Segment(option_text(options, index, _), mark)))
    return tuple(lines)


def _conversation(
    task: TaskBase | None, result: SimulationResult, _: Translate, transcript: Sequence[ChatTurn]
) -> tuple[Line, ...]:
    turns = list(result.answer.messages or transcript)
    if not turns:
        return _quoted_evidence(result)
    persona = getattr(getattr(task, "persona", None), "name", None) or _("Persona")
    speakers = {"user": _("Learner"), "assistant": persona}
    return tuple(
        (
            Segment(f"{speakers.get(turn.role, turn.role)}:", speaker=True),
            Segment(" "),
            *marked_text(turn.content, _text_marks(result, index)),
        )
        for index, turn in enumerate(turns)
    )


def _quoted_evidence(result: SimulationResult) -> tuple[Line, ...]:
    """The pieces of the conversation the evidence quotes, one line each (items first)."""
    items = [
        (c.content, Mark(item.correctness, item.message)) for item in result.feedback for c in item.context
    ]
    items += [
        (c.content, _aspect_mark(found.aspect.type, found.aspect.name))
        for found in result.allAspects
        for c in found.context
    ]
    return tuple((Segment(f"“{content}”", (mark,)),) for content, mark in items)
