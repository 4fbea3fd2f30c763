"""Measurement only: a learnt scorer over USE embedding pairs as a fifth feature of the freeform judge.

    python bench/pair_scorer_experiment.py                 # every variant, the table of the docs
    python bench/pair_scorer_experiment.py --only base,full-answer-oof

The idea ("the multilingual middle way", ../shared/notes/models.md): for an answer and a sample
solution, per fact f (a unit USE vector) take the nearest answer sentence s (the same sentence the
fact gain reads) and form the pair features [|s - f|, s * f] (1,024 numbers), averaged over the
facts (or one row per fact, labelled with the answer's label); optionally the whole answer against
the whole solution as well. A strongly L2-regularised logistic regression across tasks predicts
CORRECT; its logit is a fifth feature of the judge (or replaces the fact gain).

Protocol (bench/freeform_grader.py's, extended so that nothing is fitted on the judged corpus):
- the scorer for the judged corpus is trained on the two other corpora only (each corpus weighs
  the same); its C in {0.01, 0.1, 1} is chosen on those two alone, by leaving one of them out
  (train on one, ROC-AUC of CORRECT on the other, the mean of both ways);
- the judge's training values of the scorer are out-of-fold predictions: GroupKFold by question
  (5 folds over the two training corpora together, ``oof``), or, as a check that mimics the judged
  corpus's situation, each training corpus scored by a scorer trained on the other one (``xc``);
- then the judge (logistic over its features + two cut points) is trained exactly as the bench does
  (bench.freeform_grader.fit's rules: corpora weigh the same, cut points the median of the flat
  optimum), and judged with the judge's rules (verbatim, echo, contradiction).
- "rel" pairs subtract the pair of the problem statement's sentence nearest to the fact (relative
  to the task, as the fact gain is).
Reported: macro-F1 on each corpus's unseen-questions file and on every file of the corpus (pooled),
the scorer's held-out ROC-AUC and the C chosen. Results: docs/freeform-engine.md, "Tenth session".
With --cache the features of the 9,696 answers are kept in /tmp/pair_scorer_examples.pkl for the
next run (delete it after changing the engine; `make bench` never uses it). Needs scikit-learn (a dev dependency).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from freeform_grader import CORPORA, DATA, Example, fit, labels_of, read, weights_of  # noqa: E402

from core.engine.freeform.facts import without_point_marks  # noqa: E402
from core.engine.freeform.judge import (  # noqa: E402
    AnswerText,
    Evidence,
    JudgeWeights,
    echoes,
    evidence,
    ruled_probability,
)
from core.engine.freeform.model import build_model  # noqa: E402
from core.engine.text.embedding import encoder  # noqa: E402
from core.engine.text.tokens import analyse  # noqa: E402
from core.evaluation import macro_f1, read_questions, task_of  # noqa: E402

CACHE = Path("/tmp/pair_scorer_examples.pkl")
CS = (0.01, 0.1, 1.0)
FOLDS = 5


@dataclass(slots=True)
class Item:
    corpus: str
    file: str
    question: str
    label: str
    evidence: tuple[Evidence, ...]
    echo: bool
    nearest: tuple[np.ndarray, ...]
    """Per sample solution, per fact: the unit vector of the answer sentence nearest to it."""
    facts: tuple[np.ndarray, ...]
    """Per sample solution, the facts' unit vectors."""
    baseline: tuple[np.ndarray, ...]
    """Per sample solution, per fact: the unit vector of the problem statement's sentence nearest
    to it (the fact gain's baseline)."""
    whole: np.ndarray
    """The whole answer's unit vector."""
    solutions: np.ndarray
    """Each whole sample solution's unit vector, one row each."""


def collect(cache: bool) -> list[Item]:
    """The answers' features; with `cache`, kept in CACHE for the next run (stale once the engine
    changes: a cache only for exploring variants, never for a reported figure)."""
    if cache and CACHE.exists():
        return pickle.loads(CACHE.read_bytes())
    items = []
    for corpus, files in CORPORA.items():
        for file in files:
            for question in read_questions(DATA / file):
                task = task_of(question)
                model = build_model(task, ())
                if not model.references:
                    continue
                texts = [without_point_marks(s.content) for s in task.sampleSolutions if s.content.strip()]
                solutions = encoder().encode(texts[: len(model.references)])
                for entry in question.get("train", []) + question.get("test", []):
                    answer = AnswerText.of(analyse(entry["answer"], model.base))
                    found = tuple(evidence(r, answer) for r in model.references)
                    nearest = tuple(
                        answer.vectors[(answer.vectors @ r.vectors.T).argmax(axis=0)]
                        for r in model.references
                    )
                    items.append(
                        Item(
                            corpus,
                            file,
                            task.id,
                            entry["label"],
                            found,
                            echoes(model.statement, answer),
                            nearest,
                            tuple(r.vectors for r in model.references),
                            tuple(
                                model.statement[(model.statement @ r.vectors.T).argmax(axis=0)]
                                for r in model.references
                            ),
                            encoder().encode([entry["answer"]])[0],
                            solutions,
                        )
                    )
    if cache:
        CACHE.write_bytes(pickle.dumps(items))
    return items


# --- pair features -------------------------------------------------------------------------------


def pair(s: np.ndarray, f: np.ndarray, kind: str) -> np.ndarray:
    """Pair features of rows s against rows f."""
    if kind == "prod":
        return s * f
    return np.concatenate([np.abs(s - f), s * f], axis=-1)


def answer_rows(item: Item, reference: int, kind: str, whole: bool) -> np.ndarray:
    """One row: the pair features averaged over the facts (and the whole answer's pair)."""
    row = fact_rows(item, reference, kind).mean(axis=0)
    if whole:
        row = np.concatenate([row, pair(item.whole, item.solutions[reference], kind)])
    return row


def fact_rows(item: Item, reference: int, kind: str) -> np.ndarray:
    """Per fact; a kind "rel-…" subtracts the pair of the statement's nearest sentence (relative to
    the task, as the fact gain is)."""
    if kind.startswith("rel-"):
        base = kind[4:]
        return pair(item.nearest[reference], item.facts[reference], base) - pair(
            item.baseline[reference], item.facts[reference], base
        )
    return pair(item.nearest[reference], item.facts[reference], kind)


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    kind: str = "full"  # "full" [|s-f|, s*f] or "prod" s*f
    per_fact: bool = False
    whole: bool = False
    pca: int = 0
    stack: str = "oof"  # "oof" GroupKFold by question, "xc" the other training corpus
    use: str = "add"  # "add" a fifth feature, "replace" the fact gain, "alone" only the scorer
    fixed_c: float | None = None


class Scorer:
    """Standardise (and optionally PCA), then an L2 logistic; ``logit`` of an item is per reference."""

    def __init__(self, variant: Variant, c: float) -> None:
        self.v, self.c = variant, c

    def rows(self, items: list[Item]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Training rows, labels and index of the item each row belongs to (reference 0: every
        question of the corpora has one sample solution)."""
        xs, owner = [], []
        for i, item in enumerate(items):
            if self.v.per_fact:
                r = fact_rows(item, 0, self.v.kind)
                xs.append(r)
                owner += [i] * len(r)
            else:
                xs.append(answer_rows(item, 0, self.v.kind, self.v.whole)[None])
                owner.append(i)
        owner = np.array(owner)
        y = np.array([items[i].label == "CORRECT" for i in owner])
        return np.vstack(xs), y, owner

    def fit(self, items: list[Item]) -> Scorer:
        x, y, owner = self.rows(items)
        corpus_size = defaultdict(int)
        for item in items:
            corpus_size[item.corpus] += 1
        # Each corpus weighs the same; per fact, each answer weighs one in all.
        per_answer = np.bincount(owner, minlength=len(items)).astype(float)
        w = np.array([1.0 / corpus_size[items[i].corpus] / per_answer[i] for i in owner])
        w *= len(w) / w.sum()
        self.scaler = StandardScaler().fit(x, sample_weight=w)
        z = self.scaler.transform(x)
        self.pca = None
        if self.v.pca:
            self.pca = PCA(self.v.pca, random_state=0).fit(z)
            z = self.pca.transform(z)
            self.pscale = z.std(axis=0)
            z = z / self.pscale
        self.model = LogisticRegression(C=self.c, max_iter=3000).fit(z, y, sample_weight=w)
        return self

    def logit_rows(self, x: np.ndarray) -> np.ndarray:
        z = self.scaler.transform(x)
        if self.pca is not None:
            z = self.pca.transform(z) / self.pscale
        return self.model.decision_function(z)

    def logits(self, items: list[Item]) -> np.ndarray:
        """Per item and per reference (a list of arrays): the scorer's logit."""
        out = []
        for item in items:
            per_ref = []
            for r in range(len(item.facts)):
                if self.v.per_fact:
                    per_ref.append(self.logit_rows(fact_rows(item, r, self.v.kind)).mean())
                else:
                    per_ref.append(self.logit_rows(answer_rows(item, r, self.v.kind, self.v.whole)[None])[0])
            out.append(np.array(per_ref))
        return out


def auc(items: list[Item], logits: list[np.ndarray]) -> float:
    return roc_auc_score([i.label == "CORRECT" for i in items], [g.max() for g in logits])


def choose_c(variant: Variant, train: list[Item]) -> float:
    if variant.fixed_c is not None:
        return variant.fixed_c
    corpora = sorted({i.corpus for i in train})
    best = None
    for c in CS:
        aucs = []
        for held in corpora:
            inner = [i for i in train if i.corpus != held]
            judged = [i for i in train if i.corpus == held]
            aucs.append(auc(judged, Scorer(variant, c).fit(inner).logits(judged)))
        score = float(np.mean(aucs))
        if best is None or score > best[0]:
            best = (score, c)
    return best[1]


def stacked_logits(variant: Variant, train: list[Item], c: float) -> list[np.ndarray]:
    """Out-of-fold scorer values for the judge's training answers."""
    out: list[np.ndarray | None] = [None] * len(train)
    if variant.stack == "xc":
        for corpus in {i.corpus for i in train}:
            inner = [i for i in train if i.corpus != corpus]
            index = [k for k, i in enumerate(train) if i.corpus == corpus]
            for k, g in zip(
                index, Scorer(variant, c).fit(inner).logits([train[k] for k in index]), strict=True
            ):
                out[k] = g
        return out  # type: ignore[return-value]
    groups = [f"{i.file}/{i.question}" for i in train]
    for fit_index, held_index in GroupKFold(FOLDS).split(np.zeros(len(train)), groups=groups):
        scorer = Scorer(variant, c).fit([train[k] for k in fit_index])
        for k, g in zip(held_index, scorer.logits([train[k] for k in held_index]), strict=True):
            out[k] = g
    return out  # type: ignore[return-value]


# --- the judge over the augmented features --------------------------------------------------------


def features_of(item: Item, extra: np.ndarray | None, use: str) -> tuple[Evidence, ...]:
    """The item's evidence per reference with the judge's features as the variant reads them."""
    if extra is None:
        return item.evidence
    out = []
    for r, found in enumerate(item.evidence):
        f = found.features
        if use == "add":
            values = np.append(f, extra[r])
        elif use == "replace":  # the scorer in place of the fact gain (agreement keeps the gain)
            values = np.array([f[0], extra[r], f[2], f[3]])
        elif use == "replace-all":  # and in the agreement too: alignment x scorer probability
            p = 1.0 / (1.0 + np.exp(-extra[r]))
            values = np.array([f[0], extra[r], f[2], f[0] * p])
        else:  # "alone"
            values = np.array([extra[r]])
        out.append(replace(found, features=values))
    return tuple(out)


def chances(weights: JudgeWeights, rows: list[tuple[tuple[Evidence, ...], bool]]) -> np.ndarray:
    return np.array([max(ruled_probability(weights, f, echo) for f in found) for found, echo in rows])


def fit_judge(train: list[Item], rows: list[tuple[tuple[Evidence, ...], bool]]) -> JudgeWeights:
    """bench.freeform_grader.fit over the rows' features (its corpus weights, cut points and the
    judge's rules), each answer read by its best sample solution."""
    examples = [
        Example(
            item.corpus,
            item.file,
            found[best(found)].features,
            item.label,
            item.question,
            evidence=found,
            echo=echo,
        )
        for item, (found, echo) in zip(train, rows, strict=True)
    ]
    names = tuple(f"feature_{k}" for k in range(len(examples[0].values)))
    return weights_of(fit(examples, names))


def best(found: tuple[Evidence, ...]) -> int:
    """bench.freeform_grader.best_reference: coverage plus gain of the plain features."""
    return int(np.argmax([f.features[:2].sum() for f in found]))


def f1(weights: JudgeWeights, items: list[Item], rows: list) -> float:
    labels = labels_of(items)
    return macro_f1([i.label for i in items], read(weights, chances(weights, rows), labels), labels)


def run(variant: Variant | None, items: list[Item]) -> dict[str, tuple[float, float, float, float]]:
    """Per judged corpus: (unseen-questions macro-F1, pooled macro-F1, scorer AUC held out, C)."""
    out = {}
    for corpus, files in CORPORA.items():
        train = [i for i in items if i.corpus != corpus]
        judged = [i for i in items if i.corpus == corpus]
        if variant is None:
            train_rows = [(i.evidence, i.echo) for i in train]
            judged_rows = [(i.evidence, i.echo) for i in judged]
            held_auc, c = float("nan"), float("nan")
        else:
            c = choose_c(variant, train)
            oof = stacked_logits(variant, train, c)
            judged_logits = Scorer(variant, c).fit(train).logits(judged)
            held_auc = auc(judged, judged_logits)
            train_rows = [(features_of(i, g, variant.use), i.echo) for i, g in zip(train, oof, strict=True)]
            judged_rows = [
                (features_of(i, g, variant.use), i.echo) for i, g in zip(judged, judged_logits, strict=True)
            ]
        weights = fit_judge(train, train_rows)
        unseen = [k for k, i in enumerate(judged) if i.file == files[-1]]
        out[corpus] = (
            f1(weights, [judged[k] for k in unseen], [judged_rows[k] for k in unseen]),
            f1(weights, judged, judged_rows),
            held_auc,
            c,
        )
    return out


VARIANTS = {
    "base": None,
    "full-answer-oof": Variant("full-answer-oof"),
    "full-answer-xc": Variant("full-answer-xc", stack="xc"),
    "full-fact-oof": Variant("full-fact-oof", per_fact=True),
    "full-fact-xc": Variant("full-fact-xc", per_fact=True, stack="xc"),
    "whole-answer-oof": Variant("whole-answer-oof", whole=True),
    "prod-answer-oof": Variant("prod-answer-oof", kind="prod"),
    "prod-fact-oof": Variant("prod-fact-oof", kind="prod", per_fact=True),
    "pca16-answer-oof": Variant("pca16-answer-oof", pca=16),
    "pca64-answer-oof": Variant("pca64-answer-oof", pca=64),
    "pca8-answer-oof": Variant("pca8-answer-oof", pca=8),
    "rel-pca8-answer-oof": Variant("rel-pca8-answer-oof", kind="rel-full", pca=8),
    "rel-answer-oof": Variant("rel-answer-oof", kind="rel-full"),
    "rel-answer-xc": Variant("rel-answer-xc", kind="rel-full", stack="xc"),
    "rel-fact-oof": Variant("rel-fact-oof", kind="rel-full", per_fact=True),
    "relprod-answer-oof": Variant("relprod-answer-oof", kind="rel-prod"),
    "rel-pca16-answer-oof": Variant("rel-pca16-answer-oof", kind="rel-full", pca=16),
    "rel-answer-replace": Variant("rel-answer-replace", kind="rel-full", use="replace"),
    "full-answer-replace": Variant("full-answer-replace", use="replace"),
    "full-answer-replace-all": Variant("full-answer-replace-all", use="replace-all"),
    "full-fact-replace": Variant("full-fact-replace", per_fact=True, use="replace"),
    "full-answer-alone": Variant("full-answer-alone", use="alone"),
}


def cost(items: list[Item]) -> None:
    """Run time of the scorer for one answer: pair features of its facts and one dot product."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=1024)
    facts = [len(i.facts[0]) for i in items]
    for n_facts in (int(np.median(facts)), int(np.percentile(facts, 99))):
        s = rng.normal(size=(n_facts, 512)).astype(np.float32)
        f = rng.normal(size=(n_facts, 512)).astype(np.float32)
        sims = rng.normal(size=(3, n_facts))
        runs = 20000
        t = time.perf_counter()
        for _ in range(runs):
            idx = sims.argmax(axis=0)  # the nearest sentence per fact (the gain reads its max already)
            row = np.concatenate([np.abs(s - f), s * f], axis=1).mean(axis=0)
            float(row @ w)
        per = (time.perf_counter() - t) / runs * 1e6
        print(f"scorer cost, {n_facts} facts: {per:.1f} µs an answer per sample solution (idx {idx[0]})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="comma-separated variant names")
    parser.add_argument("--cache", action="store_true", help=f"keep the answers' features in {CACHE}")
    args = parser.parse_args()
    started = time.perf_counter()
    items = collect(args.cache)
    print(f"{len(items)} answers in {time.perf_counter() - started:.1f} s", flush=True)
    names = args.only.split(",") if args.only else list(VARIANTS)
    for corpus in CORPORA:
        judged = [i for i in items if i.corpus == corpus]
        gains = [max(f.features[1] for f in i.evidence) for i in judged]
        print(
            f"{corpus}: ROC-AUC of the fact gain alone (no fitting) {roc_auc_score([i.label == 'CORRECT' for i in judged], gains):.3f}"
        )
    print(
        f"{'variant':<26} {'SciEntsBank':>15} {'SAF English':>15} {'SAF German':>10}   held-out scorer AUC / C"
    )
    for name in names:
        t = time.perf_counter()
        r = run(VARIANTS[name], items)
        sci, en, de = r["SciEntsBank"], r["SAF English"], r["SAF German"]
        print(
            f"{name:<26} {sci[0]:.3f} ({sci[1]:.3f}) {en[0]:.3f} ({en[1]:.3f}) {de[0]:>10.3f}   "
            f"{sci[2]:.3f}/{sci[3]:g} {en[2]:.3f}/{en[3]:g} {de[2]:.3f}/{de[3]:g}   "
            f"[{time.perf_counter() - t:.0f} s]",
            flush=True,
        )
    cost(items)


if __name__ == "__main__":
    main()
