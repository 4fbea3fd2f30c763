"""bench/near_misses.py and its hand-written check set: every answer carries a label its file can
hold and a kind the table knows, and the table accounts for every answer."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from core.evaluation import read_questions

BENCH = Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture(scope="module")
def near_misses() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import near_misses

    return near_misses


def test_every_answer_has_a_label_its_file_holds_and_a_known_kind(near_misses: ModuleType) -> None:
    assert near_misses.FILES, "the check set is missing"
    for path in near_misses.FILES:
        labels = {"CORRECT", "PARTIAL", "WRONG"} if "3way" in path.name else {"CORRECT", "WRONG"}
        for question in read_questions(path):
            assert question["sampleSolutions"] and not question["train"], question["id"]
            for item in question["test"]:
                assert item["label"] in labels, item["id"]
                assert item["kind"] in near_misses.KINDS, item["id"]


def test_the_tables_count_every_answer(
    near_misses: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["near_misses.py"])
    near_misses.main()
    lines = capsys.readouterr().out.splitlines()
    total = sum(len(q["test"]) for path in near_misses.FILES for q in read_questions(path))
    by_file = {line.split()[0]: line.split() for line in lines if line.endswith(tuple("0123456789"))}
    assert sum(int(by_file[path.name][1]) for path in near_misses.FILES) == total
    kinds = [by_file[kind] for kind in near_misses.KINDS if kind in by_file]
    assert sum(int(row[1]) for row in kinds) == total
    assert all(0 <= int(row[2]) <= int(row[1]) for row in kinds)
