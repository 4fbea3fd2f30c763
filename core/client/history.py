"""A task's history as both apps filter and export it: by learner, verdict and date range, and as
CSV for a spreadsheet (one row an interaction, UTF-8 with a byte-order mark so that Excel reads
umlauts and accents right).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from core.api import Correctness, InteractionRecord
from core.client.overrides import effective_verdict

CSV_COLUMNS = (
    "interactionId",
    "taskId",
    "taskVersion",
    "createdAt",
    "userId",
    "verdict",
    "achievedPoints",
    "achievablePoints",
    "answer",
    "feedback",
    "rating",
    "ratingMessage",
    "teacherVerdict",
    "teacherNote",
    "teacherName",
    "teacherAt",
)
"""``verdict`` is the engine's; the teacher* columns carry a teacher's override (empty without)."""


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """Which interactions to show; the empty filter shows all."""

    user: str = ""
    """Part of the learner's userId, in any case."""
    verdicts: frozenset[Correctness] = frozenset()
    """None chosen: every verdict. A teacher's verdict counts in place of the engine's."""
    since: date | None = None
    until: date | None = None
    """Both days included, in UTC (the dates the history shows)."""

    def matches(self, record: InteractionRecord) -> bool:
        day = record.createdAt.date()
        return (
            self.user.casefold() in record.userId.casefold()
            and (not self.verdicts or effective_verdict(record) in self.verdicts)
            and (self.since is None or day >= self.since)
            and (self.until is None or day <= self.until)
        )

    def apply(self, records: Iterable[InteractionRecord]) -> list[InteractionRecord]:
        return [r for r in records if self.matches(r)]


def day_of(text: str | None) -> date | None:
    """A day typed or picked as YYYY-MM-DD; None while it is empty or not a date yet (typing)."""
    try:
        return date.fromisoformat(text.strip()) if text else None
    except ValueError:
        return None


def answer_text(answer: dict[str, object]) -> str:
    """A free-text answer as its text; any other answer as its compact JSON."""
    content = answer.get("content")
    if isinstance(content, str) and len(answer) == 1:
        return content
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def interactions_csv(records: Sequence[InteractionRecord]) -> str:
    """The records as CSV text, a header row first (commas, quoted where needed, CRLF rows)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for r in records:
        result = r.feedback.result
        teacher = r.override
        writer.writerow(
            (
                r.interactionId,
                r.taskId,
                r.taskVersion,
                r.createdAt.isoformat(),
                r.userId,
                r.verdict.value,
                result.points.achievedPoints,
                result.points.achievablePoints,
                answer_text(r.answer),
                " | ".join(item.message for item in result.feedback),
                r.rating.type.value if r.rating else "",
                (r.rating.message or "") if r.rating else "",
                teacher.verdict.value if teacher else "",
                (teacher.note or "") if teacher else "",
                teacher.author if teacher else "",
                teacher.updatedAt.isoformat() if teacher else "",
            )
        )
    return out.getvalue()


def csv_bytes(records: Sequence[InteractionRecord]) -> bytes:
    """The CSV as a file's bytes: UTF-8 with a byte-order mark (Excel's cue for UTF-8)."""
    return interactions_csv(records).encode("utf-8-sig")
