"""Extension: test answers with the feedback they must get, and the report of a retest.

API.md 3 advises re-testing feedback after a task changes. A retest recomputes the feedback of a
task's test answers and of its earlier interactions against the current definition; its report
is meant to be read as it is by the command line, the terminal app and the web app alike, so the
differences (verdict, points, aspects) are derived here from the two snapshots rather than by
each reader.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, computed_field

from core.api.common import ApiModel, Correctness
from core.api.feedback import FeedbackResult

Label = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^/]+$")]


class Expectation(ApiModel):
    """What a test answer must get: e.g. CORRECT showing aspect X, or WRONG with misconception Y."""

    verdict: Correctness | None = None
    present: list[str] = Field(default_factory=list, max_length=100)
    """Names of aspects that must be detected."""
    absent: list[str] = Field(default_factory=list, max_length=100)
    """Names of aspects that must not be detected."""


class TestAnswer(ApiModel):
    """An author's test answer of a task; the label names it within the task."""

    __test__ = False  # not a pytest test class

    label: Label
    answer: dict[str, Any]
    expected: Expectation = Field(default_factory=Expectation)


class TestAnswersRequest(ApiModel):
    __test__ = False

    answers: list[TestAnswer] = Field(max_length=1_000)


class TestAnswerSet(ApiModel):
    """The test answers of one task (also the content of a test-answer file)."""

    __test__ = False

    taskId: str
    answers: list[TestAnswer] = Field(default_factory=list)


class RetestRequest(ApiModel):
    taskIds: list[str] = Field(default_factory=list, max_length=1_000)
    """The tasks to retest; empty means every task of the tenant."""


class FeedbackSnapshot(ApiModel):
    """The parts of a feedback result a retest compares."""

    verdict: Correctness
    achievedPoints: float
    achievablePoints: float
    aspects: list[str] = Field(default_factory=list)
    """Names of the detected aspects, sorted."""
    messages: list[str] = Field(default_factory=list)
    """The feedback messages as the learner reads them."""

    @classmethod
    def of(cls, result: FeedbackResult) -> FeedbackSnapshot:
        return cls(
            verdict=result.points.verdict,
            achievedPoints=result.points.achievedPoints,
            achievablePoints=result.points.achievablePoints,
            aspects=sorted({detected.aspect.name for detected in result.allAspects}),
            messages=[item.message for item in result.feedback if item.message],
        )


class AnswerSource(StrEnum):
    TEST_ANSWER = "TEST_ANSWER"
    INTERACTION = "INTERACTION"


class AnswerRetest(ApiModel):
    """One answer recomputed: what it got before (an interaction's recorded feedback), what it gets
    now, and which expectations (of a test answer) the new feedback fails."""

    source: AnswerSource
    label: str
    """The test answer's label, or the id of the newest interaction with this answer."""
    answer: dict[str, Any]
    occurrences: int = 1
    """How many earlier interactions gave this same answer."""
    before: FeedbackSnapshot | None = None
    """The recorded feedback of the interaction; None for a test answer."""
    after: FeedbackSnapshot | None = None
    """The feedback against the current definition; None when it could not be computed."""
    error: str | None = None
    """Why the feedback could not be computed (e.g. the answer no longer fits the task)."""
    expected: Expectation | None = None
    failures: list[str] = Field(default_factory=list)
    """The expectations the new feedback fails, in words."""

    @computed_field
    @property
    def verdictChanged(self) -> bool:
        return (
            self.before is not None and self.after is not None and self.before.verdict != self.after.verdict
        )

    @computed_field
    @property
    def pointsChange(self) -> float:
        """achievedPoints after minus before (0 without both)."""
        if self.before is None or self.after is None:
            return 0.0
        return self.after.achievedPoints - self.before.achievedPoints

    @computed_field
    @property
    def aspectsGained(self) -> list[str]:
        if self.before is None or self.after is None:
            return []
        return sorted(set(self.after.aspects) - set(self.before.aspects))

    @computed_field
    @property
    def aspectsLost(self) -> list[str]:
        if self.before is None or self.after is None:
            return []
        return sorted(set(self.before.aspects) - set(self.after.aspects))

    @computed_field
    @property
    def changed(self) -> bool:
        """The verdict, the points or the detected aspects differ from before."""
        return bool(self.verdictChanged or self.pointsChange or self.aspectsGained or self.aspectsLost)

    @computed_field
    @property
    def passed(self) -> bool:
        return not self.failures


class TaskRetest(ApiModel):
    taskId: str
    taskType: str | None = None
    title: str | None = None
    version: int | None = None
    """The stored version the answers were recomputed against, where the service tells it."""
    answers: list[AnswerRetest] = Field(default_factory=list)

    @computed_field
    @property
    def failed(self) -> int:
        """Answers failing an expectation."""
        return sum(not a.passed for a in self.answers)

    @computed_field
    @property
    def changedCount(self) -> int:
        return sum(a.changed for a in self.answers)


class RetestReport(ApiModel):
    tenantId: str
    tasks: list[TaskRetest] = Field(default_factory=list)

    @computed_field
    @property
    def failed(self) -> int:
        return sum(t.failed for t in self.tasks)

    @computed_field
    @property
    def changedCount(self) -> int:
        return sum(t.changedCount for t in self.tasks)

    @computed_field
    @property
    def passed(self) -> bool:
        """No expectation failed: what a CI job checks."""
        return self.failed == 0
