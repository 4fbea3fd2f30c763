"""`feedback-studio eval`: judge the test answers of benchmark files through a Service.

File format: shared bench README (JSON Lines, one question a line with ``train`` and ``test``
answers). Each question becomes a FreeformTextTask; its train answers become graded answers; each
test answer is judged by ``compute_feedback`` and its verdict read from the result's points.
The metrics are plain functions so they can be tested on their own.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.api import (
    ComputeFeedbackRequest,
    Correctness,
    FreeformTextAnswer,
    FreeformTextTask,
    GradedAnswer,
    GradedAnswersRequest,
    Language,
    SampleSolutionText,
    TaskType,
)
from core.service.base import Service

EVAL_USER = "eval"
WARMUP_ANSWER = "?"
"""Judged once per task before the timed answers: the engine builds a task's index on first use
(reported as 'first ms'), and the per-answer latency is meant to measure answers, not that."""


def accuracy(gold: Sequence[str], predicted: Sequence[str]) -> float:
    return sum(g == p for g, p in zip(gold, predicted, strict=True)) / len(gold) if gold else 0.0


def per_label_f1(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> dict[str, float]:
    scores = {}
    for label in labels:
        tp = sum(g == label and p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(g != label and p == label for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label and p != label for g, p in zip(gold, predicted, strict=True))
        scores[label] = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return scores


def macro_f1(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> float:
    """The mean of the per-label F1 over the gold labels of the file."""
    scores = per_label_f1(gold, predicted, labels)
    return sum(scores.values()) / len(scores) if scores else 0.0


def confusion(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> list[list[int]]:
    """rows: gold label, columns: predicted label, both in ``labels`` order."""
    position = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, predicted, strict=True):
        matrix[position[g]][position[p]] += 1
    return matrix


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (share in 0 … 1): the smallest value with ``share`` of them at or below."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered) - 1e-9)))
    return ordered[rank - 1]


def read_verdict(verdict: Correctness, labels: Sequence[str]) -> str:
    """PARTIAL (and UNKNOWN) count as WRONG in files whose labels are only CORRECT and WRONG."""
    if verdict.value in labels:
        return verdict.value
    return Correctness.WRONG.value


LABEL_ORDER = ("CORRECT", "PARTIAL", "WRONG")


@dataclass(slots=True)
class FileReport:
    path: str
    labels: list[str]
    gold: list[str] = field(default_factory=list)
    predicted: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    warmup_ms: list[float] = field(default_factory=list)
    """The first call per task, untimed in the latencies: it builds the task's index once."""
    questions: int = 0
    graded_answers: int = 0

    @property
    def matrix_labels(self) -> list[str]:
        """The file's labels and any other label the engine predicted (a file whose answers are
        all CORRECT still shows the WRONG column), in the usual order."""
        seen = set(self.labels) | set(self.predicted)
        return [label for label in LABEL_ORDER if label in seen]

    @property
    def accuracy(self) -> float:
        return accuracy(self.gold, self.predicted)

    @property
    def macro_f1(self) -> float:
        return macro_f1(self.gold, self.predicted, self.matrix_labels)

    @property
    def confusion(self) -> list[list[int]]:
        return confusion(self.gold, self.predicted, self.matrix_labels)

    @property
    def p50_ms(self) -> float:
        return percentile(self.latencies_ms, 0.5)

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies_ms, 0.99)

    @property
    def first_ms(self) -> float:
        """Mean time of the first call per task (index build included)."""
        return sum(self.warmup_ms) / len(self.warmup_ms) if self.warmup_ms else 0.0


REQUIRED = ("id", "problemStatement")


def read_questions(path: Path) -> list[dict[str, Any]]:
    """One question a line; a line that is not one, or lacks a field, is named in the error."""
    questions = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                question = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(
                    f"{path}, line {number}: not one JSON object on one line ({exc.msg})"
                ) from None
            missing = [key for key in REQUIRED if not isinstance(question, dict) or key not in question]
            if missing:
                raise ValueError(f"{path}, line {number}: a question needs {' and '.join(missing)}")
            questions.append(question)
    return questions


def task_of(question: dict[str, Any]) -> FreeformTextTask:
    return FreeformTextTask(
        id=str(question["id"]),
        problemStatement=question["problemStatement"],
        language=Language(question.get("language", "EN_US")),
        sampleSolutions=[SampleSolutionText(content=s) for s in question.get("sampleSolutions", [])],
        maxPoints=float(question.get("maxPoints", 1)),
    )


def graded_answer_of(item: dict[str, Any], max_points: float) -> GradedAnswer:
    score = item.get("score")
    return GradedAnswer(
        answer={"content": item["answer"]},
        correctness=Correctness(item["label"]),
        points=score * max_points if score is not None else None,
        feedback=item.get("feedback") or None,
    )


def _request(task: FreeformTextTask, tenant_id: str, content: str) -> ComputeFeedbackRequest:
    return ComputeFeedbackRequest(
        userId=EVAL_USER,
        tenantId=tenant_id,
        taskType=TaskType.FREEFORM_TEXT,
        taskDefinition=task,
        answer=FreeformTextAnswer(content=content),
    )


async def evaluate_file(
    service: Service,
    path: str | Path,
    tenant_id: str,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> FileReport:
    """Upsert each question as a task, add its train answers as graded answers, judge its test
    answers one by one (each call timed) and compare the verdicts with the gold labels.
    ``progress`` is told, after every judged answer, how many are done of how many (the command
    shows a progress bar)."""
    questions = read_questions(Path(path))
    total = sum(len(q.get("test", [])) for q in questions)
    seen = {item["label"] for q in questions for part in ("train", "test") for item in q.get(part, [])}
    report = FileReport(path=str(path), labels=[label for label in LABEL_ORDER if label in seen])
    for question in questions:
        task = task_of(question)
        await service.upsert_task(tenant_id, task)
        train = question.get("train", [])
        if train:
            request = GradedAnswersRequest(answers=[graded_answer_of(item, task.maxPoints) for item in train])
            await service.add_graded_answers(tenant_id, task.id, request)
        report.questions += 1
        report.graded_answers += len(train)
        started = time.perf_counter()
        await service.compute_feedback(_request(task, tenant_id, WARMUP_ANSWER))
        report.warmup_ms.append((time.perf_counter() - started) * 1000)
        for item in question.get("test", []):
            started = time.perf_counter()
            feedback = await service.compute_feedback(_request(task, tenant_id, item["answer"]))
            report.latencies_ms.append((time.perf_counter() - started) * 1000)
            report.gold.append(item["label"])
            report.predicted.append(read_verdict(feedback.result.points.verdict, report.labels))
            progress(len(report.gold), total)
    return report


def format_report(reports: Sequence[FileReport]) -> str:
    lines = [
        f"{'file':<42} {'answers':>7} {'accuracy':>8} {'macro-F1':>8} {'p50 ms':>7} {'p99 ms':>7}"
        f" {'first ms':>8}",
    ]
    for r in reports:
        lines.append(
            f"{Path(r.path).name:<42} {len(r.gold):>7} {r.accuracy:>8.3f} {r.macro_f1:>8.3f} "
            f"{r.p50_ms:>7.2f} {r.p99_ms:>7.2f} {r.first_ms:>8.1f}"
        )
    for r in reports:
        lines += ["", f"{Path(r.path).name}: confusion (rows gold, columns predicted)"]
        labels = r.matrix_labels
        width = max(len(label) for label in labels) + 2
        lines.append(" " * width + "".join(f"{label:>{width}}" for label in labels))
        for label, row in zip(labels, r.confusion, strict=True):
            lines.append(f"{label:<{width}}" + "".join(f"{n:>{width}}" for n in row))
    return "\n".join(lines)
