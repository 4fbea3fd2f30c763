"""Tasks: upsert and delete (API.md 4), the alpha aspects call, and the list/read extensions."""

from fastapi import APIRouter

from core.api import (
    Aspect,
    AspectsComputeRequest,
    DeleteTaskResponse,
    PathId,
    StoredTask,
    TaskDefinition,
    TaskSummary,
    UpsertTaskResponse,
)
from core.server.deps import ServiceDep

router = APIRouter(tags=["tasks"])


@router.post("/tenants/{tenantId}/tasks", response_model=UpsertTaskResponse)
async def upsert_task(tenantId: str, task: TaskDefinition, service: ServiceDep) -> UpsertTaskResponse:
    """Create (CREATED) or update (UPDATED, UNCHANGED) a task; its type can never change."""
    return await service.upsert_task(tenantId, task)


@router.delete("/tenants/{tenantId}/tasks/{taskId}", response_model=DeleteTaskResponse)
async def delete_task(tenantId: str, taskId: PathId, service: ServiceDep) -> DeleteTaskResponse:
    return await service.delete_task(tenantId, taskId)


@router.post("/tasks/aspects/compute", response_model=list[Aspect], response_model_exclude_none=True)
async def compute_aspects(body: AspectsComputeRequest, service: ServiceDep) -> list[Aspect]:
    """Alpha: the aspects relevant to a task, as a JSON array of Aspect."""
    return await service.compute_aspects(body)


@router.get("/tenants/{tenantId}/tasks", response_model=list[TaskSummary], tags=["extensions"])
async def list_tasks(tenantId: str, service: ServiceDep) -> list[TaskSummary]:
    """Extension: the tenant's task library with recent verdicts."""
    return await service.list_tasks(tenantId)


@router.get(
    "/tenants/{tenantId}/tasks/{taskId}",
    response_model=StoredTask,
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def get_task(tenantId: str, taskId: PathId, service: ServiceDep) -> StoredTask:
    """Extension: a stored task definition."""
    return await service.get_task(tenantId, taskId)
