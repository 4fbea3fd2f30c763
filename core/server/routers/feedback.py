"""Feedback computation (API.md 4: POST /feedback/compute, POST /tasks/{taskId}/feedback/compute)."""

from fastapi import APIRouter, Response

from core.api import ComputeFeedbackRequest, ComputeTaskFeedbackRequest, Feedback, PathId
from core.server.deps import ServiceDep

router = APIRouter(tags=["feedback"])


def feedback_response(feedback: Feedback) -> Response:
    """Serialise once (the service built a valid model), with the interaction id as a header too."""
    return Response(
        feedback.to_wire_json(),
        media_type="application/json",
        headers={"X-Interaction-Id": feedback.metaData.interactionId},
    )


@router.post("/feedback/compute", response_model=Feedback, response_model_exclude_none=True)
async def compute_feedback(body: ComputeFeedbackRequest, service: ServiceDep) -> Response:
    """Compute feedback; the task travels with the request and is created or updated implicitly."""
    return feedback_response(await service.compute_feedback(body))


@router.post("/tasks/{taskId}/feedback/compute", response_model=Feedback, response_model_exclude_none=True)
async def compute_feedback_for_task(
    taskId: PathId, body: ComputeTaskFeedbackRequest, service: ServiceDep
) -> Response:
    """Compute feedback for a stored task; taskType must match the task's type."""
    return feedback_response(await service.compute_feedback_for_task(taskId, body))
