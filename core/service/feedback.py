"""Feedback in the local service: compute (API.md 2.1, 2.4), the interactions it records, and
their ratings (2.5; listing and reading interactions are extensions).

Both compute routes judge, then write. The answer is judged against a revision of the task (its
type, content hash, version and count of graded answers) outside any transaction, a missing engine
model built on a worker thread first; then one write job records the interaction only if the
task's revision is still the one judged against, else the answer is judged again against the
revision the write found (at most ATTEMPTS times). A refused or failing request stores nothing.

The revision judged against is the one the last read or write of this process found
(Runtime.revisions), or is read when none is known or it would refuse the request (a refusal is
made only on what was read): an answer to an unchanged task costs one write job, which the store's
writer batches with others (one statement reads the revisions of a batch's jobs, one inserts their
interactions). Parsed tasks and graded answers are cached per revision, valid across processes. A
supplied task is checked against the revision before it is judged (its type; the write permission
if it differs), and again in the write; one that learns nothing from graded answers is recorded
whatever revision the write finds.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
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
    ServiceUnavailable,
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
from core.service.caller import Caller
from core.service.simulation import SimulationOperations
from core.store import interactions, tasks
from core.store import models as m
from core.store.tasks import TaskRevision

log = logging.getLogger(__name__)

JUDGES_TEXT = frozenset({TaskType.FREEFORM_TEXT, TaskType.SIMULATION})
"""Task types whose feedback reads free text with the sentence encoder and the lemma dictionaries."""
LEARNS = TaskType.FREEFORM_TEXT
"""The task type whose judgement depends on the stored task's graded answers."""
ATTEMPTS = 4
"""Judgements of one answer at most, each against the revision the previous write found."""


@dataclass(frozen=True, slots=True)
class _Recorded:
    """The write job recorded the interaction; `revision`: the task's, as it stands now."""

    feedback: Feedback
    revision: TaskRevision


@dataclass(frozen=True, slots=True)
class _Changed:
    """The write job found the task at another revision than the answer was judged against (None:
    the task is gone) and wrote nothing."""

    revision: TaskRevision | None


class FeedbackOperations:
    def __init__(self, caller: Caller, simulations: SimulationOperations) -> None:
        self.caller = caller
        self.simulations = simulations

    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback:
        """Implicitly create or update the task, then judge the answer against the supplied definition.

        An unchanged task (the usual case, since clients send the task with every request) costs
        the write of the interaction; changing a task needs the write permission and is written in
        the same job. A freeform task is judged with the stored graded answers of its id, so its
        judgement is recorded only if their count is still the one judged with.
        """
        tenant = self.caller.tenant(request.tenantId, Permission.ACCESS)
        task = request.taskDefinition
        check_task(task)
        digest = tasks.task_hash(task)
        if task.task_type in JUDGES_TEXT:
            await self.caller.runtime.text_models()
        transcript = await self.transcript(tenant, request.answer)
        known = self.caller.runtime.revisions.get((tenant, task.id))  # a guess, until a read or write says so
        if known is None or self._refused(tenant, task, digest, known):  # refused only as read
            known = await self._read_revision(tenant, task.id)
        tasks.check_type_unchanged(known, task)
        if known is None or known.content_hash != digest:
            self.caller.principal.require(tenant, Permission.WRITE)
        graded_count: int | None = None  # judged by the definition alone
        if task.task_type is LEARNS:
            graded_count = known.graded_count if known is not None else 0
        for _ in range(ATTEMPTS):
            graded = await self._graded(tenant, task, graded_count or 0)
            result = await self.judge(tenant, task, request.answer, digest, graded, transcript)
            record = partial(self._record_supplied, tenant, request, digest, graded_count, result)
            outcome = await self.caller.runtime.db.run_write(tasks.at_revision(tenant, task.id, record))
            self._found(tenant, task.id, outcome.revision)
            if isinstance(outcome, _Recorded):
                return outcome.feedback
            graded_count = outcome.revision.graded_count if outcome.revision is not None else 0
        raise _kept_changing(tenant, task.id)

    def _refused(self, tenant: str, task: TaskBase, digest: str, stored: TaskRevision) -> bool:
        """Whether the supplied task would be refused against this stored revision (another type,
        or a change the caller may not write)."""
        changes = stored.content_hash != digest
        return stored.type is not task.task_type or (
            changes and not self.caller.principal.can(tenant, Permission.WRITE)
        )

    def _record_supplied(
        self,
        tenant: str,
        request: ComputeFeedbackRequest,
        digest: str,
        graded_count: int | None,
        result: FeedbackResult,
        connection: Connection,
        stored: TaskRevision | None,
    ) -> _Recorded | _Changed:
        """The write job of compute_feedback: the task written if it changed, and the interaction,
        unless the graded answers judged with (`graded_count`, None: none) are not the stored ones."""
        task = request.taskDefinition
        tasks.check_type_unchanged(stored, task)
        if graded_count is not None and graded_count != (stored.graded_count if stored is not None else 0):
            return _Changed(stored)
        if stored is not None and stored.content_hash == digest:
            action, revision = TaskAction.UNCHANGED, stored
        else:
            self.caller.principal.require(tenant, Permission.WRITE)
            action, revision = tasks.write_task(connection, tenant, task, author=self.caller.principal.name)
        feedback = self._record(connection, tenant, revision.version, action, request, task, result)
        return _Recorded(feedback, _revision_of(revision))

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        """Judge the answer against the stored task, then record it if the task is still as judged."""
        tenant = self.caller.tenant(request.tenantId, Permission.ACCESS)
        if request.taskType in JUDGES_TEXT:
            await self.caller.runtime.text_models()
        transcript = await self.transcript(tenant, request.answer)
        known = self.caller.runtime.revisions.get((tenant, task_id))  # a guess, until a read or write says so
        revision = known if known is not None else await self._read_revision(tenant, task_id)
        checked = known is None
        for _ in range(ATTEMPTS):
            if not checked and (revision is None or revision.type is not request.taskType):
                revision, checked = await self._read_revision(tenant, task_id), True  # refused only as read
            if revision is None:
                raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
            if revision.type is not request.taskType:
                raise InvalidParameter(
                    f"taskType {request.taskType.value} does not match task {task_id!r}, "
                    f"a {revision.type.value} task"
                )
            found = await self._stored(tenant, task_id, revision)
            if found is None:  # the definition read is another revision's: judged against that one
                revision, checked = await self._read_revision(tenant, task_id), True
                continue
            task, graded = found
            result = await self.judge(tenant, task, request.answer, revision.content_hash, graded, transcript)
            record = partial(self._record_stored, tenant, request, task, revision, result)
            outcome = await self.caller.runtime.db.run_write(tasks.at_revision(tenant, task_id, record))
            self._found(tenant, task_id, outcome.revision)
            if isinstance(outcome, _Recorded):
                return outcome.feedback
            revision, checked = outcome.revision, True
        raise _kept_changing(tenant, task_id)

    def _record_stored(
        self,
        tenant: str,
        request: ComputeTaskFeedbackRequest,
        task: TaskBase,
        judged: TaskRevision,
        result: FeedbackResult,
        connection: Connection,
        stored: TaskRevision | None,
    ) -> _Recorded | _Changed:
        """The write job of compute_feedback_for_task: the interaction, if the task is still at the
        revision judged against."""
        if stored != judged:
            return _Changed(stored)
        feedback = self._record(
            connection, tenant, judged.version, TaskAction.UNCHANGED, request, task, result
        )
        return _Recorded(feedback, judged)

    async def _read_revision(self, tenant: str, task_id: str) -> TaskRevision | None:
        """The task's revision as stored now (remembered); None: no such task."""
        revision = await self.caller.runtime.db.run_read(
            partial(tasks.read_revision, tenant_id=tenant, task_id=task_id)
        )
        self._found(tenant, task_id, revision)
        return revision

    def _found(self, tenant: str, task_id: str, revision: TaskRevision | None) -> None:
        """Remember the task's revision as a read or write found it (the next answer's guess)."""
        if revision is None:
            self.caller.runtime.revisions.pop((tenant, task_id))
        else:
            self.caller.runtime.revisions.put((tenant, task_id), revision)

    async def _stored(
        self, tenant: str, task_id: str, revision: TaskRevision
    ) -> tuple[TaskBase, tuple[GradedExample, ...]] | None:
        """The stored task at this revision as its model, with its graded answers, each read once per
        revision and cached; None when the stored definition is no longer this revision's."""
        key = (tenant, task_id, revision.content_hash)
        task = self.caller.runtime.task_cache.get(key)
        if task is None:
            row = await self.caller.runtime.db.run_read(
                partial(tasks.read_task, tenant_id=tenant, task_id=task_id)
            )
            if row is None or row.content_hash != revision.content_hash:
                return None
            task = parse_task(row.definition)
            self.caller.runtime.task_cache.put(key, task)
        return task, await self._graded(tenant, task, revision.graded_count)

    async def _graded(self, tenant: str, task: TaskBase, graded_count: int) -> tuple[GradedExample, ...]:
        """graded_examples, read in a read job when not cached."""
        if task.task_type is not LEARNS or graded_count == 0:
            return ()
        cached = self.caller.runtime.graded_cache.get((tenant, task.id, graded_count))
        if cached is not None:
            return cached
        return await self.caller.runtime.db.run_read(
            partial(self.graded_examples, tenant=tenant, task=task, graded_count=graded_count)
        )

    async def judge(
        self,
        tenant: str,
        task: TaskBase,
        answer: Answer,
        digest: str,
        graded: tuple[GradedExample, ...],
        transcript: Any,
    ) -> FeedbackResult:
        """Feedback on an answer as both compute routes and the retest give it, judged on the event
        loop; the task's engine model, when missing, is built on a worker thread first (with many
        long graded answers that takes seconds, which would hold every other request)."""
        ctx = self._engine_context(tenant, task, digest, graded, transcript)
        try:
            if not prepared(task, ctx):
                await asyncio.to_thread(prepare, task, ctx)
            return compute_result(task, answer, ctx)
        except EngineUnavailable as exc:
            raise InvalidParameter(str(exc)) from None

    def _engine_context(
        self, tenant: str, task: TaskBase, digest: str, graded: tuple[GradedExample, ...], transcript: Any
    ) -> EngineContext:
        """What the engine judges an answer to this revision of the task with; its cache key names
        the revision, so a model built ahead (prepare_stored) is the one the next answer finds."""
        return EngineContext(
            catalogue=self.caller.runtime.catalogue,
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
            row = tasks.read_task(connection, tenant, task_id)
            if row is None:
                return None
            key = (tenant, task_id, row.content_hash)
            task = self.caller.runtime.task_cache.get(key)
            if task is None:
                task = row.task
                self.caller.runtime.task_cache.put(key, task)
            graded = self.graded_examples(connection, tenant, task, row.graded_count)
            return task, self._engine_context(tenant, task, row.content_hash, graded, None)

        return await self.caller.runtime.db.run_read(revision)

    async def prepare_stored(self, tenant: str, task_id: str) -> None:
        """Build a stored freeform task's engine model now, in a worker thread, rather than when its
        next answer comes: after graded answers are added, whose judgement makes the model dear (a
        learner's answer would wait up to seconds for it)."""
        await self.caller.runtime.text_models()
        found = await self.stored_context(tenant, task_id)
        if found is None or found[0].task_type is not TaskType.FREEFORM_TEXT:
            return
        task, engine_ctx = found
        try:
            await asyncio.to_thread(prepare, task, engine_ctx)
        except Exception:  # what was asked for is stored; the next answer builds the model (or says why not)
            log.exception("building the engine model of task %r ahead of its answers failed", task_id)

    def graded_examples(
        self, connection: Connection, tenant: str, task: TaskBase, graded_count: int
    ) -> tuple[GradedExample, ...]:
        """The task's first `graded_count` graded answers (those of that revision: graded answers
        are only ever added), read once per revision and cached (valid across processes)."""
        if task.task_type is not LEARNS or graded_count == 0:
            return ()
        key = (tenant, task.id, graded_count)
        cached = self.caller.runtime.graded_cache.get(key)
        if cached is None:
            rows = interactions.list_graded(connection, tenant, task.id, limit=graded_count)
            cached = tuple(
                GradedExample(r.answer, Correctness(r.correctness), r.points, r.feedback) for r in rows
            )
            self.caller.runtime.graded_cache.put(key, cached)
        return cached

    async def transcript(self, tenant: str, answer: Answer) -> Any:
        """A simulation's conversation, read before the answer is judged (it is not changed there)."""
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
                taskLink=self.caller.runtime.task_link(tenant, task.id),
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
                principal_id=self.caller.principal.id,
                answer=request.answer,
                feedback=feedback,
                learner_meta=request.metaData,
                verdict=result.points.verdict.value,
                created_at=m.utcnow(),
            ),
        )
        return feedback

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]:
        self.caller.tenant(request.tenantId, Permission.ACCESS)
        try:
            from core.engine.aspect_suggestion import suggest_aspects
        except ModuleNotFoundError:
            raise InvalidParameter("aspect suggestion is not available in this build") from None
        await self.caller.runtime.text_models()  # it reads the task's texts with the lemma dictionaries
        return suggest_aspects(request.taskDefinition)

    # --- interactions and ratings ----------------------------------------------------------------

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord:
        """Create or update the interaction's rating, in one write job."""
        return await self.caller.runtime.db.run_write(partial(self._rate, interaction_id, rating))

    def _rate(
        self, interaction_id: str, rating: EndUserRating, connection: Connection
    ) -> EndUserRatingRecord:
        tenant = interactions.interaction_tenant(connection, interaction_id)
        if tenant is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.caller.principal.require(tenant, Permission.ACCESS)
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
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        rows = await self.caller.runtime.db.run_read(
            partial(interactions.list_interactions, tenant_id=tenant, task_id=task_id)
        )
        return [_interaction_record(found) for found in rows]

    async def get_interaction(self, interaction_id: str) -> InteractionRecord:
        found = await self.caller.runtime.db.run_read(
            partial(interactions.read_interaction, interaction_id=interaction_id)
        )
        if found is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.caller.principal.require(found.interaction.tenant_id, Permission.ACCESS)
        return _interaction_record(found)


def _revision_of(row: TaskRevision) -> TaskRevision:
    """Only the revision of a task's row (a TaskRow is one, with more)."""
    return TaskRevision(row.type, row.content_hash, row.version, row.graded_count)


def _kept_changing(tenant: str, task_id: str) -> ServiceUnavailable:
    return ServiceUnavailable(
        f"task {task_id!r} of tenant {tenant!r} changed {ATTEMPTS} times while the answer was judged; "
        "send the answer again"
    )


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
