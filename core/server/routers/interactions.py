"""End-user ratings (API.md 4) and the interaction, graded-answer, review-order and sample-solution
check extensions."""

from fastapi import APIRouter

from core.api import (
    EndUserRating,
    EndUserRatingRecord,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InteractionRecord,
    PathId,
    ReviewOrderRequest,
    ReviewOrderResponse,
    SampleSolutionChecks,
    VerdictOverride,
)
from core.server.deps import ServiceDep

router = APIRouter(tags=["interactions"])


@router.put(
    "/interactions/{interactionId}/end-user-rating",
    response_model=EndUserRatingRecord,
    response_model_exclude_none=True,
)
async def rate_interaction(
    interactionId: str, body: EndUserRating, service: ServiceDep
) -> EndUserRatingRecord:
    """Created on the first PUT, updated on later ones."""
    return await service.rate_interaction(interactionId, body)


@router.get(
    "/interactions/{interactionId}",
    response_model=InteractionRecord,
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def get_interaction(interactionId: str, service: ServiceDep) -> InteractionRecord:
    return await service.get_interaction(interactionId)


VERDICT_OVERRIDE = "/interactions/{interactionId}/verdict-override"


@router.put(
    VERDICT_OVERRIDE, response_model=InteractionRecord, response_model_exclude_none=True, tags=["extensions"]
)
async def override_verdict(
    interactionId: str, body: VerdictOverride, service: ServiceDep
) -> InteractionRecord:
    """Extension: a teacher's verdict in place of the engine's, set or changed (the same
    permission as rating). The interaction keeps the engine's verdict and feedback; the answer is
    the interaction with its ``override``: the verdict, the note, who set it and when."""
    return await service.override_verdict(interactionId, body)


@router.delete(
    VERDICT_OVERRIDE, response_model=InteractionRecord, response_model_exclude_none=True, tags=["extensions"]
)
async def remove_verdict_override(interactionId: str, service: ServiceDep) -> InteractionRecord:
    """Extension: back to the engine's verdict; without an override nothing changes."""
    return await service.remove_verdict_override(interactionId)


@router.get(
    "/tenants/{tenantId}/tasks/{taskId}/interactions",
    response_model=list[InteractionRecord],
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def list_interactions(tenantId: str, taskId: PathId, service: ServiceDep) -> list[InteractionRecord]:
    """Extension: the interactions of a task, newest first."""
    return await service.list_interactions(tenantId, taskId)


@router.post(
    "/tenants/{tenantId}/tasks/{taskId}/graded-answers",
    response_model=GradedAnswersResponse,
    tags=["extensions"],
)
async def add_graded_answers(
    tenantId: str, taskId: PathId, body: GradedAnswersRequest, service: ServiceDep
) -> GradedAnswersResponse:
    """Extension: answers the author has judged; the freeform engine takes them into account."""
    return await service.add_graded_answers(tenantId, taskId, body)


@router.post(
    "/tenants/{tenantId}/tasks/{taskId}/review-order",
    response_model=ReviewOrderResponse,
    tags=["extensions"],
    summary="Order ungraded answers for grading",
)
async def review_order(
    tenantId: str, taskId: PathId, body: ReviewOrderRequest, service: ServiceDep
) -> ReviewOrderResponse:
    """Extension: the order in which to grade a set of ungraded answers of the stored task, so that
    grading the first ones teaches the judge most. ``answers`` (1 to 5000) each have the shape of
    the task's type, as graded answers do; the answer is ``order``, ``min(limit, len(answers))``
    distinct indices into them (``limit`` 1 to 5000, default 10). Needs the access permission;
    nothing is recorded. 404 for an unknown task; 400 INVALID_PARAMETER naming the index of an
    answer that does not fit the task's type."""
    return await service.review_order(tenantId, taskId, body)


@router.get(
    "/tenants/{tenantId}/tasks/{taskId}/sample-solution-checks",
    response_model=SampleSolutionChecks,
    tags=["extensions"],
    summary="Judge the task's sample solutions",
)
async def check_sample_solutions(tenantId: str, taskId: PathId, service: ServiceDep) -> SampleSolutionChecks:
    """Extension: how the engine that judges the stored task's answers judges each of its sample
    solutions as if a learner had written it: ``checks``, one per non-empty sample solution of a
    freeform task (its 1-based number, the verdict, the concepts it does not show and the
    misconceptions it trips), none for the other types. An editor warns the author of a solution
    that is not CORRECT. Needs the access permission; nothing is recorded. 404 for an unknown task."""
    return await service.check_sample_solutions(tenantId, taskId)
