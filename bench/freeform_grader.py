"""Train the freeform judge for new tasks and measure it leaving one corpus out.

    python bench/freeform_grader.py            # the leave-one-corpus-out table
    python bench/freeform_grader.py --write    # also retrain on all corpora and write the weights

The judge (core/engine/freeform/judge.py) reads four features of an answer against the sample
solutions' facts. Here a logistic regression over them is trained across tasks, and its two cut
points chosen, on two corpora; the third corpus's unseen-questions file is then judged. No weight
and no cut point ever sees an answer of the corpus being judged. Each training corpus weighs the
same, whatever its size. Cut points: among the pairs whose mean macro-F1 over the training corpora
is within 0.01 of the best, the median of each (a flat optimum's middle, not its edge).

--write trains on all three corpora the same way and writes core/engine/freeform/grader.json.

Several sample solutions: every question of the three corpora has one, yet an author may give
several, and the judge takes the best (they are alternatives). The best of several estimates is an
optimistic one, so the judge lowers it by a learnt penalty per logarithm of their number
(JudgeWeights.best_of). It is learnt here on questions given further solutions: correct learner
answers (of at least four words) of the same question, 1, 2 or 4 of them, drawn once per question,
taken from each corpus's first file; that file's answers to judge, without the drawn ones, are
judged against the solution and the first k drawn. The penalty for a held-out corpus is chosen on
the other two (judged with the weights trained without it), as the cut points are; the table shows
each corpus with and without it.

--cohort N measures a frozen cohort (docs/freeform-engine.md, "Relative evidence"): per question,
the mean and spread of the features over its first N answers are frozen, and a second model adds
each answer's z-scores of fact alignment and fact gain among them. Judged are the answers after
the first N (those the freeze would change), plain and with the cohort, in file order and in
--orders random orders of each question's answers (which answers come first is chance).
Needs scikit-learn (a dev dependency); the product itself reads the JSON with numpy only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.engine.freeform.judge import (  # noqa: E402
    FEATURES,
    AnswerText,
    Evidence,
    JudgeWeights,
    echoes,
    evidence,
    ruled_probability,
)
from core.engine.freeform.model import build_model  # noqa: E402
from core.engine.text.tokens import analyse  # noqa: E402
from core.evaluation import macro_f1, read_questions, read_verdict, task_of  # noqa: E402

DATA = ROOT.parent / "shared" / "bench" / "data"
CORPORA = {
    "SciEntsBank": ("scientsbank-2way-unseen-answers.jsonl", "scientsbank-2way-unseen-questions.jsonl"),
    "SAF English": ("saf-en-unseen-answers.jsonl", "saf-en-unseen-questions.jsonl"),
    "SAF German": ("saf-de-unseen-questions-dev.jsonl",),
}
TARGETS = {"SciEntsBank": 0.78, "SAF English": 0.76, "SAF German": 0.55}
BEFORE = {"SciEntsBank": 0.750, "SAF English": 0.737, "SAF German": 0.338}
"""The lexical engine's macro-F1 on the unseen-questions files (its constants were fitted on
English train answers, so only the German figure is a fair leave-one-corpus-out comparison)."""
GRID = np.linspace(0.02, 0.98, 49)
FLAT = 0.01
RESAMPLES = 1000
"""Bootstrap resamples of a judged file's questions for the interval beside its macro-F1: answers
to one question share their sample solution and rise or fall together, so questions, not answers,
are what is drawn (a corpus of 8 questions is 8 draws, not 384)."""


@dataclass(slots=True)
class Example:
    corpus: str
    file: str
    values: np.ndarray
    label: str
    question: str = ""
    position: int = 0
    """Where the answer stands among its question's answers (train, then test, in file order)."""
    per_reference: np.ndarray | None = None
    """The features against each sample solution, one row each (``values`` is one of them)."""
    evidence: tuple[Evidence, ...] = ()
    """What the answer shows of each sample solution, for the judge's rules (ruled_probability)."""
    echo: bool = False


EXTRA_SOLUTIONS = (1, 2, 4)
"""How many further sample solutions (correct learner answers) the questions get in the several-
solutions table."""
MIN_SOLUTION_WORDS = 4
"""A learner answer of fewer words ("Yes.", "sand") is no sample solution an author would write."""
PENALTIES = np.round(np.arange(0.0, 3.0001, 0.1), 1)


def labels_of(examples: list[Example]) -> list[str]:
    seen = {e.label for e in examples}
    return [label for label in ("CORRECT", "PARTIAL", "WRONG") if label in seen]


def examples_of(corpus: str, file: str) -> list[Example]:
    out = []
    for question in read_questions(DATA / file):
        task = task_of(question)
        model = build_model(task, ())
        if not model.references:
            continue
        for position, item in enumerate(question.get("train", []) + question.get("test", [])):
            answer = AnswerText.of(analyse(item["answer"], model.base))
            found = tuple(evidence(r, answer) for r in model.references)
            per_reference = np.array([f.features for f in found])
            values = per_reference[best_reference(per_reference)]
            echo = echoes(model.statement, answer)
            out.append(
                Example(corpus, file, values, item["label"], task.id, position, per_reference, found, echo)
            )
    return out


def with_more_solutions(corpus: str, seed: int = 0) -> list[Example]:
    """The answers to judge of the corpus's first file, each with its evidence against the sample
    solution and then against the question's drawn correct answers (max(EXTRA_SOLUTIONS) of them;
    ``evidence[: k + 1]`` is the question with k further solutions). Questions with too few such
    answers are left out; the drawn answers are not judged."""
    file = CORPORA[corpus][0]
    rng = np.random.default_rng(seed)
    out = []
    for question in read_questions(DATA / file):
        pool = question.get("train") or question["test"]
        correct = [
            i["answer"]
            for i in pool
            if i["label"] == "CORRECT" and len(i["answer"].split()) >= MIN_SOLUTION_WORDS
        ]
        if len(correct) < max(EXTRA_SOLUTIONS):
            continue
        drawn = [correct[i] for i in rng.permutation(len(correct))[: max(EXTRA_SOLUTIONS)]]
        task = task_of({**question, "sampleSolutions": [*question["sampleSolutions"][:1], *drawn]})
        model = build_model(task, ())
        for item in question["test"]:
            if item["answer"] in drawn:
                continue
            answer = AnswerText.of(analyse(item["answer"], model.base))
            found = tuple(evidence(r, answer) for r in model.references)
            values = found[0].features
            echo = echoes(model.statement, answer)
            out.append(Example(corpus, file, values, item["label"], task.id, evidence=found, echo=echo))
    return out


def chances(weights: JudgeWeights, examples: list[Example]) -> list[list[float]]:
    """Each answer's chance against each of its sample solutions (before the penalty)."""
    return [[ruled_probability(weights, f, e.echo) for f in e.evidence] for e in examples]


def several_solutions_f1(
    weights: JudgeWeights, examples: list[Example], per_solution: list[list[float]], k: int
) -> float:
    """Macro-F1 of the answers judged against the sample solution and k further ones."""
    labels = labels_of(examples)
    predicted = read(weights, np.array([weights.best_of(c[: k + 1]) for c in per_solution]), labels)
    return macro_f1([e.label for e in examples], predicted, labels)


def fit_penalty(weights: JudgeWeights, simulated: dict[str, list[Example]]) -> float:
    """The penalty with the best mean macro-F1 over the given corpora and numbers of further
    solutions (the middle of a flat optimum, as the cut points)."""
    scored = [(es, chances(weights, es)) for es in simulated.values()]

    def mean_f1(penalty: float) -> float:
        w = replace(weights, solutions_penalty=float(penalty))
        return float(
            np.mean([several_solutions_f1(w, es, c, k) for es, c in scored for k in EXTRA_SOLUTIONS])
        )

    score = {penalty: mean_f1(penalty) for penalty in PENALTIES}
    top = max(score.values())
    return float(np.median([penalty for penalty, value in score.items() if value >= top - FLAT]))


def best_reference(per_reference: np.ndarray) -> int:
    """With several sample solutions, the one the answer covers best (the judge takes the
    likeliest; before there are weights, coverage plus gain is the stand-in)."""
    return int(np.argmax(per_reference[:, 0] + per_reference[:, 1]))


COHORT_FEATURES = (0, 1)
"""Which features get a z-score among the cohort: fact alignment and fact gain (facts beaten as
well, fact alignment alone, ranks instead of z-scores, the cohort's means as features: no better,
docs/freeform-engine.md)."""
SPREAD_FLOOR = 0.02
"""A cohort whose answers barely differ in a feature must not blow its z-scores up."""


def with_cohort(examples: list[Example], size: int, seed: int | None) -> list[Example]:
    """Each answer with z-scores against the first ``size`` answers of its question, in file
    order or (``seed``) in a random order; ``position`` is then the answer's place in that order."""
    by_question: dict[tuple[str, str], list[Example]] = defaultdict(list)
    for e in examples:
        by_question[(e.file, e.question)].append(e)
    rng = np.random.default_rng(seed)
    out = []
    for answers in by_question.values():
        ordered = sorted(answers, key=lambda e: e.position)
        if seed is not None:
            ordered = [ordered[i] for i in rng.permutation(len(ordered))]
        cohort = np.array([e.per_reference for e in ordered[:size]])
        mean, spread = cohort.mean(axis=0), np.maximum(cohort.std(axis=0), SPREAD_FLOOR)
        for position, e in enumerate(ordered):
            best = best_reference(e.per_reference)
            z = (e.per_reference[best] - mean[best]) / spread[best]
            values = np.concatenate([e.values, z[list(COHORT_FEATURES)]])
            out.append(replace(e, values=values, position=position))
    return out


def read(weights: JudgeWeights, probabilities: np.ndarray, labels: list[str]) -> list[str]:
    """The judge's verdicts as the benchmark reads them (PARTIAL is WRONG in a 2-way file)."""
    return [read_verdict(weights.verdict(p)[0], labels) for p in probabilities]


def fit(train: list[Example], features: tuple[str, ...] = FEATURES) -> dict:
    by_corpus: dict[str, list[Example]] = defaultdict(list)
    for e in train:
        by_corpus[e.corpus].append(e)
    weights = np.array([1.0 / len(by_corpus[e.corpus]) for e in train])
    weights *= len(weights) / weights.sum()
    x = np.array([e.values for e in train])
    scaler = StandardScaler().fit(x, sample_weight=weights)
    model = LogisticRegression(max_iter=2000).fit(
        scaler.transform(x), [e.label == "CORRECT" for e in train], sample_weight=weights
    )
    grader = {
        "features": list(features),
        "mean": scaler.mean_.tolist(),
        "scale": scaler.scale_.tolist(),
        "coef": model.coef_[0].tolist(),
        "intercept": float(model.intercept_[0]),
        "correct_from": 0.5,
        "wrong_below": 0.5,
    }
    weights = weights_of(grader)
    scored = {
        c: (probabilities(weights, es), [e.label for e in es], labels_of(es)) for c, es in by_corpus.items()
    }

    def mean_f1(hi: float, lo: float) -> float:
        cut = replace(weights, correct_from=hi, wrong_below=lo)
        return float(np.mean([macro_f1(g, read(cut, p, ls), ls) for p, g, ls in scored.values()]))

    pairs = [(mean_f1(hi, lo), hi, lo) for hi in GRID for lo in GRID[hi > GRID]]
    top = max(score for score, _, _ in pairs)
    near = [(hi, lo) for score, hi, lo in pairs if score >= top - FLAT]
    grader["correct_from"] = float(np.median([hi for hi, _ in near]))
    grader["wrong_below"] = float(np.median([lo for _, lo in near]))
    return grader


def scores(weights: JudgeWeights, judged: list[Example]) -> str:
    """A table row's figures: answers, questions, accuracy, macro-F1 and its interval."""
    labels = labels_of(judged)
    predicted = read(weights, probabilities(weights, judged), labels)
    gold = [e.label for e in judged]
    accuracy = sum(g == p for g, p in zip(gold, predicted, strict=True)) / len(gold)
    low, high = interval(judged, predicted, labels)
    questions = len({(e.file, e.question) for e in judged})
    return (
        f"{len(judged):>7} {questions:>9} {accuracy:>8.3f} {macro_f1(gold, predicted, labels):>8.3f} "
        f"{f'{low:.3f}–{high:.3f}':>13}"
    )


def interval(judged: list[Example], predicted: list[str], labels: list[str]) -> tuple[float, float]:
    """The 95 % bootstrap interval of macro-F1 over the file's questions (seeded: the same run
    gives the same interval)."""
    by_question: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, e in enumerate(judged):
        by_question[(e.file, e.question)].append(index)
    groups = list(by_question.values())
    rng = np.random.default_rng(0)
    scores = []
    for _ in range(RESAMPLES):
        drawn = [i for g in rng.integers(len(groups), size=len(groups)) for i in groups[g]]
        scores.append(macro_f1([judged[i].label for i in drawn], [predicted[i] for i in drawn], labels))
    low, high = np.percentile(scores, [2.5, 97.5])
    return float(low), float(high)


def weights_of(grader: dict) -> JudgeWeights:
    """The model of a grader dict of any features (JudgeWeights.from_json insists on the judge's own)."""
    return JudgeWeights.from_json({**grader, "features": list(FEATURES)})


def probabilities(weights: JudgeWeights, examples: list[Example]) -> np.ndarray:
    """The judge's chance for each answer as the product reads it: the likeliest sample solution,
    with the rules that overrule the model (a verbatim solution, an echo, a contradiction)."""
    if examples and len(weights.coef) != len(examples[0].evidence[0].features):
        # a cohort model: features beyond the evidence's, so no rules
        return weights.probabilities(np.array([e.values for e in examples]))
    return np.array([weights.best_of(c) for c in chances(weights, examples)])


def cohort_weights(examples: list[Example], corpus: str, cohort: bool) -> JudgeWeights:
    """The plain or the cohort model, weights and cut points from the corpora other than ``corpus``."""
    names = FEATURES + tuple(f"cohort_z_{FEATURES[i]}" for i in COHORT_FEATURES) if cohort else FEATURES
    return weights_of(
        fit([replace(e, values=e.values[: len(names)]) for e in examples if e.corpus != corpus], names)
    )


def f1_after_freeze(examples: list[Example], corpus: str, size: int, weights: JudgeWeights) -> float:
    """Macro-F1 on the corpus's unseen-questions answers after the first ``size`` of each question."""
    width = len(weights.coef)
    judged = [e for e in examples if e.file == CORPORA[corpus][-1] and e.position >= size]
    labels = labels_of(judged)
    chances = weights.probabilities(np.array([e.values[:width] for e in judged]))
    return macro_f1([e.label for e in judged], read(weights, chances, labels), labels)


def cohort_table(examples: list[Example], size: int, orders: int) -> None:
    print(f"frozen cohort of the first {size} answers: macro-F1 on the answers after them, plain -> cohort")
    print(f"{'judged':<14} {'file order':>16} {f'mean of {orders} random orders':>30} {'worst change':>12}")
    for corpus in CORPORA:
        plain = cohort_weights(examples, corpus, cohort=False)
        runs = []
        for seed in [None, *range(1, orders + 1)]:
            ordered = with_cohort(examples, size, seed)
            relative = cohort_weights(ordered, corpus, cohort=True)
            runs.append([f1_after_freeze(ordered, corpus, size, w) for w in (plain, relative)])
        first, rest = runs[0], np.array(runs[1:])
        change = rest[:, 1] - rest[:, 0]
        print(
            f"{corpus:<14} {first[0]:>7.3f} -> {first[1]:.3f} {rest[:, 0].mean():>15.3f} -> "
            f"{rest[:, 1].mean():.3f} ({change.mean():+.3f}) {change.min():>+12.3f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="retrain on all corpora and write grader.json")
    parser.add_argument(
        "--cohort", type=int, metavar="N", help="measure a frozen cohort of N answers instead"
    )
    parser.add_argument("--orders", type=int, default=5, help="random answer orders for --cohort")
    args = parser.parse_args()
    started = time.perf_counter()
    examples = [e for corpus, files in CORPORA.items() for file in files for e in examples_of(corpus, file)]
    print(f"features of {len(examples)} answers in {time.perf_counter() - started:.1f} s\n")
    if args.cohort:
        cohort_table(examples, args.cohort, args.orders)
        return
    print(
        f"{'judged (unseen questions)':<14} {'trained on':<28} {'answers':>7} {'questions':>9} "
        f"{'accuracy':>8} {'macro-F1':>8} {'95 % interval':>13} {'goal':>5} {'before':>6}"
    )
    held_out = {}
    for corpus, files in CORPORA.items():
        weights = JudgeWeights.from_json(fit([e for e in examples if e.corpus != corpus]))
        held_out[corpus] = weights
        others = " + ".join(c for c in CORPORA if c != corpus)
        row = scores(weights, [e for e in examples if e.file == files[-1]])
        print(f"{corpus:<14} {others:<28} {row} {TARGETS[corpus]:>5.2f} {BEFORE[corpus]:>6.3f}")
    print(
        "\nthe same weights on every file of the held-out corpus (its unseen-answers file too: more "
        "questions, so a narrower interval)"
    )
    for corpus in CORPORA:
        print(
            f"{corpus:<14} {'':<28} {scores(held_out[corpus], [e for e in examples if e.corpus == corpus])}"
        )
    started = time.perf_counter()
    simulated = {corpus: with_more_solutions(corpus) for corpus in CORPORA}
    print(
        f"\nseveral sample solutions ({time.perf_counter() - started:.1f} s): the solution and k correct learner "
        "answers as further ones; macro-F1, the best solution's chance as it is -> lowered by the penalty "
        "chosen on the other two corpora"
    )
    print(
        f"{'judged':<14} {'answers':>7} {'penalty':>7} {'k = 0':>6} "
        + " ".join(f"{f'k = {k}':>15}" for k in EXTRA_SOLUTIONS)
    )
    for corpus, judged in simulated.items():
        weights = held_out[corpus]
        penalty = fit_penalty(weights, {c: es for c, es in simulated.items() if c != corpus})
        per_solution = chances(weights, judged)
        cells = [
            f"{several_solutions_f1(weights, judged, per_solution, k):.3f} -> "
            f"{several_solutions_f1(replace(weights, solutions_penalty=penalty), judged, per_solution, k):.3f}"
            for k in EXTRA_SOLUTIONS
        ]
        alone = several_solutions_f1(weights, judged, per_solution, 0)
        print(
            f"{corpus:<14} {len(judged):>7} {penalty:>7.2f} {alone:>6.3f} "
            + " ".join(f"{c:>15}" for c in cells)
        )
    if args.write:
        grader = fit(examples)
        grader["solutions_penalty"] = fit_penalty(weights_of(grader), simulated)
        grader["trained_on"] = [file for files in CORPORA.values() for file in files]
        target = ROOT / "core" / "engine" / "freeform" / "grader.json"
        target.write_text(json.dumps(grader, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {target.relative_to(ROOT)}: {json.dumps(grader)}")


if __name__ == "__main__":
    main()
