"""Extensions of the authoring workflow: test answers of a task, and retest (API.md 3, rule 3)."""

from fastapi import APIRouter

from core.api import PathId, RetestReport, RetestRequest, TestAnswerSet, TestAnswersRequest
from core.server.deps import ServiceDep

router = APIRouter(tags=["extensions"])
TEST_ANSWERS = "/tenants/{tenantId}/tasks/{taskId}/test-answers"


@router.get(TEST_ANSWERS, response_model=TestAnswerSet, response_model_exclude_none=True)
async def list_test_answers(tenantId: str, taskId: PathId, service: ServiceDep) -> TestAnswerSet:
    return await service.list_test_answers(tenantId, taskId)


@router.put(TEST_ANSWERS, response_model=TestAnswerSet, response_model_exclude_none=True)
async def put_test_answers(
    tenantId: str, taskId: PathId, body: TestAnswersRequest, service: ServiceDep
) -> TestAnswerSet:
    """Replace every test answer of the task."""
    return await service.put_test_answers(tenantId, taskId, body)


@router.post(TEST_ANSWERS, response_model=TestAnswerSet, response_model_exclude_none=True)
async def add_test_answers(
    tenantId: str, taskId: PathId, body: TestAnswersRequest, service: ServiceDep
) -> TestAnswerSet:
    """Add test answers; one under a known label replaces the stored one."""
    return await service.add_test_answers(tenantId, taskId, body)


@router.delete(TEST_ANSWERS + "/{label}", response_model=TestAnswerSet, response_model_exclude_none=True)
async def delete_test_answer(tenantId: str, taskId: PathId, label: str, service: ServiceDep) -> TestAnswerSet:
    return await service.delete_test_answer(tenantId, taskId, label)


@router.post("/tenants/{tenantId}/retest", response_model=RetestReport, response_model_exclude_none=True)
async def retest(tenantId: str, body: RetestRequest, service: ServiceDep) -> RetestReport:
    """Recompute the feedback of the tasks' test answers and earlier interactions (every task if
    taskIds is empty) and report what changed and which expectations fail."""
    return await service.retest(tenantId, body.taskIds)
