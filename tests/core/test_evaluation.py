"""The eval: metrics as plain functions, and a small benchmark file judged through LocalService."""

from __future__ import annotations

import json

import pytest

from core.api import Correctness
from core.cli import main
from core.evaluation import (
    FileReport,
    accuracy,
    confusion,
    evaluate_file,
    format_report,
    macro_f1,
    percentile,
    read_verdict,
)
from core.service.local import LocalService


def test_accuracy_macro_f1_and_confusion() -> None:
    gold = ["CORRECT", "CORRECT", "WRONG", "WRONG"]
    predicted = ["CORRECT", "WRONG", "WRONG", "WRONG"]
    assert accuracy(gold, predicted) == 0.75
    # F1(CORRECT) = 2/3, F1(WRONG) = 0.8
    assert abs(macro_f1(gold, predicted, ["CORRECT", "WRONG"]) - (2 / 3 + 0.8) / 2) < 1e-9
    assert confusion(gold, predicted, ["CORRECT", "WRONG"]) == [[1, 1], [0, 2]]


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) == 0.0


def test_partial_counts_as_wrong_in_two_way_files() -> None:
    assert read_verdict(Correctness.PARTIAL, ["CORRECT", "WRONG"]) == "WRONG"
    assert read_verdict(Correctness.PARTIAL, ["CORRECT", "PARTIAL", "WRONG"]) == "PARTIAL"


def question(qid: str, train: list[tuple[str, str]], test: list[tuple[str, str]]) -> dict:
    return {
        "id": qid,
        "language": "EN_US",
        "problemStatement": "How did you separate the salt from the water?",
        "sampleSolutions": ["The water was evaporated, leaving the salt."],
        "maxPoints": 1,
        "train": [{"answer": a, "label": label} for a, label in train],
        "test": [{"id": f"{qid}-{i}", "answer": a, "label": label} for i, (a, label) in enumerate(test)],
    }


async def test_a_small_file_through_the_service(service: LocalService, tmp_path) -> None:
    train = [
        ("We let the water evaporate and the salt stayed.", "CORRECT"),
        ("The water evaporated, the salt was left behind.", "CORRECT"),
        ("Evaporation of the water left the salt.", "CORRECT"),
        ("We used a magnet.", "WRONG"),
        ("We shook the cup.", "WRONG"),
        ("We used a sieve to get the salt.", "WRONG"),
    ]
    test = [("The water evaporated and left the salt.", "CORRECT"), ("We used a big magnet.", "WRONG")]
    path = tmp_path / "tiny.jsonl"
    lines = [question("seen", train, test), question("unseen", [], test)]
    path.write_text("\n".join(json.dumps(q) for q in lines), encoding="utf-8")
    report = await evaluate_file(service, path, "default")
    assert report.labels == ["CORRECT", "WRONG"]
    assert report.gold == ["CORRECT", "WRONG", "CORRECT", "WRONG"]
    assert report.predicted == report.gold
    assert len(report.latencies_ms) == 4 and len(report.warmup_ms) == 2
    table = format_report([report])
    assert "tiny.jsonl" in table and "1.000" in table and "confusion" in table


def test_format_report_prints_the_confusion_matrix() -> None:
    report = FileReport(path="x.jsonl", labels=["CORRECT", "PARTIAL", "WRONG"])
    report.gold, report.predicted = ["CORRECT", "PARTIAL", "WRONG"], ["CORRECT", "WRONG", "WRONG"]
    report.latencies_ms = [1.0, 2.0, 3.0]
    lines = format_report([report]).splitlines()
    assert lines[1].split()[:4] == ["x.jsonl", "3", "0.667", "0.556"]
    assert lines[-2].split() == ["PARTIAL", "0", "0", "1"]


def test_a_file_whose_gold_lacks_a_predicted_label_gets_that_column() -> None:
    """A file whose answers are all CORRECT used to raise KeyError when the engine said WRONG."""
    report = FileReport(path="all-correct.jsonl", labels=["CORRECT"])
    report.gold, report.predicted = ["CORRECT", "CORRECT"], ["CORRECT", "WRONG"]
    report.latencies_ms = [1.0, 1.0]
    lines = format_report([report]).splitlines()
    assert report.matrix_labels == ["CORRECT", "WRONG"]
    assert lines[-2].split() == ["CORRECT", "1", "1"]
    assert lines[-1].split() == ["WRONG", "0", "0"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "q1",\n "problemStatement": "Why?"}\n', "line 1: not one JSON object on one line"),
        (
            '{"id": "q1", "problemStatement": "Why?"}\n\n{"id": "q2"}\n',
            "line 3: a question needs problemStatement",
        ),
    ],
)
def test_eval_names_the_line_of_a_file_it_cannot_read(tmp_path, capsys, content: str, message: str) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["eval", str(path)]) == 2
    assert message in capsys.readouterr().err
