"""Class sets in both apps: a class's answers read from a file, imported into a set and judged with
progress that the user can stop, and the words the apps show for them.

A file is one of three kinds, told by its name: CSV with a header row that names the answer column
(``answer``, or the word in one of the apps' languages; a file of one column needs no such name),
JSON Lines (each line a string, or an object with such a key), or plain text with one answer per
line. UTF-8, with or without a byte-order mark. Blank answers are left out; duplicates are kept
(two learners may write the same words, and grading one grades the other).

An import is all or nothing: a set whose answers could not all be added and judged (the user
stopped it, the service failed) is deleted again, so no half-imported set is left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.api import ServiceError
from core.api.class_sets import (
    ANSWER_MAX_CHARS,
    ANSWERS_PER_REQUEST,
    CLASS_SET_MAX_ANSWERS,
    ClassSet,
    ClassSetAnswersAdd,
    ClassSetCreate,
    ClassSetJudgeRequest,
    GradedBy,
)
from core.client.i18n import N_, number, translate
from core.service.base import Service

MAX_FILE_BYTES = 10_000_000
"""5,000 answers of 2,000 characters: a file beyond this is not a class's answers to one task."""
ANSWER_COLUMNS = ("answer", "answers", "antwort", "réponse", "reponse", "risposta", "text", "response")
"""Header names of the answer column, compared without case (English, German, French, Italian)."""
JUDGED_AT_ONCE = 100
"""Answers judged per call: progress moves about once a second, and stopping waits no longer."""
GRADED_BY = {
    GradedBy.AUTHOR: N_("graded by you"),
    GradedBy.JUDGE: N_("judged"),
    GradedBy.NOT_JUDGED: N_("not judged yet"),
}
NO_CLASS_SETS = N_(
    "No class sets yet. Import a file of a class's answers (CSV, JSON Lines or one answer per line)."
)
SUFFIXES = (".csv", ".jsonl", ".ndjson", ".txt")


class ImportProblem(ValueError):
    """Why a file cannot be imported, in the user's language, naming the file."""


@dataclass(frozen=True, slots=True)
class ReadAnswers:
    answers: list[str]
    duplicates: int
    """Answers that repeat an earlier one (kept)."""
    blank: int
    """Blank answers left out."""

    def summary(self, language: str) -> str:
        """One line for the user: how many answers, and what happened to the odd ones."""
        parts = [
            translate(language, N_("{count} answers")).format(count=number(len(self.answers), language, 0))
        ]
        if self.duplicates:
            parts.append(
                translate(
                    language, N_("{count} repeat an earlier answer (kept; a grade goes to all)")
                ).format(count=number(self.duplicates, language, 0))
            )
        if self.blank:
            parts.append(
                translate(language, N_("{count} blank left out")).format(
                    count=number(self.blank, language, 0)
                )
            )
        return " · ".join(parts)


def read_answers(name: str, data: bytes, language: str) -> ReadAnswers:
    """The answers of a file, or ImportProblem saying what is wrong with it."""

    def say(message: str, **params: object) -> ImportProblem:
        return ImportProblem(translate(language, message).format(name=name, **params))

    if len(data) > MAX_FILE_BYTES:
        raise say(
            N_("{name} is {size} MB; a file of a class's answers may be at most {limit} MB."),
            size=number(len(data) / 1e6, language, 1),
            limit=number(MAX_FILE_BYTES / 1e6, language, 0),
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise say(
            N_("{name} is not UTF-8 text (byte {offset}): save it as UTF-8 and import it again."),
            offset=exc.start,
        ) from None
    suffix = Path(name).suffix.lower()
    try:
        lines = list(
            _csv_answers(text, name, language)
            if suffix == ".csv"
            else _json_lines(text)
            if suffix in (".jsonl", ".ndjson")
            else ((n, line) for n, line in enumerate(text.splitlines(), 1))
        )
    except (json.JSONDecodeError, csv.Error, _NotAnAnswer) as exc:
        line = getattr(exc, "lineno", None) or getattr(exc, "line", "?")
        raise say(
            N_("{name}, line {line}: not an answer ({problem})."), line=line, problem=str(exc)
        ) from None
    answers = [(n, a.strip()) for n, a in lines]
    kept = [(n, a) for n, a in answers if a]
    if not kept:
        raise say(N_("{name} holds no answers."))
    if len(kept) > CLASS_SET_MAX_ANSWERS:
        raise say(
            N_("{name} holds {count} answers; a class set holds at most {limit}."),
            count=number(len(kept), language, 0),
            limit=number(CLASS_SET_MAX_ANSWERS, language, 0),
        )
    for n, a in kept:
        if len(a) > ANSWER_MAX_CHARS:
            raise say(
                N_(
                    "{name}, line {line}: the answer has {length} characters; an answer may have at most {limit}."
                ),
                line=n,
                length=number(len(a), language, 0),
                limit=number(ANSWER_MAX_CHARS, language, 0),
            )
    texts = [a for _, a in kept]
    return ReadAnswers(texts, sum(c - 1 for c in Counter(texts).values()), len(answers) - len(kept))


class _NotAnAnswer(ValueError):
    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line = line


def _csv_answers(text: str, name: str, language: str) -> Iterator[tuple[int, str]]:
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = next(reader, None)
    if header is None:
        return
    names = [h.strip().casefold() for h in header]
    column = next((i for i, h in enumerate(names) if h in ANSWER_COLUMNS), 0 if len(names) == 1 else None)
    if column is None:
        raise ImportProblem(
            translate(
                language,
                N_("{name} has no answer column: name one of its columns “answer” (its columns: {columns})."),
            ).format(name=name, columns=", ".join(h.strip() for h in header))
        )
    for row in reader:
        if column < len(row):
            yield reader.line_num, row[column]


def _json_lines(text: str) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        value = json.loads(line)
        if isinstance(value, dict):
            value = next((value[k] for k in value if str(k).casefold() in ANSWER_COLUMNS), None)
        if not isinstance(value, str):
            raise _NotAnAnswer(n, "a string, or an object with an “answer”")
        yield n, value


def _chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


async def import_set(
    service: Service,
    tenant_id: str,
    task_id: str,
    name: str,
    answers: Sequence[str],
    progress: Callable[[ClassSet], None],
) -> ClassSet:
    """A new set of ``answers``, every one judged, ``progress`` told after each batch. Stopped
    (cancelled) or failed, the set is deleted again before the exception goes on."""
    batches = list(_chunks(answers, ANSWERS_PER_REQUEST))
    creating = asyncio.ensure_future(
        service.create_class_set(tenant_id, task_id, ClassSetCreate(name=name, answers=list(batches[0])))
    )
    try:
        created = await asyncio.shield(creating)
    except asyncio.CancelledError:
        # Stopped while the set was being created: it may be written all the same. Once the
        # creation has its answer, the set is deleted again.
        with contextlib.suppress(ServiceError):
            await _forget(service, tenant_id, (await creating).classSetId)
        raise
    try:
        for batch in batches[1:]:
            created = await service.add_class_set_answers(
                tenant_id, created.classSetId, ClassSetAnswersAdd(answers=list(batch))
            )
        return await judge_rest(service, tenant_id, created, progress)
    except BaseException:
        await asyncio.shield(_forget(service, tenant_id, created.classSetId))
        raise


async def judge_rest(
    service: Service, tenant_id: str, current: ClassSet, progress: Callable[[ClassSet], None]
) -> ClassSet:
    """Judges a set's answers not judged yet (a set reopened after its task changed), a batch at a
    time; stopping keeps what was judged."""
    progress(current)
    while current.judgedCount < current.answerCount:
        before = current.judgedCount
        current = await service.judge_class_set(
            tenant_id, current.classSetId, ClassSetJudgeRequest(limit=JUDGED_AT_ONCE)
        )
        progress(current)
        if current.judgedCount <= before and current.judgedCount < current.answerCount:
            raise ServiceError(f"judging class set {current.classSetId!r} makes no progress")
    return current


async def _forget(service: Service, tenant_id: str, set_id: str) -> None:
    with contextlib.suppress(ServiceError):  # the import's own failure is the one to report
        await service.delete_class_set(tenant_id, set_id)
