"""Class sets (extension, docs/class-sets.md): a class's answers to one free-text task, judged
together, graded a few at a time, exported. Write permission for changes (judging included),
access for reading."""

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from core.api import PathId
from core.api.class_sets import (
    PAGE_MAX,
    ClassSet,
    ClassSetAnswersAdd,
    ClassSetCreate,
    ClassSetGrade,
    ClassSetJudgeRequest,
    ClassSetOrder,
    ClassSetPage,
)
from core.server.deps import ServiceDep

router = APIRouter(tags=["extensions"])
CLASS_SET = "/tenants/{tenantId}/class-sets/{classSetId}"


@router.post(
    "/tenants/{tenantId}/tasks/{taskId}/class-sets",
    status_code=201,
    response_model=ClassSet,
    response_model_exclude_none=True,
    summary="Create a class set",
)
async def create_class_set(
    tenantId: str, taskId: PathId, body: ClassSetCreate, service: ServiceDep
) -> ClassSet:
    """A new set of a free-text task's answers, with its first answers (at most 1,000 a request;
    add the rest with POST …/answers, up to 5,000). Nothing is judged yet: POST …/judge judges a
    batch at a time, and reading the answers judges what it shows. 404 for an unknown task, 400
    for a task of another type."""
    return await service.create_class_set(tenantId, taskId, body)


@router.get("/tenants/{tenantId}/class-sets", response_model=list[ClassSet], response_model_exclude_none=True)
async def list_class_sets(
    tenantId: str, service: ServiceDep, taskId: Annotated[str | None, Query(max_length=200)] = None
) -> list[ClassSet]:
    """The tenant's class sets (of one task with ``taskId``), newest first."""
    return await service.list_class_sets(tenantId, taskId)


@router.get(CLASS_SET, response_model=ClassSet, response_model_exclude_none=True)
async def get_class_set(tenantId: str, classSetId: str, service: ServiceDep) -> ClassSet:
    """The set with its counts: answers, judged, graded, and the judged ones by verdict."""
    return await service.get_class_set(tenantId, classSetId)


@router.delete(CLASS_SET, response_model=ClassSet, response_model_exclude_none=True)
async def delete_class_set(tenantId: str, classSetId: str, service: ServiceDep) -> ClassSet:
    """Deletes the set with its answers and grades; the answer is the set as it was."""
    return await service.delete_class_set(tenantId, classSetId)


@router.post(f"{CLASS_SET}/answers", response_model=ClassSet, response_model_exclude_none=True)
async def add_class_set_answers(
    tenantId: str, classSetId: str, body: ClassSetAnswersAdd, service: ServiceDep
) -> ClassSet:
    """Adds answers (at most 1,000 a request, 5,000 in the set)."""
    return await service.add_class_set_answers(tenantId, classSetId, body)


@router.post(f"{CLASS_SET}/judge", response_model=ClassSet, response_model_exclude_none=True)
async def judge_class_set(
    tenantId: str, classSetId: str, body: ClassSetJudgeRequest, service: ServiceDep
) -> ClassSet:
    """Judges up to ``limit`` answers not judged for the task as it now is (1 to 500, default
    100); call again until ``judgedCount`` is ``answerCount``."""
    return await service.judge_class_set(tenantId, classSetId, body)


@router.get(f"{CLASS_SET}/answers", response_model=ClassSetPage, response_model_exclude_none=True)
async def class_set_answers(
    tenantId: str,
    classSetId: str,
    service: ServiceDep,
    order: ClassSetOrder = ClassSetOrder.POSITION,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
) -> ClassSetPage:
    """A page of the set's answers with verdict, points, feedback and who graded them: as imported
    (POSITION), grouped (GROUPED: by verdict, alike answers together) or the ungraded in the order
    to grade them (REVIEW). The grouped and review orders judge every answer not judged yet first."""
    return await service.class_set_answers(tenantId, classSetId, order, offset, limit)


@router.put(
    f"{CLASS_SET}/answers/{{position}}/grade", response_model=ClassSet, response_model_exclude_none=True
)
async def grade_class_set_answer(
    tenantId: str, classSetId: str, position: int, body: ClassSetGrade, service: ServiceDep
) -> ClassSet:
    """The teacher's grade of one answer (by its position); every other verdict of the set moves
    with it. 404 for a position the set does not have."""
    return await service.grade_class_set_answer(tenantId, classSetId, position, body)


@router.delete(
    f"{CLASS_SET}/answers/{{position}}/grade", response_model=ClassSet, response_model_exclude_none=True
)
async def take_back_class_set_grade(
    tenantId: str, classSetId: str, position: int, service: ServiceDep
) -> ClassSet:
    """Takes the teacher's grade of one answer back: the judge's verdict again."""
    return await service.grade_class_set_answer(tenantId, classSetId, position, None)


@router.get(
    f"{CLASS_SET}/export",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "The judged set as CSV."}},
)
async def export_class_set(tenantId: str, classSetId: str, service: ServiceDep) -> Response:
    """The judged set as CSV, one row per answer in the imported order: answer, verdict, points,
    achievable_points, feedback, graded_by (AUTHOR, JUDGE). Answers not judged yet are judged first."""
    text = await service.export_class_set(tenantId, classSetId)
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{classSetId}.csv"'},
    )
