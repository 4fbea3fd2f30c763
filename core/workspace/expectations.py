"""Test answers with what they must get, as files beside the task files, and the check of a result.

A task file ``photosynthesis.yaml`` has its test answers in ``photosynthesis.tests.yaml``::

    taskId: photosynthesis
    answers:
    - label: carbon dioxide
      answer: {selectedIndex: 1}
      expected: {verdict: CORRECT, present: [Carbon dioxide is an input of photosynthesis]}
    - label: oxygen
      answer: {selectedIndex: 0}
      expected: {verdict: WRONG, present: [Confuses the gases of photosynthesis]}
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from core.api import AspectDefinition, Expectation, FeedbackSnapshot, TaskBase, TestAnswerSet
from core.workspace.documents import Format, format_of, parse, safe_file_stem, write

TESTS_SUFFIX = ".tests"


TEST_ANSWER_SETS = TypeAdapter(TestAnswerSet)


def is_answer_file(path: Path) -> bool:
    return format_of(path) is not None and path.stem.endswith(TESTS_SUFFIX)


def answer_file_path(directory: Path, task_id: str, fmt: Format) -> Path:
    return directory / f"{safe_file_stem(task_id)}{TESTS_SUFFIX}.{fmt}"


def read_test_answers(path: Path) -> TestAnswerSet:
    return parse(path, TEST_ANSWER_SETS, "a test-answer file")


def write_test_answers(directory: Path, answers: TestAnswerSet, fmt: Format) -> Path:
    document = answers.model_dump(mode="json", by_alias=True, exclude_none=True)
    return write(answer_file_path(directory, answers.taskId, fmt), document, fmt)


def aspect_names(task: TaskBase) -> set[str]:
    """The names of every aspect a task defines, wherever it sits (task, option, blank, choice)."""

    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, AspectDefinition):
            yield value.name
        elif isinstance(value, BaseModel):
            for item in value.__dict__.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    return set(walk(task))


def expectation_failures(
    expected: Expectation,
    after: FeedbackSnapshot | None,
    error: str | None = None,
    known_aspects: set[str] | None = None,
) -> list[str]:
    """What the feedback fails of the expectation, in words an author can act on.

    With the task's aspect names at hand, an expectation naming an aspect the task does not define
    fails too: after an aspect is renamed, "must be absent" would otherwise pass for ever.
    """
    if after is None:
        return [f"no feedback: {error}"]
    failures = []
    if expected.verdict is not None and after.verdict != expected.verdict:
        failures.append(f"expected {expected.verdict.value}, got {after.verdict.value}")
    failures += [
        f"aspect {name!r} was expected but not detected"
        for name in expected.present
        if name not in after.aspects
    ]
    failures += [
        f"aspect {name!r} was detected but must be absent"
        for name in expected.absent
        if name in after.aspects
    ]
    if known_aspects is not None:
        unknown = sorted({*expected.present, *expected.absent} - known_aspects)
        failures += [f"aspect {name!r} is not defined by the task" for name in unknown]
    return failures
