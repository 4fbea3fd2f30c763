"""Feedback on a fill-in-blanks answer: each gap is matched against its blank's accepted answers.

Matching, per blank:
- EXACT: equal to an accepted answer once outer whitespace is trimmed;
- CASE_INSENSITIVE: equal after Unicode casefold and collapsing whitespace;
- FUZZY: as CASE_INSENSITIVE, and a near miss (rapidfuzz ratio of at least NEAR_MISS_RATIO to
  an accepted answer, and for one word against one word not a word of its own: "asynchronous"
  for "synchronous" is wrong, as the freeform judge reads it) is half right: PARTIAL, with a
  hint to check the spelling;
- NUMERIC: a number within the blank's tolerance (default 0) of an accepted answer. Decimals may
  use a point or a comma; spaces, apostrophes and a second kind of separator group thousands
  (1 000,5 · 1'000.5 · 1.000,5 · 1,000.5). A lone separator followed by exactly three digits
  ("1,500", "300,000") is read as the task's language writes numbers: in English (and Swiss
  German, which groups with apostrophes) a comma groups thousands and a point is the decimal
  mark; in German, French, Italian and Spanish the other way round.
  Text that is no number gets its own message.

Points: one per gap, half a point for a FUZZY near miss. Aspects: a gap shows its blank's
concepts when it is right or nearly right, its misconceptions when it is filled in wrongly
(an empty gap shows nothing). Context index is the gap's position in answer.blanks, from 0.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from rapidfuzz import fuzz

from core.api import (
    Blank,
    BlanksSolution,
    IndexedContent,
    InTextFillInBlanksAnswer,
    InTextFillInBlanksResult,
    InTextFillInBlanksTask,
    InvalidParameter,
    Language,
    Matching,
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
from core.engine.text.coverage import another_word
from core.engine.text.languages import base_of, stem

NEAR_MISS_RATIO = 80.0
"""rapidfuzz ratio (0–100) from which a FUZZY answer counts as misspelt rather than wrong."""
NEAR_MISS_CREDIT = 0.5


class Fit(Enum):
    RIGHT = "right"
    NEAR_MISS = "near miss"
    WRONG = "wrong"
    EMPTY = "empty"
    NOT_A_NUMBER = "not a number"


_CREDIT = {Fit.RIGHT: 1.0, Fit.NEAR_MISS: NEAR_MISS_CREDIT}
_CATALOGUE_KEY = {
    Fit.NEAR_MISS: "blanks.gap_spelling",
    Fit.EMPTY: "blanks.gap_empty",
    Fit.NOT_A_NUMBER: "blanks.gap_not_a_number",
}
"""Fits whose own message says more than the author's feedback on a wrong gap could."""


def compute(
    task: InTextFillInBlanksTask, answer: InTextFillInBlanksAnswer, ctx: EngineContext
) -> InTextFillInBlanksResult:
    check_task(task)
    require_count(len(answer.blanks), len(task.blanks), "blanks")
    parts = [
        _judge_gap(i, blank, piece.content, ctx.catalogue, task.language)
        for i, (blank, piece) in enumerate(zip(task.blanks, answer.blanks, strict=True))
    ]
    return InTextFillInBlanksResult(
        allAspects=detected_aspects(parts),
        answer=answer,
        feedback=feedback_items(parts, task, ctx.catalogue.text(task.language, "blanks.all_right")),
        points=points_of(parts),
        sampleSolution=_sample_solution(tuple(blank.acceptedAnswers[0] for blank in task.blanks)),
    )


@lru_cache(maxsize=1024)
def _sample_solution(first_accepted: tuple[str, ...]) -> BlanksSolution:
    """A task's sample solution, one model for all its results (a value, which nothing changes)."""
    return BlanksSolution(blanks=[SampleSolutionText(content=text) for text in first_accepted])


def _judge_gap(
    index: int, blank: Blank, content: str, catalogue: Catalogue, language: Language
) -> JudgedPart[IndexedContent]:
    fit = fit_of(blank, content, gap_number=index + 1, language=language)
    params = {"number": index + 1, "content": content.strip()}
    if fit is Fit.RIGHT:
        message = ""
    elif fit in _CATALOGUE_KEY:
        message = catalogue.text(language, _CATALOGUE_KEY[fit], **params)
    else:
        message = authored_message(blank.feedback, blank.aspects) or catalogue.text(
            language, "blanks.gap_wrong", **params
        )
    return gap_part(index, content, _CREDIT.get(fit, 0.0), message, blank.aspects)


def fit_of(blank: Blank, content: str, gap_number: int, language: Language | None = None) -> Fit:
    """How a learner's text fits a blank under the blank's matching rule; ``language`` decides
    what an ambiguous "1,500" means (both readings count without it)."""
    text = content.strip()
    if not text:
        return Fit.EMPTY
    accepted, wanted = _accepted(tuple(blank.acceptedAnswers))
    if blank.matching is Matching.EXACT:
        return Fit.RIGHT if text in accepted else Fit.WRONG
    if blank.matching is Matching.NUMERIC:
        return _numeric_fit(text, accepted, blank.tolerance or 0.0, gap_number, language)
    if loosely(text) in wanted:
        return Fit.RIGHT
    if blank.matching is Matching.FUZZY and _misspelt(
        loosely(text), wanted, base_of(language or Language.EN_US)
    ):
        return Fit.NEAR_MISS
    return Fit.WRONG


@lru_cache(maxsize=4096)
def _accepted(answers: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    """A blank's accepted answers trimmed, and as loosely compares them: worked out once, not for
    every answer to the blank."""
    trimmed = tuple(a.strip() for a in answers)
    return trimmed, frozenset(loosely(a) for a in trimmed)


def _misspelt(text: str, wanted: frozenset[str], base: str) -> bool:
    """The text is a near miss of an accepted answer: as close in spelling as NEAR_MISS_RATIO, and
    not, for one word against one word, a word of its own ("asynchronous" for "synchronous",
    "decreases" for "increases", "meiosis" for "mitosis": wrong, not misspelt)."""
    return any(
        fuzz.ratio(text, answer) >= NEAR_MISS_RATIO
        and not (
            " " not in text
            and " " not in answer
            and another_word(base, text, answer, stem(base, text), stem(base, answer))
        )
        for answer in wanted
    )


def _numeric_fit(
    text: str, accepted: tuple[str, ...], tolerance: float, gap_number: int, language: Language | None
) -> Fit:
    given = readings_of(text, language)
    if not given:
        return Fit.NOT_A_NUMBER
    for answer in accepted:
        targets = _accepted_readings(answer, language)
        if not targets:
            raise InvalidParameter(f"blank {gap_number}: accepted answer {answer!r} is not a number")
        if any(abs(x - t) <= tolerance + 1e-9 * max(1.0, abs(t)) for x in given for t in targets):
            return Fit.RIGHT
    return Fit.WRONG


_GROUPING = re.compile(r"[\s'’_]")
_NUMBER = re.compile(r"([+-]?)(\d*(?:[.,]\d+)*)")


COMMA_DECIMAL = frozenset({"de", "fr", "it", "es"})
"""Languages that write the decimal mark as a comma (Swiss German, DE_CH, uses the point)."""


def readings_of(text: str, language: Language | None = None) -> tuple[float, ...]:
    """The values a learner can mean by a number: none, one, or, without a language, two for
    "1,500" (1.5 or 1500)."""
    match = _NUMBER.fullmatch(_GROUPING.sub("", text).replace("−", "-"))
    if match is None or not match.group(2):
        return ()
    sign, body = match.groups()
    if not any(c in ".," for c in body):
        return (float(sign + body),)
    decimal = body[max(body.rfind("."), body.rfind(","))]
    integer, _, fraction = body.rpartition(decimal)
    if decimal in integer:  # the last separator is repeated: it groups thousands (1.000.000)
        whole = None if ("," in body and "." in body) else _ungrouped(body, decimal)
        return () if whole is None else (float(sign + whole),)
    other = "," if decimal == "." else "."
    whole = _ungrouped(integer, other)
    if whole is None:
        return ()
    value = float(f"{sign}{whole or 0}.{fraction}")
    if other not in integer and len(fraction) == 3 and integer[:1] not in ("", "0") and len(integer) <= 3:
        grouped = float(f"{sign}{integer}{fraction}")
        if language is None:
            return (value, grouped)
        comma_decimal = language.base in COMMA_DECIMAL and language is not Language.DE_CH
        return (value,) if (decimal == ",") == comma_decimal else (grouped,)
    return (value,)


_accepted_readings = lru_cache(maxsize=4096)(readings_of)
"""readings_of an accepted answer, remembered as _accepted is."""


def _ungrouped(grouped: str, separator: str) -> str | None:
    """The digits of a whole number written in groups of three, or None when the groups are not."""
    if separator not in grouped:
        return grouped
    if re.fullmatch(rf"\d{{1,3}}(?:{re.escape(separator)}\d{{3}})+", grouped):
        return grouped.replace(separator, "")
    return None
