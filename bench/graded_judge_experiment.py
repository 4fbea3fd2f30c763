"""The learnt judge's probability among graded answers: measured against the lexical coverage.

    python bench/graded_judge_experiment.py [--cost-only]

With at least five graded answers a task is judged by a per-task ridge regression over two
signals (core/engine/freeform/grading.py): the similarity-weighted vote of the graded answers and
the lexical coverage of the sample solutions (``TaskModel.solution_coverage``). This script
measures, on both unseen-answers files, the ridge with

- ``coverage`` (today's engine),
- ``probability``: the learnt judge's probability instead of the coverage (the best sample
  solution, with the judge's rules: ``judge.ruled_probability``, as ``judge.judge`` reads it),
- ``coverage + probability``: the probability as a third signal,

the graded answers and the judged answer alike. Protocol: the judge's weights must not have seen
the corpus being judged, so for SciEntsBank they are trained on SAF English + SAF German, and for
SAF English on SciEntsBank + SAF German (``bench/freeform_grader.py``'s ``fit`` and
``examples_of``, leave one corpus out). The shipped grader.json saw every corpus, these files
included; its figures are printed for information only.

Two measures per file: three folds over the TRAIN answers (as bench/freeform_eval_dev.py's
``held_out_f1``: answer n is judged in fold n % 3, the other two thirds are graded), the mean
macro-F1 of the three folds, on which a decision is made; and the test answers judged with all
train answers graded (today's figure). Then the cost: the first call of a task (building its
graded index) with and without the judge's probability of every graded answer (sentence vectors
and token analyses cleared first, as for a task version the service has not seen), and the CPU
time per judged answer of the engine today (the judge already runs for every answer with graded
answers, for the facts it reports, so the variant adds only one term of the ridge).

The ridge here is grading.py's own pieces (votes, ridge_fit, choose_thresholds), with the signals
as columns. The script also prints the engine's own macro-F1 on the test answers: before the
tenth session the engine used the coverage alone and matched the ``coverage`` rows (0.755 /
0.757); since then it uses both with the shipped weights and matches ``shipped coverage +
probability`` (0.757 / 0.766). Results: docs/freeform-engine.md, "Tenth session".
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.freeform_grader import CORPORA, examples_of, fit  # noqa: E402
from core.api import Correctness, FreeformTextAnswer, FreeformTextTask  # noqa: E402
from core.assets import load_catalogue  # noqa: E402
from core.engine import compute_result  # noqa: E402
from core.engine.base import EngineContext, GradedExample  # noqa: E402
from core.engine.freeform.facts import without_point_marks  # noqa: E402
from core.engine.freeform.grading import (  # noqa: E402
    LABEL_SCORES,
    MIN_GRADED,
    NEIGHBOUR_COUNTS,
    Thresholds,
    choose_thresholds,
    ridge_fit,
    votes,
)
from core.engine.freeform.judge import (  # noqa: E402
    AnswerText,
    Evidence,
    JudgeWeights,
    echoes,
    evidence,
    judge,
    ruled_probability,
    shipped_weights,
)
from core.engine.freeform.model import TaskModel, _score_of, build_model  # noqa: E402
from core.engine.similarity import LexicalBackend  # noqa: E402
from core.engine.text.coverage import AnswerWords  # noqa: E402
from core.engine.text.embedding import encoder  # noqa: E402
from core.engine.text.tokens import analyse  # noqa: E402
from core.evaluation import (  # noqa: E402
    graded_answer_of,
    macro_f1,
    percentile,
    read_questions,
    read_verdict,
    task_of,
)

DATA = ROOT.parent / "shared" / "bench" / "data"
FILES = {"SciEntsBank": "scientsbank-2way-unseen-answers.jsonl", "SAF English": "saf-en-unseen-answers.jsonl"}
FOLDS = 3
VARIANTS = ("coverage", "probability", "coverage + probability")
BACKEND = LexicalBackend()
CATALOGUE = load_catalogue()


@dataclass(slots=True)
class Answer:
    text: str
    label: str
    example: GradedExample
    empty: bool
    coverage: float
    evidence: tuple[Evidence, ...]
    echo: bool

    def probability(self, weights: JudgeWeights) -> float:
        """The judge's chance as judge.judge reads it: the likeliest sample solution, ruled."""
        return max((ruled_probability(weights, f, self.echo) for f in self.evidence), default=0.0)


@dataclass(slots=True)
class Question:
    task: FreeformTextTask
    model: TaskModel
    solutions: list[str]
    train: list[Answer]
    test: list[Answer]


def read(file: str) -> list[Question]:
    out = []
    for q in read_questions(DATA / file):
        task = task_of(q)
        model = build_model(task, (), BACKEND)
        solutions = [without_point_marks(s.content) for s in task.sampleSolutions if s.content.strip()]

        def answer(item: dict, task: FreeformTextTask = task, model: TaskModel = model) -> Answer:
            g = graded_answer_of(item, task.maxPoints)
            analysis = analyse(item["answer"], model.base)
            text = AnswerText.of(analysis)
            return Answer(
                item["answer"],
                item["label"],
                GradedExample(g.answer, Correctness(g.correctness), g.points, g.feedback),
                not analysis.tokens,
                model.solution_coverage(AnswerWords(analysis)),
                tuple(evidence(r, text) for r in model.references),
                echoes(model.statement, text),
            )

        out.append(
            Question(task, model, solutions, [answer(i) for i in q["train"]], [answer(i) for i in q["test"]])
        )
    return out


def signals(variant: str, answer: Answer, weights: JudgeWeights) -> list[float]:
    if variant == "coverage":
        return [answer.coverage]
    if variant == "probability":
        return [answer.probability(weights)]
    return [answer.coverage, answer.probability(weights)]


@dataclass(slots=True)
class Split:
    """One task's graded answers and judged answers, with the similarities (which no variant changes)."""

    graded: list[Answer]
    judged: list[Answer]
    pairwise: list[list[float]] | None
    scores: list[float]
    similarities: list[list[float]]


def split(question: Question, graded: list[Answer], judged: list[Answer]) -> Split:
    usable = [a for a in graded if a.example.correctness in LABEL_SCORES]
    if len(usable) < MIN_GRADED or len({a.example.correctness for a in usable}) < 2:
        return Split(usable, judged, None, [], [])
    index = BACKEND.index([a.text for a in usable] + question.solutions, question.task.language)
    scores = [_score_of(a.example, question.task.maxPoints) for a in usable] + [1.0] * len(question.solutions)
    return Split(usable, judged, index.pairwise(), scores, [index.similarities(a.text) for a in judged])


def mean_vote(similarities: Sequence[float], scores: Sequence[float], skip: int = -1) -> float:
    by_k = votes(similarities, scores, NEIGHBOUR_COUNTS, skip)
    return sum(by_k) / len(by_k)


def verdicts(part: Split, variant: str, weights: JudgeWeights) -> list[Correctness]:
    """grading.Grader with the variant's signals as columns (the coverage alone: the same Grader)."""
    if part.pairwise is None:  # too few graded answers: the learnt judge decides
        return [
            Correctness.WRONG if a.empty else weights.verdict(a.probability(weights))[0] for a in part.judged
        ]
    rows = [
        [mean_vote(part.pairwise[i], part.scores, skip=i), *signals(variant, a, weights), 1.0]
        for i, a in enumerate(part.graded)
    ]
    gold = [a.example.correctness for a in part.graded]
    coef = ridge_fit(rows, part.scores[: len(part.graded)])
    if Correctness.PARTIAL in gold:
        thresholds = choose_thresholds([float(np.dot(coef, r)) for r in rows], gold)
    else:
        thresholds = Thresholds(0.5, 0.5)
    out = []
    for a, sims in zip(part.judged, part.similarities, strict=True):
        row = [mean_vote(sims, part.scores), *signals(variant, a, weights), 1.0]
        out.append(Correctness.WRONG if a.empty else thresholds.verdict(float(np.dot(coef, row))))
    return out


def f1(parts: list[Split], variant: str, weights: JudgeWeights, labels: list[str]) -> float:
    gold = [a.label for p in parts for a in p.judged]
    predicted = [read_verdict(v, labels) for p in parts for v in verdicts(p, variant, weights)]
    return macro_f1(gold, predicted, labels)


def labels_in(answers: list[Answer]) -> list[str]:
    seen = {a.label for a in answers}
    return [label for label in ("CORRECT", "PARTIAL", "WRONG") if label in seen]


def engine_f1(questions: list[Question], labels: list[str]) -> float:
    """The engine itself on the test answers (compute_result, all train answers graded)."""
    gold, predicted = [], []
    for q in questions:
        ctx = EngineContext(
            catalogue=CATALOGUE,
            graded=tuple(a.example for a in q.train),
            cache_key=("graded-judge", q.task.id),
        )
        for a in q.test:
            result = compute_result(q.task, FreeformTextAnswer(content=a.text), ctx)
            gold.append(a.label)
            predicted.append(read_verdict(result.points.verdict, labels))
    return macro_f1(gold, predicted, labels)


def held_out_weights() -> dict[str, JudgeWeights]:
    started = time.perf_counter()
    examples = [e for corpus, files in CORPORA.items() for file in files for e in examples_of(corpus, file)]
    print(f"judge features of {len(examples)} answers in {time.perf_counter() - started:.0f} s", flush=True)
    out = {}
    for corpus in FILES:
        grader = fit([e for e in examples if e.corpus != corpus])
        out[corpus] = JudgeWeights.from_json(grader)
        print(
            f"  weights for {corpus} (trained on {' + '.join(c for c in CORPORA if c != corpus)}): "
            f"coef {np.round(grader['coef'], 3).tolist()}, cut points "
            f"{grader['correct_from']:.2f} / {grader['wrong_below']:.2f}",
            flush=True,
        )
    return out


def quality(questions_of: dict[str, list[Question]], held_out: dict[str, JudgeWeights]) -> None:
    print(
        f"\n{'file (unseen answers)':<14} {'judge weights':<10} {'signals of the ridge':<24} "
        f"{'train 3-fold':>12} {'folds':>20} {'test':>6}"
    )
    for corpus, questions in questions_of.items():
        folds = [
            [
                split(
                    q,
                    [a for n, a in enumerate(q.train) if n % FOLDS != fold],
                    [a for n, a in enumerate(q.train) if n % FOLDS == fold],
                )
                for q in questions
            ]
            for fold in range(FOLDS)
        ]
        test = [split(q, q.train, q.test) for q in questions]
        train_labels = labels_in([a for q in questions for a in q.train])
        test_labels = labels_in([a for q in questions for a in q.test])
        for name, weights in (("held out", held_out[corpus]), ("shipped", shipped_weights())):
            for variant in VARIANTS:
                per_fold = [f1(parts, variant, weights, train_labels) for parts in folds]
                print(
                    f"{corpus:<14} {name:<10} {variant:<24} {np.mean(per_fold):>12.3f} "
                    f"{' '.join(f'{x:.3f}' for x in per_fold):>20} "
                    f"{f1(test, variant, weights, test_labels):>6.3f}",
                    flush=True,
                )
        print(
            f"{corpus:<14} {'(engine itself, test answers, compute_result)':<71} {engine_f1(questions, test_labels):.3f}"
        )


def cost(questions_of: dict[str, list[Question]]) -> None:
    """The engine's first call per task (building its model and graded index; with token analyses
    and sentence vectors cleared first, as for texts the process has not seen, and again with them
    warm, as when a new graded answer rebuilds a task the process knows), the share of it that the
    graded answers' judge probabilities take (computed here as the engine computes them), and the
    CPU time per judged answer (compute_result, the task built)."""
    print(
        f"\n{'file':<14} {'first call ms p50 / max':>24} {'graded probabilities ms':>24} "
        f"{'warm rebuild ms':>16} {'answer CPU ms p50 / p99':>24}"
    )
    for corpus, questions in questions_of.items():
        cold, share, warm, per_answer = [], [], [], []
        for q in questions:
            graded = tuple(a.example for a in q.train)
            analyse.cache_clear()
            encoder()._cache.clear()
            started = time.thread_time()
            model = build_model(q.task, graded, BACKEND)
            cold.append((time.thread_time() - started) * 1000)
            started = time.thread_time()
            build_model(q.task, graded, BACKEND)
            warm.append((time.thread_time() - started) * 1000)
            analyse.cache_clear()
            encoder()._cache.clear()
            started = time.thread_time()
            for g in graded:
                judge(model.references, model.statement, AnswerText.of(analyse(g.text, model.base)))
            share.append((time.thread_time() - started) * 1000)
            ctx = EngineContext(
                catalogue=CATALOGUE, graded=graded, cache_key=("graded-judge-cost", q.task.id)
            )
            compute_result(q.task, FreeformTextAnswer(content="?"), ctx)
            for a in q.test:
                started = time.thread_time()
                compute_result(q.task, FreeformTextAnswer(content=a.text), ctx)
                per_answer.append((time.thread_time() - started) * 1000)
        print(
            f"{corpus:<14} {f'{percentile(cold, 0.5):.0f} / {max(cold):.0f}':>24} "
            f"{f'{percentile(share, 0.5):.0f} / {max(share):.0f}':>24} "
            f"{f'{percentile(warm, 0.5):.0f} / {max(warm):.0f}':>16} "
            f"{f'{percentile(per_answer, 0.5):.2f} / {percentile(per_answer, 0.99):.2f}':>24}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cost-only", action="store_true", help="only the cost, no macro-F1")
    args = parser.parse_args()
    started = time.perf_counter()
    questions_of = {corpus: read(file) for corpus, file in FILES.items()}
    print(f"read the unseen-answers files in {time.perf_counter() - started:.0f} s", flush=True)
    if not args.cost_only:
        quality(questions_of, held_out_weights())
    cost(questions_of)


if __name__ == "__main__":
    main()
