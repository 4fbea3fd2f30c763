"""Interactions (one per feedback computation), end-user ratings, graded answers, test answers, the
order in which to grade new answers, and the check of a task's sample solutions."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, StrictFloat, StrictInt, field_validator

from core.api.common import ApiModel, Correctness
from core.api.feedback import Feedback, LearnerMetaData
from core.api.tasks import Text


class RatingType(StrEnum):
    GOOD = "GOOD"
    BAD = "BAD"


class RatingSubtype(StrEnum):
    UNCLEAR_EXPLANATION = "UNCLEAR_EXPLANATION"
    UNHELPFUL = "UNHELPFUL"
    TOO_STRICT = "TOO_STRICT"
    INCORRECT_FEEDBACK = "INCORRECT_FEEDBACK"
    TOO_GENERIC = "TOO_GENERIC"
    NOT_RELEVANT = "NOT_RELEVANT"
    CLEAR_EXPLANATION = "CLEAR_EXPLANATION"
    HELPFUL_HINT = "HELPFUL_HINT"
    MOTIVATION_BOOST = "MOTIVATION_BOOST"
    CORRECT_ANSWER = "CORRECT_ANSWER"
    LEARNED_SOMETHING_NEW = "LEARNED_SOMETHING_NEW"
    LIKED_FORMAT = "LIKED_FORMAT"


class EndUserRating(ApiModel):
    type: RatingType
    subtype: RatingSubtype | None = None
    message: str | None = Field(default=None, max_length=5_000)


class EndUserRatingRecord(EndUserRating):
    interactionId: str
    createdAt: datetime
    updatedAt: datetime


class VerdictOverride(ApiModel):
    """Extension: a teacher's verdict on an interaction, kept beside the engine's (which stays as
    it was given); the history reads the teacher's where there is one."""

    verdict: Correctness
    note: str | None = Field(default=None, max_length=5_000)
    """Why, in the teacher's words."""

    @field_validator("verdict")
    @classmethod
    def _judged(cls, verdict: Correctness) -> Correctness:
        if verdict is Correctness.UNKNOWN:
            raise ValueError("a teacher's verdict is CORRECT, PARTIAL or WRONG")
        return verdict


class VerdictOverrideRecord(VerdictOverride):
    author: str
    """The name of the token (principal) that set it."""
    createdAt: datetime
    updatedAt: datetime


class InteractionRecord(ApiModel):
    """Extension: a stored interaction, as the history views show it."""

    interactionId: str
    tenantId: str
    taskId: str
    userId: str
    taskVersion: int
    createdAt: datetime
    verdict: Correctness
    answer: dict[str, Any]
    learnerMetaData: LearnerMetaData | None = None
    feedback: Feedback
    rating: EndUserRating | None = None
    override: VerdictOverrideRecord | None = None
    """The teacher's verdict in place of the engine's ``verdict``, if one was given."""


class GradedAnswer(ApiModel):
    """Extension: an answer an author has judged; the freeform engine learns from these."""

    answer: dict[str, Any]
    correctness: Correctness
    points: StrictFloat | None = Field(default=None, ge=0)
    feedback: Text | None = None


class GradedAnswersRequest(ApiModel):
    answers: list[GradedAnswer] = Field(min_length=1, max_length=10_000)


class GradedAnswersResponse(ApiModel):
    tenantId: str
    taskId: str
    added: int
    total: int


REVIEW_ORDER_MAX = 5_000
"""The most answers one review-order request takes, and the most indices it answers with."""


class ReviewOrderRequest(ApiModel):
    """Extension: ungraded answers of a stored task, to be put in the order an author should grade
    them. Each answer has the shape of the task's type, as a graded answer's ``answer`` has."""

    answers: list[dict[str, Any]] = Field(
        min_length=1,
        max_length=REVIEW_ORDER_MAX,
        description="The ungraded answers, each in the shape of the task's type (e.g. {content} for "
        "a freeform task, {selectedIndex} for a multiple-choice task).",
    )
    limit: StrictInt = Field(
        default=10, ge=1, le=REVIEW_ORDER_MAX, description="How many indices the answer holds at most."
    )


class ReviewOrderResponse(ApiModel):
    order: list[int] = Field(
        description="Indices into the request's answers, distinct, min(limit, number of answers) of "
        "them: the answer to grade first comes first."
    )


class SampleSolutionCheck(ApiModel):
    """Extension: how the engine judges one sample solution of a stored task as if a learner had
    written it; a solution that is not CORRECT tells learners who write it the same."""

    number: StrictInt = Field(description="1-based, in the order of the task's sampleSolutions.")
    verdict: Correctness
    missingConcepts: list[str] = Field(
        default_factory=list, description="Concepts the solution does not show (by name)."
    )
    misconceptions: list[str] = Field(
        default_factory=list, description="Misconceptions whose cues the solution trips (by name)."
    )

    @property
    def passes(self) -> bool:
        return self.verdict is Correctness.CORRECT


class SampleSolutionChecks(ApiModel):
    checks: list[SampleSolutionCheck] = Field(
        description="One per non-empty sample solution of a freeform task; none for the other types, "
        "whose engines judge exactly and take their solution from the task itself."
    )
