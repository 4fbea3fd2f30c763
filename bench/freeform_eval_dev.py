"""The freeform engine without the service: its cost per answer and its verdicts, file by file.

    python bench/freeform_eval_dev.py [DATA_DIR]       (default: ../shared/bench/data)

Each file's test answers judged with the shipped weights and every train answer of their question
graded (in-sample: grader.json saw these corpora; bench/freeform_grader.py and
bench/learning_curve.py give the held-out figures): macro-F1 and the engine's CPU time per answer
(of the thread, p50 and p99), the task's model built before the clock starts.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.api import FreeformTextAnswer
from core.assets import load_catalogue
from core.engine import compute_result
from core.engine.base import EngineContext, GradedExample
from core.evaluation import (
    LABEL_ORDER,
    graded_answer_of,
    macro_f1,
    percentile,
    read_questions,
    read_verdict,
    task_of,
)

CATALOGUE = load_catalogue()


def labels_of(questions: list[dict], part: str) -> list[str]:
    seen = {i["label"] for q in questions for i in q[part]}
    return [label for label in LABEL_ORDER if label in seen]


def examples(task, items) -> tuple[GradedExample, ...]:
    return tuple(
        GradedExample(g.answer, g.correctness, g.points, g.feedback)
        for g in (graded_answer_of(i, task.maxPoints) for i in items)
    )


def engine_cost(data: Path) -> None:
    print(f"{'file':<42} {'macro-F1':>8} {'cpu p50 ms':>10} {'cpu p99 ms':>10}")
    for path in sorted(data.glob("*.jsonl")):
        questions = read_questions(path)
        labels = labels_of(questions, "test")
        gold, predicted, cpu = [], [], []
        for q in questions:
            task = task_of(q)
            ctx = EngineContext(
                catalogue=CATALOGUE, graded=examples(task, q["train"]), cache_key=("cost", task.id)
            )
            compute_result(task, FreeformTextAnswer(content="?"), ctx)
            for item in q["test"]:
                started = time.thread_time()
                result = compute_result(task, FreeformTextAnswer(content=item["answer"]), ctx)
                cpu.append((time.thread_time() - started) * 1000)
                gold.append(item["label"])
                predicted.append(read_verdict(result.points.verdict, labels))
        print(
            f"{path.name:<42} {macro_f1(gold, predicted, labels):>8.3f}"
            f" {percentile(cpu, 0.5):>10.2f} {percentile(cpu, 0.99):>10.2f}"
        )


if __name__ == "__main__":
    data = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared/bench/data"
    )
    engine_cost(data)
