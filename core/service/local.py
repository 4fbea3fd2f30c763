"""LocalService: the Service implemented in-process by the engines, the store and the auth rules.

Every operation checks the principal's permission on the tenant first, validates what the
store cannot, and does its reads, its computation and its writes in one transaction, so a
refused or failing request leaves nothing behind.
"""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import Any

from pydantic import ValidationError
from uuid_utils import uuid7

from core import API_VERSION, __version__
from core.api import (
    Answer,
    Aspect,
    AspectsComputeRequest,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    Correctness,
    DeleteTaskResponse,
    EndUserRating,
    EndUserRatingRecord,
    Feedback,
    FeedbackMetaData,
    GradedAnswersRequest,
    GradedAnswersResponse,
    HealthStatus,
    InteractionRecord,
    InvalidParameter,
    LearnerMetaData,
    NotFound,
    ServiceInfo,
    SimulationAnswer,
    StoredTask,
    TaskAction,
    TaskBase,
    TaskSummary,
    TaskType,
    UpsertTaskResponse,
    WebhookPayload,
    WebhookReceipt,
    check_task,
    parse_answer,
    parse_task,
)
from core.api.webhooks import TASK_DELETED, TASK_UPSERTED
from core.auth import Permission, Principal
from core.engine import REPEATABLE_TYPES, EngineUnavailable, compute_result
from core.engine.base import EngineContext, GradedExample
from core.service.local_tutor import TutorOperations
from core.service.local_workspace import WorkspaceOperations
from core.service.runtime import Runtime
from core.store import hot_path, interactions, principals, tasks
from core.store import models as m


class LocalService(TutorOperations, WorkspaceOperations):
    def __init__(self, runtime: Runtime, principal: Principal, *, owns_runtime: bool = False) -> None:
        self.runtime = runtime
        self.principal = principal
        self._owns_runtime = owns_runtime

    @classmethod
    def for_webhooks(cls, runtime: Runtime) -> LocalService:
        """A service with no grants: a webhook call is authorised by its path token alone."""
        return cls(runtime, Principal(id="webhook", name="webhook caller", default_tenant=""))

    # --- feedback -----------------------------------------------------------------------------

    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback:
        """Implicitly create or update the task, then judge the answer against the supplied definition.

        One transaction reads the stored task, judges, and records: an unchanged task (the usual
        case, since clients send the task with every request) costs a read and an insert; changing
        a task needs the write permission. Anything refused or failing rolls back, storing nothing.
        """
        tenant = self._tenant(request.tenantId, Permission.ACCESS)
        task = request.taskDefinition
        check_task(task)
        digest = tasks.task_hash(task)
        transcript = await self._transcript(tenant, request.answer)
        writer = self.runtime.db.sqlite_writer
        if writer is not None:
            judged = await writer.run(
                partial(self._judge_unchanged, tenant, request, digest, transcript), one_write=True
            )
            if judged is not None:
                return judged
        async with self.runtime.db.write() as session:
            stored = await tasks.get_task(session, tenant, task.id)
            tasks.check_type_unchanged(stored, task)
            unchanged = stored is not None and stored.content_hash == digest
            if not unchanged:
                self.principal.require(tenant, Permission.WRITE)
            graded = await self._graded_examples(session, tenant, task, stored.graded_count if stored else 0)
            result = self._compute(tenant, task, request.answer, digest, graded, transcript)
            if unchanged:
                action, version = TaskAction.UNCHANGED, stored.version
            else:
                action, row = await tasks.upsert_task(session, tenant, task)
                version = row.version
            return await self._record(session, tenant, version, action, request, task, result)

    def _judge_unchanged(
        self,
        tenant: str,
        request: ComputeFeedbackRequest,
        digest: str,
        transcript: Any,
        connection: sqlite3.Connection,
    ) -> Feedback | None:
        """The usual case as one job of the SQLite writer: the stored task is the one supplied and
        its graded answers are cached, so judging needs no Session. None: take the general path.
        Its one write is the last statement (the writer runs it without a savepoint)."""
        task = request.taskDefinition
        revision = hot_path.read_revision(connection, tenant, task.id)
        if revision is None or revision.content_hash != digest:
            return None
        graded = self._cached_graded(tenant, task, revision.graded_count)
        if graded is None:
            return None
        result = self._compute(tenant, task, request.answer, digest, graded, transcript)
        feedback, interaction = self._interaction(
            tenant, revision.version, TaskAction.UNCHANGED, request, task, result
        )
        hot_path.add_interaction(connection, interaction)
        return feedback

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        tenant = self._tenant(request.tenantId, Permission.ACCESS)
        transcript = await self._transcript(tenant, request.answer)
        async with self.runtime.db.write() as session:
            stored = await tasks.get_task(session, tenant, task_id)
            if stored is None:
                raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
            if stored.type is not request.taskType:
                raise InvalidParameter(
                    f"taskType {request.taskType.value} does not match task {task_id!r}, a {stored.type.value} task"
                )
            task = stored.task
            graded = await self._graded_examples(session, tenant, task, stored.graded_count)
            result = self._compute(tenant, task, request.answer, stored.content_hash, graded, transcript)
            return await self._record(
                session, tenant, stored.version, TaskAction.UNCHANGED, request, task, result
            )

    def _compute(
        self,
        tenant: str,
        task: TaskBase,
        answer: Answer,
        digest: str,
        graded: tuple[GradedExample, ...],
        transcript: Any,
    ) -> Any:
        """The engine's result, or the one it gave before for the same answer to the same task
        revision (repeatable types only: a class answering a multiple-choice question gives a few
        distinct answers many times over). Results are shared between feedbacks, never changed."""
        known_key = (digest, answer.to_wire_json()) if task.task_type in REPEATABLE_TYPES else None
        if known_key is not None and (known := self.runtime.result_cache.get(known_key)) is not None:
            return known
        ctx = EngineContext(
            catalogue=self.runtime.catalogue,
            graded=graded,
            cache_key=(tenant, task.id, digest),
            similarity=self.runtime.similarity if task.task_type is TaskType.FREEFORM_TEXT else None,
            transcript=transcript,
        )
        try:
            result = compute_result(task, answer, ctx)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None
        if known_key is not None:
            self.runtime.result_cache.put(known_key, result)
        return result

    def _cached_graded(
        self, tenant: str, task: TaskBase, graded_count: int
    ) -> tuple[GradedExample, ...] | None:
        """The task's graded answers if they are at hand without a query (None: they must be read)."""
        if task.task_type is not TaskType.FREEFORM_TEXT or graded_count == 0:
            return ()
        return self.runtime.graded_cache.get((tenant, task.id, graded_count))

    async def _graded_examples(
        self, session: Any, tenant: str, task: TaskBase, graded_count: int
    ) -> tuple[GradedExample, ...]:
        """The task's graded answers, read once per revision and cached (valid across processes:
        the count on the task row is the revision, since graded answers are only ever added)."""
        cached = self._cached_graded(tenant, task, graded_count)
        if cached is None:
            rows = await interactions.list_graded(session, tenant, task.id)
            cached = tuple(
                GradedExample(r.answer, Correctness(r.correctness), r.points, r.feedback) for r in rows
            )
            self.runtime.graded_cache.put((tenant, task.id, graded_count), cached)
        return cached

    async def _transcript(self, tenant: str, answer: Answer) -> Any:
        """A simulation's conversation, read before the feedback's transaction (it is not changed there)."""
        if not isinstance(answer, SimulationAnswer) or not answer.conversationId:
            return None
        return await self.simulation_transcript(tenant, answer.conversationId)

    async def _record(
        self,
        session: Any,
        tenant: str,
        version: int,
        action: TaskAction,
        request: ComputeFeedbackRequest | ComputeTaskFeedbackRequest,
        task: TaskBase,
        result: Any,
    ) -> Feedback:
        """Record the interaction through the Session (the general path) and give its feedback."""
        feedback, interaction = self._interaction(tenant, version, action, request, task, result)
        await interactions.add_interaction(session, interaction)
        return feedback

    def _interaction(
        self,
        tenant: str,
        version: int,
        action: TaskAction,
        request: ComputeFeedbackRequest | ComputeTaskFeedbackRequest,
        task: TaskBase,
        result: Any,
    ) -> tuple[Feedback, dict[str, Any]]:
        """The feedback for the caller and the interaction row that records it (its JSON columns
        still models: each way of writing serialises them as it does best)."""
        interaction_id = str(uuid7())  # time-ordered: appended to the primary key's index, not scattered
        feedback = Feedback(
            userId=request.userId,
            taskId=task.id,
            taskType=task.task_type,
            metaData=FeedbackMetaData(
                taskAction=action,
                tenantId=tenant,
                taskLink=self.runtime.task_link(tenant, task.id),
                interactionId=interaction_id,
            ),
            result=result,
        )
        row = dict(
            id=interaction_id,
            tenant_id=tenant,
            task_id=task.id,
            task_version=version,
            user_id=request.userId,
            principal_id=self.principal.id,
            answer=request.answer,
            feedback=feedback,
            learner_meta=request.metaData,
            verdict=result.points.verdict.value,
            created_at=m.utcnow(),
        )
        return feedback, row

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]:
        self._tenant(request.tenantId, Permission.ACCESS)
        try:
            from core.engine.aspect_suggestion import suggest_aspects
        except ModuleNotFoundError:
            raise InvalidParameter("aspect suggestion is not available in this build") from None
        return suggest_aspects(request.taskDefinition)

    # --- tasks --------------------------------------------------------------------------------

    async def upsert_task(self, tenant_id: str, task: TaskBase) -> UpsertTaskResponse:
        tenant = self._tenant(tenant_id, Permission.WRITE)
        check_task(task)
        async with self.runtime.db.write() as session:
            action, _ = await tasks.upsert_task(session, tenant, task)
        return UpsertTaskResponse(
            taskId=task.id, tenantId=tenant, action=action, taskLink=self.runtime.task_link(tenant, task.id)
        )

    async def delete_task(self, tenant_id: str, task_id: str) -> DeleteTaskResponse:
        """Removes the task with its answers and feedback: a task created again under the id starts fresh."""
        tenant = self._tenant(tenant_id, Permission.DELETE)
        async with self.runtime.db.write() as session:
            if not await tasks.delete_task(session, tenant, task_id):
                raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
            await tasks.delete_task_data(session, tenant, task_id)
        return DeleteTaskResponse(message=f"task {task_id!r} deleted", taskId=task_id, tenantId=tenant)

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]:
        tenant = self._tenant(tenant_id, Permission.ACCESS)
        async with self.runtime.db.read() as session:
            listing = await tasks.list_tasks(session, tenant)
        return [
            TaskSummary(
                taskId=item.task.task_id,
                tenantId=tenant,
                type=item.task.type.schema_name,
                title=item.task.title,
                language=item.task.language,
                version=item.task.version,
                updatedAt=item.task.updated_at,
                interactionCount=item.interaction_count,
                lastVerdicts=item.last_verdicts,
            )
            for item in listing
        ]

    async def get_task(self, tenant_id: str, task_id: str) -> StoredTask:
        tenant = self._tenant(tenant_id, Permission.ACCESS)
        row = await self._stored_row(tenant, task_id)
        return StoredTask(
            tenantId=tenant,
            version=row.version,
            createdAt=row.created_at,
            updatedAt=row.updated_at,
            taskLink=self.runtime.task_link(tenant, task_id),
            definition=row.task,
        )

    async def _stored_row(self, tenant: str, task_id: str) -> tasks.TaskRow:
        async with self.runtime.db.read() as session:
            row = await tasks.get_task(session, tenant, task_id)
        if row is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        return row

    # --- interactions, ratings and graded answers ---------------------------------------------

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord:
        async with self.runtime.db.write() as session:
            interaction = await interactions.get_interaction(session, interaction_id)
            if interaction is None:
                raise NotFound(f"interaction {interaction_id!r} does not exist")
            self.principal.require(interaction.tenant_id, Permission.ACCESS)
            row = await interactions.put_rating(
                session,
                interaction_id,
                rating.type.value,
                rating.subtype.value if rating.subtype else None,
                rating.message,
            )
            return EndUserRatingRecord(
                interactionId=interaction_id,
                type=row.type,
                subtype=row.subtype,
                message=row.message,
                createdAt=row.created_at,
                updatedAt=row.updated_at,
            )

    async def list_interactions(self, tenant_id: str, task_id: str) -> list[InteractionRecord]:
        tenant = self._tenant(tenant_id, Permission.ACCESS)
        async with self.runtime.db.read() as session:
            rows = await interactions.list_interactions(session, tenant, task_id)
        return [_interaction_record(i, r) for i, r in rows]

    async def get_interaction(self, interaction_id: str) -> InteractionRecord:
        async with self.runtime.db.read() as session:
            row = await interactions.get_interaction(session, interaction_id)
            if row is None:
                raise NotFound(f"interaction {interaction_id!r} does not exist")
            self.principal.require(row.tenant_id, Permission.ACCESS)
            rating = await interactions.get_rating(session, interaction_id)
        return _interaction_record(row, rating)

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        tenant = self._tenant(tenant_id, Permission.WRITE)
        task = (await self._stored_row(tenant, task_id)).task
        documents = []
        for i, graded in enumerate(request.answers):
            try:
                answer = parse_answer(task.task_type, graded.answer)
            except ValueError as exc:
                raise InvalidParameter(f"answers[{i}]: {exc}") from None
            documents.append(
                dict(
                    answer=answer.to_wire(),
                    correctness=graded.correctness.value,
                    points=graded.points,
                    feedback=graded.feedback,
                )
            )
        async with self.runtime.db.write() as session:
            total = await interactions.add_graded_answers(session, tenant, task_id, documents)
        return GradedAnswersResponse(tenantId=tenant, taskId=task_id, added=len(documents), total=total)

    # --- webhooks -----------------------------------------------------------------------------

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt:
        async with self.runtime.db.read() as session:
            tenant = await principals.tenant_for_webhook_token(session, token)
        if tenant is None:
            raise NotFound("unknown webhook token")
        async with self.runtime.db.write() as session:
            if payload.event == TASK_UPSERTED:
                try:
                    task = parse_task(payload.data)
                except ValidationError as exc:
                    raise InvalidParameter(
                        f"task.upserted: data is not a task definition ({exc.error_count()} errors)"
                    ) from None
                check_task(task)
                await tasks.upsert_task(session, tenant, task)
            elif payload.event == TASK_DELETED:
                task_id = payload.data.get("taskId") if isinstance(payload.data, dict) else None
                if not isinstance(task_id, str):
                    raise InvalidParameter("task.deleted: data must be {taskId: string}")
                if await tasks.delete_task(session, tenant, task_id):
                    await tasks.delete_task_data(session, tenant, task_id)
            event_id = await principals.record_webhook_event(session, tenant, payload.event, payload.data)
        return WebhookReceipt(received=True, eventId=event_id)

    # --- service --------------------------------------------------------------------------------

    async def healthcheck(self) -> HealthStatus:
        return HealthStatus(status="OK")

    async def info(self) -> ServiceInfo:
        return ServiceInfo(
            version=__version__,
            apiVersion=API_VERSION,
            mode="local",
            principal=self.principal.name,
            defaultTenantId=self.principal.default_tenant,
            tenants=sorted(self.principal.grants),
            permissions={t: sorted(p.value for p in perms) for t, perms in self.principal.grants.items()},
            extensions=True,
        )

    async def aclose(self) -> None:
        """Close the runtime if this service opened it; a shared runtime is closed by its owner."""
        if self._owns_runtime:
            await self.runtime.aclose()

    def _tenant(self, tenant_id: str | None, permission: Permission) -> str:
        tenant = self.principal.tenant(tenant_id)
        self.principal.require(tenant, permission)
        return tenant


def _interaction_record(row: m.Interaction, rating: m.EndUserRating | None) -> InteractionRecord:
    return InteractionRecord(
        interactionId=row.id,
        tenantId=row.tenant_id,
        taskId=row.task_id,
        userId=row.user_id,
        taskVersion=row.task_version,
        createdAt=row.created_at,
        verdict=row.verdict,
        answer=row.answer,
        learnerMetaData=LearnerMetaData.model_validate(row.learner_meta) if row.learner_meta else None,
        feedback=Feedback.model_validate(row.feedback),
        rating=EndUserRating(type=rating.type, subtype=rating.subtype, message=rating.message)
        if rating
        else None,
    )
