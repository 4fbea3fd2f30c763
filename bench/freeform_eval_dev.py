"""The freeform engine without the service: how the general constants were chosen, and its cost.

    python bench/freeform_eval_dev.py [DATA_DIR]       (default: ../shared/bench/data)

1. Similarity constants (stop-word weight, n-gram share): three folds over the TRAIN answers of
   each unseen-answers question (one third held out, the rest graded); mean held-out macro-F1.
2. Engine-only cost per test answer (CPU time of the thread, p50 and p99) and macro-F1 per file.
No test answer is used in 1. Tasks without graded answers are judged by the learnt judge, whose
weights and cut points bench/freeform_grader.py trains leaving one corpus out.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core.engine.similarity as similarity
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
FOLDS = 3
UNSEEN_ANSWERS = ("scientsbank-2way-unseen-answers.jsonl", "saf-en-unseen-answers.jsonl")


def labels_of(questions: list[dict], part: str) -> list[str]:
    seen = {i["label"] for q in questions for i in q[part]}
    return [label for label in LABEL_ORDER if label in seen]


def examples(task, items) -> tuple[GradedExample, ...]:
    return tuple(
        GradedExample(g.answer, g.correctness, g.points, g.feedback)
        for g in (graded_answer_of(i, task.maxPoints) for i in items)
    )


def held_out_f1(path: Path, constants: tuple[float, float], fold: int) -> float:
    similarity.STOP_WEIGHT, similarity.NGRAM_SHARE = constants
    questions = read_questions(path)
    labels = labels_of(questions, "train")
    gold, predicted = [], []
    for q in questions:
        task = task_of(q)
        graded = examples(task, [i for n, i in enumerate(q["train"]) if n % FOLDS != fold])
        ctx = EngineContext(catalogue=CATALOGUE, graded=graded, cache_key=(constants, fold, task.id))
        for item in (i for n, i in enumerate(q["train"]) if n % FOLDS == fold):
            result = compute_result(task, FreeformTextAnswer(content=item["answer"]), ctx)
            gold.append(item["label"])
            predicted.append(read_verdict(result.points.verdict, labels))
    return macro_f1(gold, predicted, labels)


def _cross_validated(job: tuple[Path, tuple[float, float]]) -> float:
    path, constants = job
    return sum(held_out_f1(path, constants, fold) for fold in range(FOLDS)) / FOLDS


def choose_similarity_constants(data: Path) -> None:
    grid = list(product((0.1, 0.25, 0.5, 1.0), (0.15, 0.3)))
    jobs = [(data / name, constants) for constants in grid for name in UNSEEN_ANSWERS]
    with ProcessPoolExecutor() as pool:
        scores = list(pool.map(_cross_validated, jobs))
    print("stop weight, n-gram share: mean held-out macro-F1 of the train answers, per file")
    for i, (stop_weight, ngram_share) in enumerate(grid):
        pair = scores[2 * i : 2 * i + 2]
        print(
            f"  {stop_weight:<5} {ngram_share:<5} "
            + "  ".join(f"{s:.3f}" for s in pair)
            + f"  mean {sum(pair) / 2:.3f}"
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
    choose_similarity_constants(data)
    engine_cost(data)
