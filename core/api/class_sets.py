"""Class sets (extension): a class's answers to one free-text task, judged together, graded by the
teacher a few at a time, every other verdict moved by each grade (docs/class-sets.md)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import Field, StrictFloat, StrictInt

from core.api.common import ApiModel, Correctness, always_sent
from core.api.feedback import FeedbackItem, TextSpan

CLASS_SET_MAX_ANSWERS = 5_000
"""The most answers one class set holds (a year's classes answering one question)."""
ANSWER_MAX_CHARS = 5_000
"""The most characters one answer has: a free-text answer's limit everywhere in the API."""
ANSWERS_PER_REQUEST = 1_000
"""The most answers one request adds: a set of more is created, then added to (its body stays
under the server's limit on a request's size)."""
PAGE_MAX = 500

Answer = Annotated[str, Field(max_length=ANSWER_MAX_CHARS)]


class GradedBy(StrEnum):
    AUTHOR = "AUTHOR"
    """The teacher graded this answer, or one with the same words."""
    JUDGE = "JUDGE"
    NOT_JUDGED = "NOT_JUDGED"
    """Not judged yet: the set's judging was stopped, or the task changed since."""


class ClassSetOrder(StrEnum):
    POSITION = "POSITION"
    """As imported."""
    GROUPED = "GROUPED"
    """By verdict (WRONG, PARTIAL, CORRECT), then alike answers together, the largest group first."""
    REVIEW = "REVIEW"
    """The ungraded answers in the order to grade them (the judge learns most from the first)."""


class ClassSetCreate(ApiModel):
    name: str = Field(
        default="", max_length=200, description="How the teacher calls the set (a class, a date)."
    )
    answers: list[Answer] = Field(
        default_factory=list,
        max_length=ANSWERS_PER_REQUEST,
        description=f"The first answers (at most {ANSWERS_PER_REQUEST}; add more with the set's answers "
        f"endpoint, up to {CLASS_SET_MAX_ANSWERS} in all), each at most {ANSWER_MAX_CHARS} characters.",
    )


class ClassSetAnswersAdd(ApiModel):
    answers: list[Answer] = Field(min_length=1, max_length=ANSWERS_PER_REQUEST)


class ClassSetJudgeRequest(ApiModel):
    limit: StrictInt = Field(
        default=100, ge=1, le=PAGE_MAX, description="How many answers not judged yet to judge now, at most."
    )


class VerdictCounts(ApiModel):
    model_config = always_sent("CORRECT", "PARTIAL", "WRONG", "UNKNOWN")
    CORRECT: int = 0
    PARTIAL: int = 0
    WRONG: int = 0
    UNKNOWN: int = 0


class ClassSet(ApiModel):
    model_config = always_sent("name", "judgedCount", "gradedCount")
    classSetId: str
    tenantId: str
    taskId: str
    name: str = ""
    answerCount: int
    judgedCount: int = Field(default=0, description="Answers judged for the task as it now is.")
    gradedCount: int = Field(default=0, description="Answers the teacher graded.")
    verdicts: VerdictCounts | None = Field(
        default=None, description="The judged answers by verdict (in a set's own reading, not in lists)."
    )
    createdAt: datetime
    updatedAt: datetime


class ClassSetAnswer(ApiModel):
    model_config = always_sent("feedback")
    position: int = Field(description="0-based, in the order the answers were imported.")
    text: str
    gradedBy: GradedBy
    verdict: Correctness | None = None
    points: float | None = None
    achievablePoints: float
    group: int | None = Field(
        default=None, description="Alike answers of one verdict share a group (GROUPED order)."
    )
    groupSize: int | None = None
    feedback: list[FeedbackItem[TextSpan]] = Field(
        default_factory=list, description="The feedback a learner would read."
    )


class ClassSetPage(ApiModel):
    classSet: ClassSet
    answers: list[ClassSetAnswer]
    offset: int
    total: int = Field(description="How many answers the order holds (REVIEW: the ungraded ones).")


class ClassSetGrade(ApiModel):
    correctness: Correctness = Field(description="CORRECT, PARTIAL or WRONG.")
    points: StrictFloat | StrictInt | None = Field(
        default=None, ge=0, description="For PARTIAL: the points, at most the task's maxPoints."
    )
