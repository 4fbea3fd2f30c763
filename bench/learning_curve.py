"""The judge learning from the author: macro-F1 of a new task as its author grades k answers.

    python bench/learning_curve.py            # the tables
    python bench/learning_curve.py --write    # also fit the corrections' weights on all corpora
                                              # and write them to core/engine/freeform/grader.json

An author writes a new task (sample solution only) and grades some learners' answers; the rest
are judged. For each new question of a corpus (its unseen-questions file), k answers drawn at
random are graded and every other answer of the question is judged, k = 0, 1, 2, 5, 10, 20, three
draws (seeds) each; the table shows the mean macro-F1 of the draws (SciEntsBank 2-way: PARTIAL
reads as WRONG; the SAF files 3-way).

Nothing judged was learnt from, twice over: the judge's weights are trained on the other two
corpora (bench/freeform_grader.py's ``fit``), and so are the corrections' weights
(core/engine/freeform/grading.py), chosen on a grid by the mean macro-F1 over k = 1 … 20 of
every question of the other corpora (both files of each, one draw), with a dip below k = 0
counted twice against it. The judging itself is the engine's own code: its sentence vectors of
the answers (``model.answer_vector``) and its :class:`Corrections`.

Then two more tables, with the same held-out weights:
- unseen answers: the test answers of the unseen-answers files, judged with all of their
  question's train answers graded (an author who has reviewed a whole earlier class);
- the review order (core/engine/freeform/review.py) against random picks: each new question's
  answers are split in two halves by a draw, the first k of the order of one half (or k random
  ones of it) are graded, and the other half is judged, so that both are judged on the same
  answers (mean of three draws).

And how far graded answers could carry a new question at all (``ceiling``): how well the judge's
chance ranks each question's answers (ROC AUC, CORRECT against the rest), how well the cosine of
two of its answers tells whether they share their label (ROC AUC over every pair, and each answer
with the sample solutions, which are CORRECT), and the macro-F1 of the judge's chance with cut
points chosen per question, on every answer judged (in sample, which no author can do) or on k
random graded answers (the curve's draws).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.freeform_grader import CORPORA, DATA, Example, best_reference, fit  # noqa: E402
from core.api import Correctness  # noqa: E402
from core.engine.freeform.grading import (  # noqa: E402
    LABEL_SCORES,
    VERDICTS,
    Corrections,
    CorrectionWeights,
    CutPoints,
    Graded,
    logits,
)
from core.engine.freeform.judge import AnswerText, JudgeWeights, echoes, evidence, ruled_probability  # noqa: E402
from core.engine.freeform.model import answer_vector, build_model  # noqa: E402
from core.engine.freeform.review import order_by_value  # noqa: E402
from core.engine.text.tokens import analyse  # noqa: E402
from core.evaluation import macro_f1, read_questions, task_of  # noqa: E402

KS = (0, 1, 2, 5, 10, 20)
SEEDS = (0, 1, 2)
REVIEW_KS = (5, 10, 20)
TWO_WAY = {"SciEntsBank"}
GRID = {
    "sharpness": (4.0,),
    "shift_spread": (0.25, 0.5),
    "prior_weight": (0.5, 1.0, 2.0),
    "closeness": (5.0,),
    "prior_weight_stiffness": (0.3, 1.0),
    "slope_stiffness": (1.0, 3.0),
    "typical_quantile": (0.0, 0.5, 0.75),
}
"""Sharpness and closeness are fixed, and spreads of the shift from 1 up are left out: every
leave-one-corpus-out choice among sharpness 1, 2, 4, closeness 5, 10, 20 and spread 0.25 … 2 took
4, 5 and at most 0.5 (docs/freeform-engine.md)."""
DIP_COST = 2.0


@dataclass(slots=True)
class Question:
    corpus: str
    file: str
    labels: list[str]
    scores: np.ndarray
    features: list[Example]
    """Per answer, what the judge reads (the answers of the file's train part first)."""
    similarity: np.ndarray
    """Cosines between the answers' vectors, then the sample solutions' (columns past the answers)."""
    solutions: int
    train: int
    """How many of the answers are the file's train answers."""
    chances: np.ndarray | None = None
    """The held-out judge's chance per answer (set per held-out corpus)."""


def questions_of(corpus: str, file: str) -> list[Question]:
    out = []
    for question in read_questions(DATA / file):
        task = task_of(question)
        model = build_model(task, ())
        if not model.references:
            continue
        train = question.get("train", [])
        items = train + question.get("test", [])
        features, vectors, scores = [], [], []
        for item in items:
            analysis = analyse(item["answer"], model.base)
            answer = AnswerText.of(analysis)
            found = tuple(evidence(r, answer) for r in model.references)
            per_reference = np.array([f.features for f in found])
            features.append(
                Example(
                    corpus,
                    file,
                    per_reference[best_reference(per_reference)],
                    item["label"],
                    task.id,
                    evidence=found,
                    echo=echoes(model.statement, answer),
                )
            )
            vectors.append(answer_vector(analysis))
            score = item.get("score")
            scores.append(
                LABEL_SCORES[Correctness(item["label"])] if score is None else score / task.maxPoints
            )
        solutions = [analyse(s.content, model.base) for s in task.sampleSolutions]
        matrix = np.array(vectors + [answer_vector(s) for s in solutions])
        out.append(
            Question(
                corpus,
                file,
                [i["label"] for i in items],
                np.clip(np.array(scores), 0.0, 1.0),
                features,
                matrix[: len(items)] @ matrix.T,
                len(solutions),
                len(train),
            )
        )
    return out


def with_chances(questions: list[Question], weights: JudgeWeights) -> None:
    for q in questions:
        q.chances = np.array(
            [weights.best_of([ruled_probability(weights, f, e.echo) for f in e.evidence]) for e in q.features]
        )


def judged(
    q: Question,
    graded: Sequence[int],
    judged_ones: Sequence[int],
    weights: CorrectionWeights,
    cuts: CutPoints,
) -> list[str]:
    """The engine's verdicts of ``judged_ones`` with ``graded`` graded by their gold labels."""
    assert q.chances is not None
    graded = list(graded)
    columns = [*graded, *range(len(q.labels), len(q.labels) + q.solutions)]
    corrections = Corrections(
        [Graded(Correctness(q.labels[i]), float(q.scores[i]), float(q.chances[i])) for i in graded],
        q.similarity[np.ix_(graded, columns)],
        q.solutions,
        cuts,
        weights,
    )
    rows = list(judged_ones)
    judgements = corrections.judge_all(q.chances[rows], q.similarity[np.ix_(rows, columns)])
    return [j.verdict.value for j in judgements]


def f1_of(corpus: str, gold: list[str], predicted: list[str]) -> float:
    if corpus in TWO_WAY:

        def two(labels: list[str]) -> list[str]:
            return ["WRONG" if label == "PARTIAL" else label for label in labels]

        return macro_f1(two(gold), two(predicted), ["CORRECT", "WRONG"])
    return macro_f1(gold, predicted, ["CORRECT", "PARTIAL", "WRONG"])


def curve(
    questions: list[Question],
    weights: CorrectionWeights,
    cuts: CutPoints,
    ks: Sequence[int] = KS,
    seeds: Sequence[int] = SEEDS,
) -> dict[int, float]:
    """Mean macro-F1 over the draws per k: k random answers of each question graded, the rest judged."""
    corpus = questions[0].corpus
    result = {}
    for k in ks:
        scores = []
        for seed in seeds:
            gold: list[str] = []
            predicted: list[str] = []
            for n, q in enumerate(questions):
                order = np.random.default_rng(1000 * seed + n).permutation(len(q.labels))
                rest = sorted(order[k:])
                gold += [q.labels[i] for i in rest]
                predicted += judged(q, order[:k], rest, weights, cuts)
            scores.append(f1_of(corpus, gold, predicted))
        result[k] = float(np.mean(scores))
    return result


def objective(curves: Sequence[dict[int, float]]) -> float:
    """Mean macro-F1 over k ≥ 1 and corpora, a dip below k = 0 counted DIP_COST times against it."""
    values = []
    for c in curves:
        dips = sum(max(0.0, c[0] - c[k]) for k in KS[1:])
        values.append(np.mean([c[k] for k in KS[1:]]) - DIP_COST * dips)
    return float(np.mean(values))


def choose(by_corpus: dict[str, list[Question]], cuts: dict[str, CutPoints]) -> CorrectionWeights:
    """The grid point with the best objective over the given corpora (every question, one draw)."""
    best: tuple[float, CorrectionWeights] | None = None
    for values in itertools.product(*GRID.values()):
        weights = CorrectionWeights(**dict(zip(GRID, values, strict=True)))
        score = objective([curve(qs, weights, cuts[c], seeds=(0,)) for c, qs in by_corpus.items()])
        if best is None or score > best[0]:
            best = (score, weights)
    assert best is not None
    return best[1]


def review_table(questions: list[Question], weights: CorrectionWeights, cuts: CutPoints) -> dict[str, float]:
    """Macro-F1 of one half of each question's answers after grading k of the other half, picked
    first in the review order or at random."""
    corpus = questions[0].corpus
    cells = {}
    for k in REVIEW_KS:
        for name in ("order", "random"):
            scores = []
            for seed in SEEDS:
                gold: list[str] = []
                predicted: list[str] = []
                for n, q in enumerate(questions):
                    rng = np.random.default_rng(7000 + 1000 * seed + n)
                    shuffled = rng.permutation(len(q.labels))
                    pool, test = shuffled[: len(shuffled) // 2], sorted(shuffled[len(shuffled) // 2 :])
                    if name == "random":
                        picked = list(pool[:k])
                    else:
                        assert q.chances is not None
                        corrections = Corrections([], np.zeros((0, 0)), 0, cuts, weights)
                        shares = [corrections.shares(float(q.chances[i])) for i in pool]
                        picked = [
                            pool[i] for i in order_by_value(shares, q.similarity[np.ix_(pool, pool)], k)
                        ]
                    gold += [q.labels[i] for i in test]
                    predicted += judged(q, picked, test, weights, cuts)
                scores.append(f1_of(corpus, gold, predicted))
            cells[f"{name} {k}"] = float(np.mean(scores))
    return cells


CEILING_KS = (10, 20)


def ceiling(questions: list[Question], cuts: CutPoints) -> dict[str, float]:
    """The judge's ranking and the cosine's (ROC AUCs, mean over the questions), and the macro-F1
    of the judge's chance cut per question by :func:`best_cuts`, in sample and from k graded answers."""
    corpus = questions[0].corpus
    two_way = corpus in TWO_WAY
    ranking, pairs, gold, in_sample = [], [], [], []
    for q in questions:
        assert q.chances is not None
        labels = _positions(q.labels, two_way)
        if 0 < (labels == 0).sum() < len(labels):
            ranking.append(roc_auc_score(labels == 0, q.chances))
        with_solutions = np.concatenate([labels, np.zeros(q.solutions, dtype=int)])  # solutions are CORRECT
        apart = ~np.eye(len(labels), len(with_solutions), dtype=bool)
        same = (labels[:, None] == with_solutions[None, :])[apart]
        if 0 < same.sum() < same.size:
            pairs.append(roc_auc_score(same, q.similarity[apart]))
        z = logits(q.chances)
        gold += q.labels
        in_sample += _verdicts(z, best_cuts(z, labels, cuts, two_way))
    cells = {"ranking": float(np.mean(ranking)), "pairs": float(np.mean(pairs))}
    cells["in sample"] = f1_of(corpus, gold, in_sample)
    for k in CEILING_KS:
        scores = []
        for seed in SEEDS:
            gold, predicted = [], []
            for n, q in enumerate(questions):
                assert q.chances is not None
                order = np.random.default_rng(1000 * seed + n).permutation(len(q.labels))
                graded, rest = order[:k], sorted(order[k:])
                z = logits(q.chances)
                chosen = best_cuts(
                    z[graded], _positions([q.labels[i] for i in graded], two_way), cuts, two_way
                )
                gold += [q.labels[i] for i in rest]
                predicted += _verdicts(z[rest], chosen)
            scores.append(f1_of(corpus, gold, predicted))
        cells[f"k = {k}"] = float(np.mean(scores))
    return cells


def best_cuts(z: np.ndarray, labels: np.ndarray, cuts: CutPoints, two_way: bool) -> tuple[float, float]:
    """The cut points on the judge's logit (CORRECT from, WRONG below) under which most of the
    answers of logits ``z`` get their labels (positions in VERDICTS), nearest the judge's own
    among equals. Each candidate sits on an answer or just above it, so every split is tried; a
    2-way question has only the CORRECT cut."""
    own = (float(logits(np.array([cuts.correct_from]))[0]), float(logits(np.array([cuts.wrong_below]))[0]))
    candidates = np.unique(np.concatenate([z, z + 1e-9, own]))
    best: tuple[int, float, tuple[float, float]] | None = None
    for high in candidates:
        lows = np.array([own[1]]) if two_way else candidates[candidates <= high]
        # one row per WRONG cut: each answer's verdict, as a position in VERDICTS
        predicted = np.where(z >= high, 0, np.where(z[None, :] < lows[:, None], 2, 1))
        if two_way:
            predicted = np.where(predicted == 1, 2, predicted)
        right = (predicted == labels).sum(axis=1)
        distance = abs(high - own[0]) + np.abs(lows - own[1])
        i = int(np.lexsort((distance, -right))[0])  # most right, then nearest the judge's own
        key = (int(right[i]), -float(distance[i]))
        if best is None or key > best[:2]:
            best = (*key, (float(high), float(lows[i])))
    assert best is not None
    return best[2]


def _positions(labels: Sequence[str], two_way: bool) -> np.ndarray:
    """Each label's position in VERDICTS; PARTIAL reads as WRONG on a 2-way corpus."""
    positions = np.array([VERDICTS.index(Correctness(label)) for label in labels], dtype=int)
    return np.where(positions == 1, 2, positions) if two_way else positions


def _verdicts(z: np.ndarray, cut: tuple[float, float]) -> list[str]:
    high, low = cut
    return [VERDICTS[0 if v >= high else 2 if v < low else 1].value for v in z.tolist()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="fit on all corpora and write grader.json")
    args = parser.parse_args()
    started = time.perf_counter()
    questions = {c: [q for file in files for q in questions_of(c, file)] for c, files in CORPORA.items()}
    count = sum(len(q.labels) for qs in questions.values() for q in qs)
    print(
        f"{count} answers of {sum(map(len, questions.values()))} questions read in {time.perf_counter() - started:.0f} s"
    )
    judges = {
        c: JudgeWeights.from_json(
            fit([e for o, qs in questions.items() if o != c for q in qs for e in q.features])
        )
        for c in CORPORA
    }
    cuts = {c: CutPoints(w.correct_from, w.wrong_below) for c, w in judges.items()}
    for c, qs in questions.items():
        with_chances(qs, judges[c])
    header = f"{'judged (new questions)':<24} {'answers':>7} " + " ".join(f"{f'k = {k}':>7}" for k in KS)
    print("\nlearning curve: macro-F1, mean of three draws; weights chosen on the other corpora")
    print(header + "   corrections' weights chosen")
    chosen = {}
    for corpus, files in CORPORA.items():
        others = {c: qs for c, qs in questions.items() if c != corpus}
        chosen[corpus] = choose(others, {c: cuts[c] for c in others})
        new = [q for q in questions[corpus] if q.file == files[-1]]
        row = curve(new, chosen[corpus], cuts[corpus])
        w = chosen[corpus]
        print(
            f"{corpus:<24} {sum(len(q.labels) for q in new):>7} "
            + " ".join(f"{row[k]:>7.3f}" for k in KS)
            + "   "
            + " ".join(f"{name}={getattr(w, name):g}" for name, values in GRID.items() if len(values) > 1),
            flush=True,
        )
    print("\nunseen answers: test answers judged with every train answer of their question graded")
    for corpus, files in CORPORA.items():
        if len(files) < 2:
            continue
        seen = [q for q in questions[corpus] if q.file == files[0]]
        gold, predicted = [], []
        for q in seen:
            test = range(q.train, len(q.labels))
            gold += [q.labels[i] for i in test]
            predicted += judged(q, range(q.train), test, chosen[corpus], cuts[corpus])
        print(f"{corpus:<24} {len(gold):>7} {f1_of(corpus, gold, predicted):>7.3f}")
    print("\nreview order against random picks: macro-F1 of the other half of each question's answers")
    print(
        f"{'judged (new questions)':<24} " + " ".join(f"{f'k = {k}: order / random':>26}" for k in REVIEW_KS)
    )
    for corpus, files in CORPORA.items():
        new = [q for q in questions[corpus] if q.file == files[-1]]
        cells = review_table(new, chosen[corpus], cuts[corpus])
        print(
            f"{corpus:<24} "
            + " ".join(f"{cells[f'order {k}']:>16.3f} / {cells[f'random {k}']:.3f}" for k in REVIEW_KS),
            flush=True,
        )
    print("\nhow far graded answers could carry a new question: ranking by the judge's chance and same label")
    print(
        "by the cosine (ROC AUC); macro-F1 of the judge's chance cut per question, in sample or on k graded"
    )
    print(
        f"{'judged (new questions)':<24} {'ranking':>8} {'pairs':>8} {'in sample':>10} "
        + " ".join(f"{f'k = {k}':>8}" for k in CEILING_KS)
    )
    for corpus, files in CORPORA.items():
        cells = ceiling([q for q in questions[corpus] if q.file == files[-1]], cuts[corpus])
        print(
            f"{corpus:<24} {cells['ranking']:>8.3f} {cells['pairs']:>8.3f} {cells['in sample']:>10.3f} "
            + " ".join(f"{cells[f'k = {k}']:>8.3f}" for k in CEILING_KS),
            flush=True,
        )
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    if args.write:
        weights = choose(questions, cuts)
        target = ROOT / "core" / "engine" / "freeform" / "grader.json"
        grader = json.loads(target.read_text(encoding="utf-8"))
        grader["corrections"] = {name: getattr(weights, name) for name in GRID}
        target.write_text(json.dumps(grader, indent=2) + "\n", encoding="utf-8")
        print(f"wrote the corrections' weights to {target.relative_to(ROOT)}: {grader['corrections']}")


if __name__ == "__main__":
    main()
