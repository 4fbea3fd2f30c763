"""Feedback in the local service: compute (API.md 2.1, 2.4), the interactions it records, and
their ratings (2.5; listing and reading interactions are extensions).

Both compute routes judge and record in one write job of the store's writer: the stored task's
revision is read, the answer judged, and the interaction inserted in one transaction, so a
refused or failing request stores nothing. The writer reads the revisions of all the tasks of a
batch's jobs in one statement (tasks.revision_read) and inserts their interactions in another.
Parsed tasks and graded answers are cached per revision (the content hash and the graded count
name it), valid across processes. A freeform task's engine model is built outside the job when it
is missing (:class:`_Unprepared`): with many long graded answers that takes up to seconds, and the
job runs on the event loop (on a SQLite file), where it would hold every other request.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy import Connection
from uuid_utils import uuid7

from core.api import (
    Answer,
    Aspect,
    AspectsComputeRequest,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    Correctness,
    EndUserRating,
    EndUserRatingRecord,
    Feedback,
    FeedbackMetaData,
    FeedbackResult,
    InteractionRecord,
    InvalidParameter,
    LearnerMetaData,
    NotFound,
    SimulationAnswer,
    TaskAction,
    TaskBase,
    TaskType,
    VerdictOverrideRecord,
    check_task,
    parse_task,
)
from core.auth import Permission
from core.engine import EngineUnavailable, compute_result, prepare, prepared
from core.engine.base import EngineContext, GradedExample
from core.service.context import Context
from core.service.simulation import SimulationOperations
from core.store import interactions, tasks
from core.store import models as m

log = logging.getLogger(__name__)

JUDGES_TEXT = frozenset({TaskType.FREEFORM_TEXT, TaskType.SIMULATION})
"""Task types whose feedback reads free text with the sentence encoder and the lemma dictionaries."""

Judging = Callable[[bool], Callable[[Connection], Feedback]]
"""A compute route's write job, given whether it may build the engine's model of its task itself."""


class _Unprepared(Exception):
    """Raised by a compute job, before it writes anything, whose task's engine model is not built:
    the model is then built in a worker thread, and the job runs again."""

    def __init__(self, task: TaskBase, ctx: EngineContext) -> None:
        super().__init__(task.id)
        self.task = task
        self.ctx = ctx


class FeedbackOperations:
    def __init__(self, ctx: Context, simulations: SimulationOperations) -> None:
        self.ctx = ctx
        self.simulations = simulations

    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback:
        """Implicitly create or update the task, then judge the answer against the supplied definition.

        One write transaction reads the stored task's revision, judges, and records: an unchanged
        task (the usual case, since clients send the task with every request) costs a read and an
        insert; changing a task needs the write permission. Anything refused or failing rolls
        back, storing nothing.
        """
        tenant = self.ctx.tenant(request.tenantId, Permission.ACCESS)
        check_task(request.taskDefinition)
        digest = tasks.task_hash(request.taskDefinition)
        if request.taskDefinition.task_type in JUDGES_TEXT:
            await self.ctx.runtime.text_models()
        transcript = await self.transcript(tenant, request.answer)
        return await self._judged(
            lambda build: tasks.at_revision(
                tenant,
                request.taskDefinition.id,
                partial(self._judge_supplied, tenant, request, digest, transcript, build=build),
            )
        )

    async def _judged(self, job: Judging) -> Feedback:
        """Run a compute route's write job; if its task's model is missing, build it in a worker
        thread and run the job again (then allowed to build it itself, should the task have changed
        in between)."""
        try:
            return await self.ctx.runtime.db.run_write(job(False))
        except _Unprepared as unprepared:
            await asyncio.to_thread(prepare, unprepared.task, unprepared.ctx)
        return await self.ctx.runtime.db.run_write(job(True))

    def _judge_supplied(
        self,
        tenant: str,
        request: ComputeFeedbackRequest,
        digest: str,
        transcript: Any,
        connection: Connection,
        stored: tasks.TaskRevision | None,
        *,
        build: bool = True,
    ) -> Feedback:
        task = request.taskDefinition
        tasks.check_type_unchanged(stored, task)
        unchanged = stored is not None and stored.content_hash == digest
        if not unchanged:
            self.ctx.principal.require(tenant, Permission.WRITE)
        graded = self.graded_examples(
            connection, tenant, task, stored.graded_count if stored is not None else 0
        )
        result = self.judge(tenant, task, request.answer, digest, graded, transcript, build=build)
        if stored is not None and unchanged:
            action, version = TaskAction.UNCHANGED, stored.version
        else:
            action, row = tasks.write_task(connection, tenant, task, author=self.ctx.principal.name)
            version = row.version
        return self._record(connection, tenant, version, action, request, task, result)

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        """Judge the answer against the stored task, in one write transaction like compute_feedback."""
        tenant = self.ctx.tenant(request.tenantId, Permission.ACCESS)
        if request.taskType in JUDGES_TEXT:
            await self.ctx.runtime.text_models()
        transcript = await self.transcript(tenant, request.answer)
        return await self._judged(
            lambda build: tasks.at_revision(
                tenant,
                task_id,
                partial(self._judge_stored, tenant, task_id, request, transcript, build=build),
            )
        )

    def _judge_stored(
        self,
        tenant: str,
        task_id: str,
        request: ComputeTaskFeedbackRequest,
        transcript: Any,
        connection: Connection,
        stored: tasks.TaskRevision | None,
        *,
        build: bool = True,
    ) -> Feedback:
        if stored is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        if stored.type is not request.taskType:
            raise InvalidParameter(
                f"taskType {request.taskType.value} does not match task {task_id!r}, a {stored.type.value} task"
            )
        task = self._stored_task(connection, tenant, task_id, stored.content_hash)
        graded = self.graded_examples(connection, tenant, task, stored.graded_count)
        result = self.judge(
            tenant, task, request.answer, stored.content_hash, graded, transcript, build=build
        )
        return self._record(connection, tenant, stored.version, TaskAction.UNCHANGED, request, task, result)

    def _stored_task(self, connection: Connection, tenant: str, task_id: str, digest: str) -> TaskBase:
        """The stored definition as its model, parsed once per revision (the hash names the content)."""
        key = (tenant, task_id, digest)
        task = self.ctx.runtime.task_cache.get(key)
        if task is None:
            task = parse_task(tasks.read_definition(connection, tenant, task_id))
            self.ctx.runtime.task_cache.put(key, task)
        return task

    def judge(
        self,
        tenant: str,
        task: TaskBase,
        answer: Answer,
        digest: str,
        graded: tuple[GradedExample, ...],
        transcript: Any,
        *,
        build: bool = True,
    ) -> FeedbackResult:
        """Feedback on an answer as both compute routes and the retest give it; with `build` false,
        _Unprepared when the task's engine model is not built yet."""
        ctx = self._engine_context(tenant, task, digest, graded, transcript)
        if not build and not prepared(task, ctx):
            raise _Unprepared(task, ctx)
        try:
            return compute_result(task, answer, ctx)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None

    def _engine_context(
        self, tenant: str, task: TaskBase, digest: str, graded: tuple[GradedExample, ...], transcript: Any
    ) -> EngineContext:
        """What the engine judges an answer to this revision of the task with; its cache key names
        the revision, so a model built ahead (prepare_stored) is the one the next answer finds."""
        return EngineContext(
            catalogue=self.ctx.runtime.catalogue,
            graded=graded,
            cache_key=(tenant, task.id, digest),
            transcript=transcript,
        )

    async def stored_context(self, tenant: str, task_id: str) -> tuple[TaskBase, EngineContext] | None:
        """The stored task and the EngineContext its next answer would be judged with (its graded
        answers, the cache key of its revision; no transcript), read in one read job; None when the
        task does not exist. For work on the task as it is stored other than judging one answer:
        building its model ahead, ordering answers for review."""

        def revision(connection: Connection) -> tuple[TaskBase, EngineContext] | None:
            stored = tasks.read_revision(connection, tenant, task_id)
            if stored is None:
                return None
            task = self._stored_task(connection, tenant, task_id, stored.content_hash)
            graded = self.graded_examples(connection, tenant, task, stored.graded_count)
            return task, self._engine_context(tenant, task, stored.content_hash, graded, None)

        return await self.ctx.runtime.db.run_read(revision)

    async def prepare_stored(self, tenant: str, task_id: str) -> None:
        """Build a stored freeform task's engine model now, in a worker thread, rather than when its
        next answer comes: after graded answers are added, whose judgement makes the model dear (a
        learner's answer would wait up to seconds for it)."""
        await self.ctx.runtime.text_models()
        found = await self.stored_context(tenant, task_id)
        if found is None or found[0].task_type is not TaskType.FREEFORM_TEXT:
            return
        task, engine_ctx = found
        try:
            await asyncio.to_thread(prepare, task, engine_ctx)
        except Exception:  # what was asked for is stored; the next answer builds the model (or says why not)
            log.exception("building the engine model of task %r ahead of its answers failed", task_id)

    async def judge_off_loop(
        self,
        tenant: str,
        task: TaskBase,
        answer: Answer,
        digest: str,
        graded: tuple[GradedExample, ...],
        transcript: Any,
    ) -> FeedbackResult:
        """judge, for a caller on the event loop outside a write job (the retest): the task's
        engine model, when missing, is built in a worker thread first."""
        try:
            return self.judge(tenant, task, answer, digest, graded, transcript, build=False)
        except _Unprepared as unprepared:
            await asyncio.to_thread(prepare, unprepared.task, unprepared.ctx)
        return self.judge(tenant, task, answer, digest, graded, transcript)

    def graded_examples(
        self, connection: Connection, tenant: str, task: TaskBase, graded_count: int
    ) -> tuple[GradedExample, ...]:
        """The task's graded answers, read once per revision and cached (valid across processes:
        the count on the task row is the revision, since graded answers are only ever added)."""
        if task.task_type is not TaskType.FREEFORM_TEXT or graded_count == 0:
            return ()
        key = (tenant, task.id, graded_count)
        cached = self.ctx.runtime.graded_cache.get(key)
        if cached is None:
            rows = interactions.list_graded(connection, tenant, task.id)
            cached = tuple(
                GradedExample(r.answer, Correctness(r.correctness), r.points, r.feedback) for r in rows
            )
            self.ctx.runtime.graded_cache.put(key, cached)
        return cached

    async def transcript(self, tenant: str, answer: Answer) -> Any:
        """A simulation's conversation, read before the feedback's transaction (it is not changed there)."""
        if not isinstance(answer, SimulationAnswer) or not answer.conversationId:
            return None
        return await self.simulations.transcript(tenant, answer.conversationId)

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
                taskLink=self.ctx.runtime.task_link(tenant, task.id),
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
                principal_id=self.ctx.principal.id,
                answer=request.answer,
                feedback=feedback,
                learner_meta=request.metaData,
                verdict=result.points.verdict.value,
                created_at=m.utcnow(),
            ),
        )
        return feedback

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]:
        self.ctx.tenant(request.tenantId, Permission.ACCESS)
        try:
            from core.engine.aspect_suggestion import suggest_aspects
        except ModuleNotFoundError:
            raise InvalidParameter("aspect suggestion is not available in this build") from None
        await self.ctx.runtime.text_models()  # it reads the task's texts with the lemma dictionaries
        return suggest_aspects(request.taskDefinition)

    # --- interactions and ratings ----------------------------------------------------------------

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord:
        """Create or update the interaction's rating, in one write job."""
        return await self.ctx.runtime.db.run_write(partial(self._rate, interaction_id, rating))

    def _rate(
        self, interaction_id: str, rating: EndUserRating, connection: Connection
    ) -> EndUserRatingRecord:
        tenant = interactions.interaction_tenant(connection, interaction_id)
        if tenant is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.ctx.principal.require(tenant, Permission.ACCESS)
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
        tenant = self.ctx.tenant(tenant_id, Permission.ACCESS)
        rows = await self.ctx.runtime.db.run_read(
            partial(interactions.list_interactions, tenant_id=tenant, task_id=task_id)
        )
        return [_interaction_record(found) for found in rows]

    async def get_interaction(self, interaction_id: str) -> InteractionRecord:
        found = await self.ctx.runtime.db.run_read(
            partial(interactions.read_interaction, interaction_id=interaction_id)
        )
        if found is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.ctx.principal.require(found.interaction.tenant_id, Permission.ACCESS)
        return _interaction_record(found)


def _interaction_record(found: interactions.InteractionRows) -> InteractionRecord:
    row, rating, override = found.interaction, found.rating, found.override
    return InteractionRecord(
        interactionId=row.id,
        tenantId=row.tenant_id,
        taskId=row.task_id,
        userId=row.user_id,
        taskVersion=row.task_version,
        createdAt=row.created_at,
        verdict=Correctness(row.verdict),
        answer=row.answer,
        learnerMetaData=LearnerMetaData.model_validate(row.learner_meta) if row.learner_meta else None,
        feedback=Feedback.model_validate(row.feedback),
        rating=EndUserRating.model_validate(
            {"type": rating.type, "subtype": rating.subtype, "message": rating.message}
        )
        if rating
        else None,
        override=VerdictOverrideRecord(
            verdict=Correctness(override.verdict),
            note=override.note,
            author=override.author,
            createdAt=override.created_at,
            updatedAt=override.updated_at,
        )
        if override
        else None,
    )
