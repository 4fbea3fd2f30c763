"""Tasks: upsert and delete (API.md 4), the alpha aspects call, and the list/read/history extensions."""

from typing import Annotated

from fastapi import APIRouter, Header, Path, Response

from core.api import (
    Aspect,
    AspectsComputeRequest,
    DeleteTaskResponse,
    PathId,
    StoredTask,
    TaskDefinition,
    TaskSummary,
    TaskVersion,
    TaskVersionSummary,
    UpsertTaskResponse,
)
from core.api.preconditions import etag, expected_version_of
from core.server.deps import ServiceDep

router = APIRouter(tags=["tasks"])


@router.post("/tenants/{tenantId}/tasks", response_model=UpsertTaskResponse)
async def upsert_task(
    tenantId: str,
    task: TaskDefinition,
    service: ServiceDep,
    if_match: Annotated[
        str | None, Header(description='Extension: write only on top of this version, e.g. "3"')
    ] = None,
    if_none_match: Annotated[
        str | None, Header(description='Extension: "*" creates only, never replaces')
    ] = None,
) -> UpsertTaskResponse:
    """Create (CREATED) or update (UPDATED, UNCHANGED) a task; its type can never change.

    Extension: with If-Match or If-None-Match the write is conditional (412 when the stored task is
    not the one the editor opened, core.api.preconditions)."""
    expected = expected_version_of(if_match, if_none_match)
    return await service.upsert_task(tenantId, task, expected_version=expected)


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
async def get_task(tenantId: str, taskId: PathId, service: ServiceDep, response: Response) -> StoredTask:
    """Extension: a stored task definition; its ETag is its version (for If-Match on the upsert)."""
    stored = await service.get_task(tenantId, taskId)
    response.headers["ETag"] = etag(stored.version)
    return stored


@router.get(
    "/tenants/{tenantId}/tasks/{taskId}/versions",
    response_model=list[TaskVersionSummary],
    tags=["extensions"],
)
async def list_task_versions(tenantId: str, taskId: PathId, service: ServiceDep) -> list[TaskVersionSummary]:
    """Extension: every version the task has had, newest first, with its time and the name of the
    token that wrote it. To restore one, upsert its definition with If-Match of the current version."""
    return await service.list_task_versions(tenantId, taskId)


@router.get(
    "/tenants/{tenantId}/tasks/{taskId}/versions/{version}",
    response_model=TaskVersion,
    response_model_exclude_none=True,
    tags=["extensions"],
)
async def get_task_version(
    tenantId: str, taskId: PathId, version: Annotated[int, Path(ge=1)], service: ServiceDep
) -> TaskVersion:
    """Extension: one version of the task with its definition as it was then."""
    return await service.get_task_version(tenantId, taskId, version)
