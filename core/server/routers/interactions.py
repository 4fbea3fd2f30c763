"""End-user ratings (API.md 4) and the interaction and graded-answer extensions."""

from fastapi import APIRouter

from core.api import (
    EndUserRating,
    EndUserRatingRecord,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InteractionRecord,
    PathId,
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
