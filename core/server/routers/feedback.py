"""Feedback computation (API.md 4: POST /feedback/compute, POST /tasks/{taskId}/feedback/compute)."""

from fastapi import APIRouter, Response

from core.api import ComputeFeedbackRequest, ComputeTaskFeedbackRequest, Feedback
from core.server.deps import ServiceDep

router = APIRouter(tags=["feedback"])


@router.post("/feedback/compute", response_model=Feedback, response_model_exclude_none=True)
async def compute_feedback(body: ComputeFeedbackRequest, service: ServiceDep, response: Response) -> Feedback:
    """Compute feedback; the task travels with the request and is created or updated implicitly."""
    feedback = await service.compute_feedback(body)
    response.headers["X-Interaction-Id"] = feedback.metaData.interactionId
    return feedback


@router.post("/tasks/{taskId}/feedback/compute", response_model=Feedback, response_model_exclude_none=True)
async def compute_feedback_for_task(
    taskId: str, body: ComputeTaskFeedbackRequest, service: ServiceDep, response: Response
) -> Feedback:
    """Compute feedback for a stored task; taskType must match the task's type."""
    feedback = await service.compute_feedback_for_task(taskId, body)
    response.headers["X-Interaction-Id"] = feedback.metaData.interactionId
    return feedback
