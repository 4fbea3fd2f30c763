"""Class sets in the local service (extension, docs/class-sets.md).

A set's answers are judged once per version of the task's content (``judge``, a batch at a time,
so that an app shows progress and can stop), and what each judgement keeps is stored. Every
reading then gives every answer's verdict afresh from those and the grades (the teacher's on the
set, and the task's graded answers): a grade is one small write, and the verdicts it moves are up
to date at the next reading, milliseconds of work for thousands of answers. The feedback text of
an answer is written when it is read and kept with the key of what it was written for (the task's
content, its graded answers, the verdict and points), so it is written again only when one moved.

Judging and feedback run in a worker thread (CPU work that would hold the event loop); the writes
come after, each one short.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection
from uuid_utils import uuid7

from core.api import Correctness, FreeformTextAnswer, FreeformTextTask, InvalidParameter, NotFound, TaskType
from core.api.class_sets import (
    CLASS_SET_MAX_ANSWERS,
    ClassSet,
    ClassSetAnswer,
    ClassSetAnswersAdd,
    ClassSetCreate,
    ClassSetGrade,
    ClassSetJudgeRequest,
    ClassSetOrder,
    ClassSetPage,
    GradedBy,
    VerdictCounts,
)
from core.api.feedback import FeedbackItem, TextSpan
from core.auth import Permission
from core.engine import compute_result
from core.engine.base import EngineContext, GradedExample
from core.service.caller import Caller
from core.service.feedback import FeedbackOperations
from core.store import class_sets as store
from core.store import tasks

if TYPE_CHECKING:
    from core.engine.freeform.class_set import Unmoved, Verdict

GRADES = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)
GROUPED_VERDICTS = {
    Correctness.WRONG: 0,
    Correctness.PARTIAL: 1,
    Correctness.UNKNOWN: 2,
    Correctness.CORRECT: 3,
}
"""The grouped order's verdicts: the answers a teacher most wants to read first."""
CSV_COLUMNS = ("answer", "verdict", "points", "achievable_points", "feedback", "graded_by")


@dataclass(frozen=True, slots=True)
class _State:
    """A set as it reads now: its task, its rows, and each judged answer's verdict."""

    row: store.SetRow
    task: FreeformTextTask
    ctx: EngineContext
    """The engine context with the set's grades among the graded answers."""
    digest: str
    answers: list[store.AnswerRow]
    judged: dict[int, Unmoved]
    """By position: the answers judged for the task's content as it now is."""
    found: dict[int, Verdict]

    def graded_by(self, answer: store.AnswerRow) -> GradedBy:
        if answer.grade is not None or (
            answer.position in self.found and self.found[answer.position].same_as_graded
        ):
            return GradedBy.AUTHOR
        return GradedBy.JUDGE if answer.position in self.found else GradedBy.NOT_JUDGED

    def verdict(self, answer: store.AnswerRow) -> tuple[Correctness | None, float | None]:
        if answer.position in self.found:
            found = self.found[answer.position]
            return found.verdict, found.points
        if answer.grade is not None:
            grade = Correctness(answer.grade)
            points = answer.grade_points
            if points is None:
                points = (
                    self.task.maxPoints
                    if grade is Correctness.CORRECT
                    else 0.0
                    if grade is Correctness.WRONG
                    else self.task.maxPoints / 2
                )
            return grade, points
        return None, None

    def feedback_key(self, answer: store.AnswerRow) -> str | None:
        verdict, points = self.verdict(answer)
        if answer.position not in self.found or verdict is None:
            return None
        return f"{self.digest}:{len(self.ctx.graded)}:{verdict.value}:{points}"

    def summary(self) -> ClassSet:
        counts = Counter(self.verdict(a)[0] for a in self.answers)
        return _summary(
            self.row,
            judged=len(self.judged),
            graded=sum(a.grade is not None for a in self.answers),
            verdicts=VerdictCounts(**{v.value: counts.get(v, 0) for v in (*GRADES, Correctness.UNKNOWN)}),
        )


def _summary(
    row: store.SetRow, judged: int = 0, graded: int = 0, verdicts: VerdictCounts | None = None
) -> ClassSet:
    return ClassSet(
        classSetId=row.id,
        tenantId=row.tenant_id,
        taskId=row.task_id,
        name=row.name,
        answerCount=row.answer_count,
        judgedCount=judged,
        gradedCount=graded,
        verdicts=verdicts,
        createdAt=row.created_at,
        updatedAt=row.updated_at,
    )


class ClassSetOperations:
    def __init__(self, caller: Caller, feedback: FeedbackOperations) -> None:
        self.caller = caller
        self.feedback = feedback

    # --- the set and its answers ------------------------------------------------------------------

    async def create_class_set(self, tenant_id: str, task_id: str, request: ClassSetCreate) -> ClassSet:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        await self._free_text_task(tenant, task_id)
        set_id = f"cs-{uuid7().hex}"
        row = await self.caller.runtime.db.run_write(
            lambda c: store.create_set(c, tenant, task_id, set_id, request.name.strip(), request.answers)
        )
        return _summary(row)

    async def add_class_set_answers(
        self, tenant_id: str, set_id: str, request: ClassSetAnswersAdd
    ) -> ClassSet:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)

        def add(connection: Connection) -> store.SetRow:
            row = self._row(connection, tenant, set_id)
            if row.answer_count + len(request.answers) > CLASS_SET_MAX_ANSWERS:
                raise InvalidParameter(
                    f"a class set holds at most {CLASS_SET_MAX_ANSWERS} answers; this one has "
                    f"{row.answer_count}, and {len(request.answers)} more would make {row.answer_count + len(request.answers)}"
                )
            store.add_answers(connection, set_id, request.answers)
            return self._row(connection, tenant, set_id)

        return _summary(await self.caller.runtime.db.run_write(add))

    async def list_class_sets(self, tenant_id: str, task_id: str | None = None) -> list[ClassSet]:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        rows = await self.caller.runtime.db.run_read(lambda c: store.list_sets(c, tenant, task_id))
        return [_summary(row, judged, graded) for row, judged, graded in rows]

    async def get_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        return (await self._state(tenant, set_id)).summary()

    async def delete_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)

        def remove(connection: Connection) -> store.SetRow:
            row = self._row(connection, tenant, set_id)
            store.delete_set(connection, tenant, set_id)
            return row

        return _summary(await self.caller.runtime.db.run_write(remove))

    # --- judging and grading ----------------------------------------------------------------------

    async def judge_class_set(self, tenant_id: str, set_id: str, request: ClassSetJudgeRequest) -> ClassSet:
        """Judges up to ``limit`` answers not judged for the task as it now is; the set as it then reads."""
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        state = await self._state(tenant, set_id)
        waiting = [a for a in state.answers if a.position not in state.judged][: request.limit]
        if waiting:
            await self._judge(state, waiting)
            state = await self._state(tenant, set_id)
        return state.summary()

    async def grade_class_set_answer(
        self, tenant_id: str, set_id: str, position: int, grade: ClassSetGrade | None
    ) -> ClassSet:
        """The teacher's grade of one answer (None takes it back); the set as it then reads."""
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        if grade is not None and grade.correctness not in GRADES:
            raise InvalidParameter("correctness: a grade is CORRECT, PARTIAL or WRONG")
        task = await self._free_text_task(tenant, (await self._read_row(tenant, set_id)).task_id)
        if grade is not None and grade.points is not None and grade.points > task.maxPoints:
            raise InvalidParameter(f"points: at most the task's maxPoints, {task.maxPoints}")

        def put(connection: Connection) -> bool:
            self._row(connection, tenant, set_id)
            return store.put_grade(
                connection,
                set_id,
                position,
                grade.correctness.value if grade else None,
                float(grade.points) if grade and grade.points is not None else None,
            )

        if not await self.caller.runtime.db.run_write(put):
            raise NotFound(f"class set {set_id!r} has no answer at position {position}")
        return (await self._state(tenant, set_id)).summary()

    async def class_set_answers(
        self, tenant_id: str, set_id: str, order: ClassSetOrder, offset: int = 0, limit: int = 50
    ) -> ClassSetPage:
        """A page of the set's answers in ``order``, with their verdicts and feedback. The grouped
        and review orders need every answer judged: those not judged yet are judged first."""
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        state = await self._state(tenant, set_id)
        if order is not ClassSetOrder.POSITION and len(state.judged) < len(state.answers):
            await self._judge(state, [a for a in state.answers if a.position not in state.judged])
            state = await self._state(tenant, set_id)
        positions, group_of = await asyncio.to_thread(_ordered, state, order)
        page = [state.answers[p] for p in positions[offset : offset + limit]]
        if order is ClassSetOrder.POSITION and any(a.position not in state.judged for a in page):
            await self._judge(state, [a for a in page if a.position not in state.judged])
            state = await self._state(tenant, set_id)
            page = [state.answers[a.position] for a in page]
        feedback = await self._feedback(state, page)
        sizes = Counter(group_of.values())
        return ClassSetPage(
            classSet=state.summary(),
            answers=[
                ClassSetAnswer(
                    position=a.position,
                    text=a.text,
                    gradedBy=state.graded_by(a),
                    verdict=state.verdict(a)[0],
                    points=state.verdict(a)[1],
                    achievablePoints=state.task.maxPoints,
                    group=group_of.get(a.position),
                    groupSize=sizes[group_of[a.position]] if a.position in group_of else None,
                    feedback=feedback.get(a.position, []),
                )
                for a in page
            ],
            offset=offset,
            total=len(positions),
        )

    async def export_class_set(self, tenant_id: str, set_id: str) -> str:
        """The judged set as CSV (one row per answer, as imported): every answer judged first."""
        page = await self.class_set_answers(
            tenant_id, set_id, ClassSetOrder.POSITION, 0, CLASS_SET_MAX_ANSWERS
        )
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for a in page.answers:
            writer.writerow(
                [
                    a.text,
                    a.verdict.value if a.verdict else "",
                    "" if a.points is None else f"{a.points:g}",
                    f"{a.achievablePoints:g}",
                    "\n".join(item.message for item in a.feedback),
                    a.gradedBy.value,
                ]
            )
        return out.getvalue()

    # --- helpers ----------------------------------------------------------------------------------

    async def _free_text_task(self, tenant: str, task_id: str) -> FreeformTextTask:
        task = (await self.caller.stored_task(tenant, task_id)).task
        if task.task_type is not TaskType.FREEFORM_TEXT or not isinstance(task, FreeformTextTask):
            raise InvalidParameter(
                f"task {task_id!r} is a {task.task_type.value} task; class sets are for free-text tasks "
                "(the other types judge each answer by its choices, with nothing to learn from grades)"
            )
        return task

    def _row(self, connection: Connection, tenant: str, set_id: str) -> store.SetRow:
        row = store.read_set(connection, tenant, set_id)
        if row is None:
            raise _no_set(tenant, set_id)
        return row

    async def _read_row(self, tenant: str, set_id: str) -> store.SetRow:
        return await self.caller.runtime.db.run_read(lambda c: self._row(c, tenant, set_id))

    async def _state(self, tenant: str, set_id: str) -> _State:
        row, answers = await self.caller.runtime.db.run_read(
            lambda c: (self._row(c, tenant, set_id), store.read_answers(c, set_id))
        )
        found = await self.feedback.stored_context(tenant, row.task_id)
        if found is None:  # the set goes with its task; deleted between the two reads
            raise _no_set(tenant, set_id)
        task, engine_ctx = found
        if not isinstance(task, FreeformTextTask):
            raise InvalidParameter(f"task {row.task_id!r} is no longer a free-text task")
        digest = tasks.task_hash(task)
        grades = tuple(
            GradedExample({"content": a.text}, Correctness(a.grade), a.grade_points)
            for a in answers
            if a.grade is not None
        )
        ctx = replace(
            engine_ctx,
            graded=engine_ctx.graded + grades,
            cache_key=(engine_ctx.cache_key, set_id, row.grades),
        )
        # The engine's numpy and text tools load on first use, not with the service (start-up).
        from core.engine.freeform.class_set import Unmoved, verdicts

        judged = {
            a.position: Unmoved.stored(a.basis, a.verdict, a.score or 0.0, a.probability or 0.0, a.vector)
            for a in answers
            if a.judged_for == digest and a.basis and a.verdict and a.vector is not None
        }
        state = _State(row, task, ctx, digest, answers, judged, {})
        if judged:
            await self.caller.runtime.text_models()
            positions = sorted(judged)
            moved = await asyncio.to_thread(verdicts, task, ctx, [judged[p] for p in positions])
            state.found.update(zip(positions, moved, strict=True))
        return state

    async def _judge(self, state: _State, waiting: Sequence[store.AnswerRow]) -> None:
        """Judges the waiting answers; a text the set has judged already (a class repeats "I don't
        know", and copies) is judged once."""
        from core.engine.freeform.class_set import judge_answers

        await self.caller.runtime.text_models()
        known = {state.answers[p].text: unmoved for p, unmoved in state.judged.items()}
        new = list(dict.fromkeys(a.text for a in waiting if a.text not in known))
        # Judged without the set's own grades: what is kept must not depend on them (a grade then
        # moves the verdicts without judging again); the task's graded answers do not count either.
        bare = replace(state.ctx, graded=(), cache_key=(state.digest, "unmoved"))
        known.update(zip(new, await asyncio.to_thread(judge_answers, state.task, new, bare), strict=True))
        judged = [
            store.Judged(a.position, k.basis.value, k.verdict.value, k.score, k.probability, k.vector_bytes)
            for a in waiting
            for k in (known[a.text],)
        ]
        await self.caller.runtime.db.run_write(
            lambda c: store.write_judged(c, state.row.id, state.digest, judged)
        )

    async def _feedback(
        self, state: _State, page: Sequence[store.AnswerRow]
    ) -> dict[int, list[FeedbackItem[TextSpan]]]:
        """The feedback of each answer of the page: as kept, or written again where what it was
        written for has moved (then kept)."""
        stale = [a for a in page if (key := state.feedback_key(a)) is not None and a.feedback_for != key]

        def write() -> list[tuple[int, list[Any], str]]:
            written = []
            for answer in stale:
                result = compute_result(state.task, FreeformTextAnswer(content=answer.text), state.ctx)
                key = state.feedback_key(answer)
                assert key is not None
                written.append((answer.position, [item.to_wire() for item in result.feedback], key))
            return written

        written = await asyncio.to_thread(write) if stale else []
        if written:
            await self.caller.runtime.db.run_write(lambda c: store.write_feedback(c, state.row.id, written))
        kept = {a.position: a.feedback or [] for a in page if a.feedback_for == state.feedback_key(a)}
        kept.update({position: items for position, items, _ in written})
        return {p: [FeedbackItem[TextSpan].model_validate(i) for i in items] for p, items in kept.items()}


def _ordered(state: _State, order: ClassSetOrder) -> tuple[list[int], dict[int, int]]:
    """The positions in ``order``, and the group of each judged answer (grouped order only)."""
    from core.engine.freeform.class_set import groups, review_order

    if order is ClassSetOrder.POSITION:
        return [a.position for a in state.answers], {}
    judged = sorted(state.found)
    if order is ClassSetOrder.REVIEW:
        grades = [i for i, p in enumerate(judged) if state.answers[p].grade]
        unmoved = [state.judged[p] for p in judged]
        found = [state.found[p] for p in judged]
        picks = review_order(unmoved, found, grades, len(judged))
        return [judged[i] for i in picks], {}
    numbers = groups([state.judged[p] for p in judged], [state.found[p].verdict for p in judged])
    group_of = dict(zip(judged, numbers, strict=True))
    positions = sorted(judged, key=lambda p: (GROUPED_VERDICTS[state.found[p].verdict], group_of[p], p))
    return positions, group_of


def _no_set(tenant: str, set_id: str) -> NotFound:
    return NotFound(f"class set {set_id!r} does not exist in tenant {tenant!r} (deleted, or its task was)")
