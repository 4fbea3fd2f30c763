"""A retest report as a plain-text table, for the command line and CI logs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.api import AnswerRetest, AnswerSource, FeedbackSnapshot, RetestReport, TaskRetest

HEADER = ("ANSWER", "GIVEN", "BEFORE", "AFTER", "ASPECTS", "CHECK")
CELL_WIDTH = 40


def format_report(report: RetestReport) -> str:
    blocks = [_task_block(task) for task in report.tasks]
    answers = sum(len(task.answers) for task in report.tasks)
    outcome = "passed" if report.passed else "FAILED"
    blocks.append(
        f"{len(report.tasks)} tasks, {answers} answers, {report.changedCount} changed, "
        f"{report.failed} failing expectations: {outcome}"
    )
    return "\n\n".join(blocks)


def _task_block(task: TaskRetest) -> str:
    version = f", version {task.version}" if task.version is not None else ""
    heading = f"{task.taskId}  {task.title or ''}  ({task.taskType}{version})"
    if not task.answers:
        return f"{heading}\n  no test answers and no earlier answers"
    return f"{heading}\n{_table([HEADER, *(_row(a) for a in task.answers)])}"


def _row(item: AnswerRetest) -> tuple[str, ...]:
    if item.source is AnswerSource.TEST_ANSWER:
        name = item.label
        aspects = ", ".join(item.after.aspects) if item.after else ""
    else:
        name = f"earlier {item.label[:8]}" + (f" x{item.occurrences}" if item.occurrences > 1 else "")
        aspects = ", ".join([*(f"+{a}" for a in item.aspectsGained), *(f"-{a}" for a in item.aspectsLost)])
    return (
        name,
        answer_summary(item.answer),
        _verdict(item.before),
        _verdict(item.after),
        aspects,
        _check(item),
    )


def _verdict(snapshot: FeedbackSnapshot | None) -> str:
    if snapshot is None:
        return "-"
    return f"{snapshot.verdict.value} {snapshot.achievedPoints:g}/{snapshot.achievablePoints:g}"


def _check(item: AnswerRetest) -> str:
    if item.failures:
        return "FAIL: " + "; ".join(item.failures)
    if item.error:
        return f"error: {item.error}"
    if item.source is AnswerSource.TEST_ANSWER:
        return "ok"
    return "changed" if item.changed else "same"


def answer_summary(answer: dict[str, Any]) -> str:
    """An answer in a few words, whatever its task type."""
    if "content" in answer:
        return str(answer["content"])
    if "selectedIndex" in answer:
        return f"option {answer['selectedIndex']}"
    if "selected" in answer:
        return "options " + ",".join(str(i) for i, chosen in enumerate(answer["selected"]) if chosen)
    for key in ("blanks", "choices"):
        if key in answer:
            return " | ".join(str(piece.get("content", "")) for piece in answer[key])
    if answer.get("messages"):
        return f"{len(answer['messages'])} messages"
    return f"conversation {answer.get('conversationId', '?')}"


def _table(rows: Sequence[Sequence[str]]) -> str:
    """Aligned columns; all but the last (the verdict of the check, read in full) are clipped."""
    rows = [[*(_clip(cell) for cell in row[:-1]), row[-1]] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _clip(cell: str) -> str:
    cell = " ".join(cell.split())
    return cell if len(cell) <= CELL_WIDTH else cell[: CELL_WIDTH - 1] + "…"
