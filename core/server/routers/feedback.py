"""Feedback computation (API.md 4: POST /feedback/compute, POST /tasks/{taskId}/feedback/compute).

These two routes carry nearly all of a service's traffic, so they call local_service themselves
instead of declaring it as a dependency: FastAPI's resolution of a sub-dependency cost a tenth of
a feedback's CPU (112 k of 1,124 k instructions, docs/performance.md). One consequence: FastAPI
validates the body before the route checks the token, so a request wrong in both ways is told
about its body first (both answers are 400).
"""

from fastapi import APIRouter, Request, Response

from core.api import ComputeFeedbackRequest, ComputeTaskFeedbackRequest, Feedback
from core.server.deps import BEARER_SECURITY, local_service

router = APIRouter(tags=["feedback"])


def feedback_response(feedback: Feedback) -> Response:
    """Serialise once (the service built a valid model), with the interaction id as a header too."""
    return Response(
        feedback.to_wire_json(),
        media_type="application/json",
        headers={"X-Interaction-Id": feedback.metaData.interactionId},
    )


@router.post(
    "/feedback/compute",
    response_model=Feedback,
    response_model_exclude_none=True,
    openapi_extra=BEARER_SECURITY,
)
async def compute_feedback(body: ComputeFeedbackRequest, request: Request) -> Response:
    """Compute feedback; the task travels with the request and is created or updated implicitly."""
    service = await local_service(request)
    return feedback_response(await service.compute_feedback(body))


@router.post(
    "/tasks/{taskId}/feedback/compute",
    response_model=Feedback,
    response_model_exclude_none=True,
    openapi_extra=BEARER_SECURITY,
)
async def compute_feedback_for_task(
    taskId: str, body: ComputeTaskFeedbackRequest, request: Request
) -> Response:
    """Compute feedback for a stored task; taskType must match the task's type."""
    service = await local_service(request)
    return feedback_response(await service.compute_feedback_for_task(taskId, body))
