"""Class sets: a class's 1,000 answers to one question judged, then graded one at a time.

What a teacher waits for, through the embedded service the apps use (SQLite file, one process):

* **import**: 1,000 answers imported and judged a batch at a time (core.client.class_sets.
  import_set, as both apps do it, progress after every batch); against the baseline of the same
  answers judged one at a time by the feedback endpoint (the only way before class sets).
* **grade → verdicts**: one grade given, then the set read again with every verdict moved
  (grade_class_set_answer's answer holds the counts of every verdict); ten grades taken in the
  review order, each timed; against judging every answer again after each grade.
* **page**: the first 50 answers in the grouped order (verdicts, groups and feedback).
* **export**: the whole set as CSV, after the teacher read it (feedback written again only where a
  grade moved the verdict).
* **macro-F1** of the verdicts against the class's labels, before grading and after ten grades in
  the review order (over the answers not graded: the same blend as bench/learning_curve.py).

The answers are a real class's (SAF German: about 250 answers to one question; SciEntsBank and SAF
English: 40 to 110), sampled to 1,000; an answer beyond the first use of its text loses one word
at random, so the encoder's cache does not judge repeats for free.

    .venv/bin/python bench/class_sets.py [--answers 1000] [--corpus saf-de]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from core.api import Correctness, FreeformTextAnswer, FreeformTextTask, SampleSolutionText, TaskType
from core.api.class_sets import ClassSetGrade, ClassSetOrder
from core.api.feedback import ComputeTaskFeedbackRequest
from core.client.class_sets import import_set
from core.config import Settings
from core.evaluation import macro_f1
from core.service import connect
from core.service.base import Service

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "bench" / "data"
CORPORA = {
    "saf-de": "saf-de-unseen-questions-dev.jsonl",
    "scientsbank": "scientsbank-2way-unseen-questions.jsonl",
    "saf-en": "saf-en-unseen-questions.jsonl",
}


def class_of(corpus: str, size: int, seed: int = 7) -> tuple[FreeformTextTask, list[str], list[str]]:
    """The question with the most answers, its answers sampled to ``size``, and their labels."""
    rows = [json.loads(line) for line in (DATA / CORPORA[corpus]).read_text(encoding="utf-8").splitlines()]
    question = max(rows, key=lambda r: len(r["train"]) + len(r["test"]))
    answers = question["train"] + question["test"]
    task = FreeformTextTask(
        id=f"class-{corpus}",
        problemStatement=question["problemStatement"],
        sampleSolutions=[SampleSolutionText(content=s) for s in question["sampleSolutions"]],
        maxPoints=question.get("maxPoints") or 1,
        language=question["language"],
    )
    rng = random.Random(seed)
    texts, labels, seen = [], [], set()
    for _ in range(size):
        answer = rng.choice(answers)
        text = answer["answer"]
        if text in seen and len(words := text.split()) > 3:
            del words[rng.randrange(len(words))]
            text = " ".join(words)
        seen.add(answer["answer"])
        texts.append(text)
        labels.append(answer["label"])
    return task, texts, labels


async def run(corpus: str, size: int) -> dict[str, float]:
    task, texts, labels = class_of(corpus, size)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{folder}/bench.sqlite3", seed_demo=False)
        service = await connect(settings)
        try:
            return await measure(service, task, texts, labels)
        finally:
            await service.aclose()


async def measure(
    service: Service, task: FreeformTextTask, texts: list[str], labels: list[str]
) -> dict[str, float]:
    tenant = "default"
    await service.upsert_task(tenant, task)
    found: dict[str, float] = {}
    await service.compute_feedback_for_task(task.id, _request(texts[0]))  # models loaded, as in an app

    started = time.perf_counter()
    for text in texts[:100]:
        await service.compute_feedback_for_task(task.id, _request(text))
    found["one by one, s per 1,000"] = (time.perf_counter() - started) * len(texts) / 100

    updates: list[float] = []
    started = time.perf_counter()
    current = await import_set(
        service, tenant, task.id, "bench", texts, lambda s: updates.append(time.perf_counter())
    )
    found["import and judge, s"] = time.perf_counter() - started
    found["progress updates"] = len(updates)
    set_id = current.classSetId
    found["macro-F1 before grading"] = await agreement(service, set_id, labels, graded=set())

    grades, graded = [], set()
    for _ in range(10):
        review = await service.class_set_answers(tenant, set_id, ClassSetOrder.REVIEW, 0, 1)
        pick = review.answers[0]
        grade = (
            Correctness(labels[pick.position])
            if labels[pick.position] in Correctness.__members__
            else Correctness.WRONG
        )
        started = time.perf_counter()
        await service.grade_class_set_answer(tenant, set_id, pick.position, ClassSetGrade(correctness=grade))
        grades.append(time.perf_counter() - started)
        graded.add(texts[pick.position])
    found["grade → every verdict, p50 s"] = statistics.median(grades)
    found["grade → every verdict, max s"] = max(grades)

    started = time.perf_counter()
    await service.class_set_answers(tenant, set_id, ClassSetOrder.GROUPED, 0, 50)
    found["grouped page of 50, s"] = time.perf_counter() - started
    started = time.perf_counter()
    await service.export_class_set(tenant, set_id)
    found["export CSV (after reading), s"] = time.perf_counter() - started
    found["macro-F1 after 10 grades"] = await agreement(service, set_id, labels, graded)
    return found


async def agreement(service: Service, set_id: str, labels: list[str], graded: set[str]) -> float:
    """Macro-F1 of the set's verdicts against the class's labels, over the answers whose words no
    grade gave (two-way where the corpus is: PARTIAL counts as WRONG)."""
    page = await service.class_set_answers("default", set_id, ClassSetOrder.POSITION, 0, len(labels))
    pairs = [
        (labels[a.position], a.verdict.value) for a in page.answers if a.text not in graded and a.verdict
    ]
    kinds = sorted(set(labels))
    if "PARTIAL" not in kinds:
        pairs = [(gold, "WRONG" if verdict == "PARTIAL" else verdict) for gold, verdict in pairs]
    return macro_f1([g for g, _ in pairs], [v for _, v in pairs], kinds)


def _request(text: str) -> ComputeTaskFeedbackRequest:
    return ComputeTaskFeedbackRequest(
        userId="bench",
        tenantId="default",
        taskType=TaskType.FREEFORM_TEXT,
        answer=FreeformTextAnswer(content=text),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=1_000)
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append")
    args = parser.parse_args()
    corpora = args.corpus or sorted(CORPORA)
    results = {corpus: asyncio.run(run(corpus, args.answers)) for corpus in corpora}
    names = list(next(iter(results.values())))
    print(f"class sets of {args.answers} answers (embedded service, SQLite file)")
    print("| measure | " + " | ".join(corpora) + " |")
    print("|---|" + "---|" * len(corpora))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{results[c][name]:.2f}" for c in corpora) + " |")
    for corpus in corpora:
        r = results[corpus]
        print(
            f"{corpus}: import {r['import and judge, s']:.1f} s = "
            f"{r['one by one, s per 1,000'] / r['import and judge, s']:.1f}× faster than one by one"
        )


if __name__ == "__main__":
    main()
