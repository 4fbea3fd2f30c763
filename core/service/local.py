"""LocalService: the Service implemented in-process by the engines, the store and the auth rules.

Every operation checks the principal's permission on the tenant first, validates what the
store cannot, and does its reads, its computation and its writes in one transaction, so a
refused or failing request leaves nothing behind.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Connection
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
from core.engine import EngineUnavailable, compute_result
from core.engine.base import EngineContext, GradedExample
from core.service.local_tutor import TutorOperations
from core.service.local_workspace import WorkspaceOperations
from core.service.runtime import Runtime
from core.store import interactions, principals, tasks
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

        One write transaction reads the stored task's revision, judges, and records: an unchanged
        task (the usual case, since clients send the task with every request) costs a read and an
        insert; changing a task needs the write permission. Anything refused or failing rolls
        back, storing nothing.
        """
        tenant = self._tenant(request.tenantId, Permission.ACCESS)
        check_task(request.taskDefinition)
        digest = tasks.task_hash(request.taskDefinition)
        transcript = await self._transcript(tenant, request.answer)
        return await self.runtime.db.run_write(
            partial(self._judge_supplied, tenant, request, digest, transcript)
        )

    def _judge_supplied(
        self,
        tenant: str,
        request: ComputeFeedbackRequest,
        digest: str,
        transcript: Any,
        connection: Connection,
    ) -> Feedback:
        task = request.taskDefinition
        stored = tasks.read_revision(connection, tenant, task.id)
        tasks.check_type_unchanged(stored, task)
        unchanged = stored is not None and stored.content_hash == digest
        if not unchanged:
            self.principal.require(tenant, Permission.WRITE)
        graded = self._graded_examples(
            connection, tenant, task, stored.graded_count if stored is not None else 0
        )
        result = self._compute(tenant, task, request.answer, digest, graded, transcript)
        if unchanged:
            action, version = TaskAction.UNCHANGED, stored.version
        else:
            action, row = tasks.write_task(connection, tenant, task)
            version = row.version
        return self._record(connection, tenant, version, action, request, task, result)

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        """Judge the answer against the stored task, in one write transaction like compute_feedback."""
        tenant = self._tenant(request.tenantId, Permission.ACCESS)
        transcript = await self._transcript(tenant, request.answer)
        return await self.runtime.db.run_write(
            partial(self._judge_stored, tenant, task_id, request, transcript)
        )

    def _judge_stored(
        self,
        tenant: str,
        task_id: str,
        request: ComputeTaskFeedbackRequest,
        transcript: Any,
        connection: Connection,
    ) -> Feedback:
        stored = tasks.read_revision(connection, tenant, task_id)
        if stored is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        if stored.type is not request.taskType:
            raise InvalidParameter(
                f"taskType {request.taskType.value} does not match task {task_id!r}, a {stored.type.value} task"
            )
        task = self._stored_task(connection, tenant, task_id, stored.content_hash)
        graded = self._graded_examples(connection, tenant, task, stored.graded_count)
        result = self._compute(tenant, task, request.answer, stored.content_hash, graded, transcript)
        return self._record(connection, tenant, stored.version, TaskAction.UNCHANGED, request, task, result)

    def _stored_task(self, connection: Connection, tenant: str, task_id: str, digest: str) -> TaskBase:
        """The stored definition as its model, parsed once per revision (the hash names the content)."""
        key = (tenant, task_id, digest)
        task = self.runtime.task_cache.get(key)
        if task is None:
            task = parse_task(tasks.read_definition(connection, tenant, task_id))
            self.runtime.task_cache.put(key, task)
        return task

    def _compute(
        self,
        tenant: str,
        task: TaskBase,
        answer: Answer,
        digest: str,
        graded: tuple[GradedExample, ...],
        transcript: Any,
    ) -> Any:
        ctx = EngineContext(
            catalogue=self.runtime.catalogue,
            graded=graded,
            cache_key=(tenant, task.id, digest),
            similarity=self.runtime.similarity if task.task_type is TaskType.FREEFORM_TEXT else None,
            transcript=transcript,
        )
        try:
            return compute_result(task, answer, ctx)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None

    def _graded_examples(
        self, connection: Connection, tenant: str, task: TaskBase, graded_count: int
    ) -> tuple[GradedExample, ...]:
        """The task's graded answers, read once per revision and cached (valid across processes:
        the count on the task row is the revision, since graded answers are only ever added)."""
        if task.task_type is not TaskType.FREEFORM_TEXT or graded_count == 0:
            return ()
        key = (tenant, task.id, graded_count)
        cached = self.runtime.graded_cache.get(key)
        if cached is None:
            rows = interactions.list_graded(connection, tenant, task.id)
            cached = tuple(
                GradedExample(r.answer, Correctness(r.correctness), r.points, r.feedback) for r in rows
            )
            self.runtime.graded_cache.put(key, cached)
        return cached

    async def _transcript(self, tenant: str, answer: Answer) -> Any:
        """A simulation's conversation, read before the feedback's transaction (it is not changed there)."""
        if not isinstance(answer, SimulationAnswer) or not answer.conversationId:
            return None
        return await self.simulation_transcript(tenant, answer.conversationId)

    def _record(
        self,
        connection: Connection,
        tenant: str,
        version: int,
        action: TaskAction,
        request: ComputeFeedbackRequest | ComputeTaskFeedbackRequest,
        task: TaskBase,
        result: Any,
    ) -> Feedback:
        """Record the computation as an interaction and give its feedback."""
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
        interactions.add_interaction(
            connection,
            dict(
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
            ),
        )
        return feedback

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
        """Create or update the interaction's rating, in one write job."""
        return await self.runtime.db.run_write(partial(self._rate, interaction_id, rating))

    def _rate(
        self, interaction_id: str, rating: EndUserRating, connection: Connection
    ) -> EndUserRatingRecord:
        tenant = interactions.interaction_tenant(connection, interaction_id)
        if tenant is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.principal.require(tenant, Permission.ACCESS)
        row = interactions.put_rating(
            connection,
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
