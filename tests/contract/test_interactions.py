"""Contract: end-user ratings, the interaction extensions and graded answers."""

from __future__ import annotations

import pytest

from core.api import (
    Correctness,
    EndUserRating,
    GradedAnswer,
    GradedAnswersRequest,
    InvalidParameter,
    NotFound,
    RatingSubtype,
    RatingType,
)
from core.service.base import Service
from tests.contract.builders import compute, mc_task

pytestmark = pytest.mark.contract


async def test_rating_is_created_then_updated(service: Service) -> None:
    feedback = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    interaction_id = feedback.metaData.interactionId
    created = await service.rate_interaction(interaction_id, EndUserRating(type=RatingType.GOOD))
    assert (created.interactionId, created.type, created.subtype) == (interaction_id, RatingType.GOOD, None)
    updated = await service.rate_interaction(
        interaction_id,
        EndUserRating(type=RatingType.BAD, subtype=RatingSubtype.TOO_STRICT, message="Bern is right"),
    )
    assert (updated.type, updated.subtype, updated.message) == (
        RatingType.BAD,
        RatingSubtype.TOO_STRICT,
        "Bern is right",
    )
    assert updated.createdAt == created.createdAt
    assert updated.updatedAt >= created.updatedAt
    assert (await service.get_interaction(interaction_id)).rating == EndUserRating(
        type=RatingType.BAD, subtype=RatingSubtype.TOO_STRICT, message="Bern is right"
    )


async def test_rating_an_unknown_interaction_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.rate_interaction(
            "00000000-0000-0000-0000-000000000000", EndUserRating(type=RatingType.GOOD)
        )


async def test_interactions_are_listed_newest_first_and_read_one_by_one(service: Service) -> None:
    first = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 1}))
    second = await service.compute_feedback(compute(mc_task(), {"selectedIndex": 0}))
    listed = await service.list_interactions("default", "mc-1")
    assert [r.interactionId for r in listed] == [second.metaData.interactionId, first.metaData.interactionId]
    assert [r.verdict for r in listed] == [Correctness.CORRECT, Correctness.WRONG]
    one = await service.get_interaction(first.metaData.interactionId)
    assert one == listed[1]
    assert (one.tenantId, one.taskId, one.userId, one.answer) == (
        "default",
        "mc-1",
        "learner-1",
        {"selectedIndex": 1},
    )
    assert one.feedback.result.model_dump() == first.result.model_dump()
    assert await service.list_interactions("default", "no-such-task") == []


async def test_reading_an_unknown_interaction_is_not_found(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.get_interaction("00000000-0000-0000-0000-000000000000")


async def test_graded_answers_are_added_and_counted(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    request = GradedAnswersRequest(
        answers=[
            GradedAnswer(answer={"selectedIndex": 0}, correctness=Correctness.CORRECT, points=1),
            GradedAnswer(answer={"selectedIndex": 2}, correctness=Correctness.WRONG, feedback="Not Geneva."),
        ]
    )
    added = await service.add_graded_answers("default", "mc-1", request)
    assert (added.tenantId, added.taskId, added.added, added.total) == ("default", "mc-1", 2, 2)
    assert (await service.add_graded_answers("default", "mc-1", request)).total == 4


async def test_graded_answers_of_the_wrong_shape_or_task_are_refused(service: Service) -> None:
    await service.upsert_task("default", mc_task())
    wrong_shape = GradedAnswersRequest(
        answers=[GradedAnswer(answer={"content": "Bern"}, correctness=Correctness.CORRECT)]
    )
    with pytest.raises(InvalidParameter, match=r"answers\[0\]"):
        await service.add_graded_answers("default", "mc-1", wrong_shape)
    with pytest.raises(NotFound):
        await service.add_graded_answers("default", "no-such-task", wrong_shape)
