"""What follows from judging an answer part by part, shared by the four closed task types.

Multiple choice, multiple responses, fill-in-blanks and in-text choices all judge an answer as a
row of parts (the chosen option, each option, each gap, each choice point), every part right,
wrong, or, for a misspelt gap, half right. From such a row the feedback follows the same way for
all four, so it is built here once:

- one feedback item per part that is not right, or a single CORRECT item when all parts are;
- the detected aspects, one per aspect a part shows, with that part as context;
- the points: one per part, the part's credit achieved.

The engine modules judge the parts and choose their messages; which aspects a part shows follows
one rule for options (:func:`option_part`) and one for gaps and choice points (:func:`gap_part`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from core.api import (
    AspectDefinition,
    AspectType,
    ChoiceOption,
    Correctness,
    DetectedAspect,
    FeedbackItem,
    IndexedContent,
    InvalidParameter,
    Language,
    OptionSelection,
    Points,
    TaskBase,
    verdict_of,
)
from core.engine.base import to_aspect, topic_for
from core.engine.messages import Catalogue

C = TypeVar("C")

_ITEM: dict[type[Any], type[FeedbackItem[Any]]] = {
    IndexedContent: FeedbackItem[IndexedContent],
    OptionSelection: FeedbackItem[OptionSelection],
}
_DETECTED: dict[type[Any], type[DetectedAspect[Any]]] = {
    IndexedContent: DetectedAspect[IndexedContent],
    OptionSelection: DetectedAspect[OptionSelection],
}
"""The generic models parametrised once for each context the parts here have: an item built as
FeedbackItem[Any] would be validated again, field by field, to become the result's
FeedbackItem[IndexedContent] (a subscription also costs pydantic a cache lookup)."""


@dataclass(frozen=True, slots=True)
class JudgedPart(Generic[C]):
    """One option, gap or choice point as the engine judged it."""

    context: C
    """Where the part is in the answer, in the context shape of its task type (API.md 2.4)."""
    credit: float
    """1 when right, 0 when wrong, in between for a near miss."""
    message: str
    """What the learner reads about this part when it is not right."""
    aspects: Sequence[AspectDefinition] = ()
    """The aspects the part is about; its feedback item names them."""
    detected: Sequence[AspectDefinition] = ()
    """The aspects the learner's answer shows in this part."""

    @property
    def is_right(self) -> bool:
        return self.credit >= 1


def feedback_items(
    parts: Sequence[JudgedPart[C]], task: TaskBase, all_right_message: str
) -> list[FeedbackItem[C]]:
    """One item per part that is not right; when every part is right, one CORRECT item about them all."""
    if all(part.is_right for part in parts):
        shown = [definition for part in parts for definition in part.detected]
        return [_item(all_right_message, Correctness.CORRECT, shown, [p.context for p in parts], task)]
    return [
        _item(part.message, verdict_of(part.credit, 1), part.aspects, [part.context], task)
        for part in parts
        if not part.is_right
    ]


def detected_aspects(parts: Sequence[JudgedPart[C]]) -> list[DetectedAspect[C]]:
    """Every aspect a part shows, with that part as its single context (API.md 2.4)."""
    return [
        _DETECTED[type(part.context)](aspect=to_aspect(definition), context=part.context)
        for part in parts
        for definition in part.detected
    ]


def points_of(parts: Sequence[JudgedPart[C]]) -> Points:
    return Points(achievedPoints=sum(part.credit for part in parts), achievablePoints=len(parts))


def authored_message(feedback: str | None, aspects: Sequence[AspectDefinition]) -> str | None:
    """The author's own words for a part that is not right: its feedback, else an aspect's message.

    DESIGN.md: an aspect's message is what to show when a misconception is detected or a concept
    is missing, which is what a wrong part means.
    """
    if feedback and feedback.strip():
        return feedback
    return next((a.message for a in aspects if a.message and a.message.strip()), None)


def gap_part(
    index: int, content: str, credit: float, message: str, aspects: Sequence[AspectDefinition]
) -> JudgedPart[IndexedContent]:
    """A gap or choice point: it shows its concepts when (nearly) right, its misconceptions when wrong.

    A near miss (a misspelt word) still shows that the learner knows the concept. An empty gap
    shows nothing, neither a concept nor a misconception.
    """
    answered = bool(content.strip())
    detected = [
        a
        for a in aspects
        if (a.type is AspectType.CONCEPT and credit > 0)
        or (a.type is AspectType.MISCONCEPTION and credit == 0 and answered)
    ]
    return JudgedPart(IndexedContent(content=content, index=index), credit, message, aspects, detected)


def option_part(
    index: int, option: ChoiceOption, selected: bool, catalogue: Catalogue, language: Language
) -> JudgedPart[OptionSelection]:
    """An option of a choice task: right when selected exactly if correct; it shows its aspects when selected.

    A selected wrong option shows the misconception that leads to it, a selected correct one its
    concept. A correct option left out shows nothing; its item names the concepts it stands for.
    """
    right = selected == option.correct
    if right:
        message = ""
    else:
        key = "choice.option_wrong" if selected else "choice.option_missed"
        message = authored_message(option.feedback, option.aspects) or catalogue.text(
            language, key, number=index + 1
        )
    return JudgedPart(
        context=OptionSelection(index=index, selected=selected),
        credit=1.0 if right else 0.0,
        message=message,
        aspects=option.aspects,
        detected=option.aspects if selected else (),
    )


def require_count(given: int, expected: int, noun: str) -> None:
    """An answer must fill every gap or choice point of its task, no more: else the request is wrong."""
    if given != expected:
        raise InvalidParameter(f"the answer has {given} {noun}, but the task has {expected}")


_APOSTROPHES = str.maketrans(dict.fromkeys("’‘ʼ`", "'"))


def loosely(text: str) -> str:
    """Text as compared when case and spacing do not matter: Unicode casefold, whitespace collapsed.

    NFC first, so that an umlaut typed as one character or as a letter with a combining mark
    agree; and one apostrophe, since phones type ’ where keyboards type '.
    """
    return " ".join(unicodedata.normalize("NFC", text).translate(_APOSTROPHES).casefold().split())


def _item_model(contexts: list[C]) -> type[FeedbackItem[Any]]:
    """The item's model, parametrised with its contexts' kind (an empty list is any kind's)."""
    return _ITEM[type(contexts[0])] if contexts else FeedbackItem[Any]


def _item(
    message: str,
    correctness: Correctness,
    aspects: Sequence[AspectDefinition],
    contexts: list[C],
    task: TaskBase,
) -> FeedbackItem[C]:
    grouped = next((a for a in aspects if a.aspectGroup is not None), None)
    unique = list({a.name: a for a in aspects}.values())
    return _item_model(contexts)(
        message=message,
        aspects=[to_aspect(a) for a in unique],
        correctness=correctness,
        topic=topic_for(grouped, task.display_title),
        context=contexts,
    )
