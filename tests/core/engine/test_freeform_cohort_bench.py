"""The frozen-cohort measurement in bench/freeform_grader.py: its statistics come from the first N
answers of a question only (a later answer must not leak into them), and a random order is
reproducible from its seed."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest


@pytest.fixture(scope="module")
def grader() -> ModuleType:
    """bench/freeform_grader.py, imported by the tests that use it: importing it when the module is
    collected made every test process load scikit-learn (1.3 s of CPU each)."""
    pytest.importorskip("sklearn")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    import freeform_grader

    return freeform_grader


def _answers(grader: ModuleType, question: str, alignments: list[float]) -> list:
    return [
        grader.Example(
            "C", "f.jsonl", np.array([a, 0.1, 0.5]), "CORRECT", question, i, np.array([[a, 0.1, 0.5]])
        )
        for i, a in enumerate(alignments)
    ]


def test_the_cohort_is_the_first_answers_in_file_order_and_later_answers_do_not_move_it(grader) -> None:
    with_cohort = grader.with_cohort
    early = [0.2, 0.4, 0.6]
    judged = with_cohort(_answers(grader, "q", [*early, 0.9, 0.0]), size=3, seed=None)
    mean, spread = np.mean(early), np.std(early)
    assert [e.position for e in judged] == [0, 1, 2, 3, 4]
    assert judged[3].values[3] == pytest.approx((0.9 - mean) / spread)
    # The same gain in every answer: a spread of zero is floored, not divided by.
    assert judged[3].values[4] == pytest.approx(0.0)
    again = with_cohort(_answers(grader, "q", [*early, 0.1, 0.1]), size=3, seed=None)
    assert again[0].values[3] == judged[0].values[3]


def test_each_question_has_its_own_cohort(grader) -> None:
    with_cohort = grader.with_cohort
    judged = with_cohort(
        _answers(grader, "a", [0.1, 0.3, 0.5]) + _answers(grader, "b", [0.6, 0.8, 1.0]), size=3, seed=None
    )
    z = {(e.question, e.position): e.values[3] for e in judged}
    assert z[("a", 0)] == pytest.approx(z[("b", 0)])


def test_a_random_order_is_the_same_for_the_same_seed_and_puts_other_answers_first(grader) -> None:
    with_cohort = grader.with_cohort
    answers = _answers(grader, "q", [i / 20 for i in range(20)])
    first = with_cohort(answers, size=5, seed=1)
    assert [e.values.tolist() for e in first] == [e.values.tolist() for e in with_cohort(answers, 5, seed=1)]
    cohort = sorted(e.values[0] for e in first if e.position < 5)
    assert cohort != [0.0, 0.05, 0.1, 0.15, 0.2]
    assert sorted(e.position for e in first) == list(range(20))
