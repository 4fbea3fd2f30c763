"""Tutors and chat in the local service (API.md 2.8, 6).

A chat turn runs in three steps. *Prepare* reads the tutor, the conversation and the task and
checks every permission and session rule, so that anything wrong is raised before the first event
(the server answers it as a plain JSON error). *Stream* runs the engine behind the leak guard and
forwards its pieces as they come. *Record* stores the learner's message, the reply, the new state
and the trace in one transaction, and only then names the trace: a TRACE event always points at
a stored trace.

A turn whose engine failed is still a turn: an LLM engine whose model fails hands the learner the
offline engine's reply after a note (a :class:`~core.tutor.base.Failed` output), and the turn is
recorded as any other, its trace naming the failure. Any other failure (an engine's bug, a reply
without text) is recorded too, the learner's message kept, and becomes an ERROR event and the end
of the stream (raised instead when nothing was yielded yet).

The server's stream route asks for the stream to open at once (:func:`opening_at_once`): the first
event is then :data:`STREAM_OPENED`, yielded as soon as the turn is prepared (its errors raised),
before the engine's first text, so the response's headers need not wait for a language model.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import aclosing, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from sqlalchemy import Connection, Row

from core.api import (
    SERVER_ID_PREFIX,
    ChatRequest,
    ChatResponse,
    ChatTurn,
    InternalError,
    InvalidParameter,
    Language,
    MissingPermissions,
    NotFound,
    SimulationTask,
    TaskBase,
    TraceRating,
    TraceRatingResponse,
    TutorConfiguration,
    TutorEvent,
    TutorEventType,
    TutorUpsert,
    check_client_id,
    parse_task,
)
from core.auth import Permission
from core.config import Settings
from core.service.caller import Caller
from core.service.simulation import FINISHED, SimulationOperations, check_session_open
from core.store import conversations, tasks
from core.store import models as m
from core.tutor.base import (
    Boundary,
    Debug,
    EngineFailure,
    Failed,
    NewState,
    Piece,
    Turn,
    TutorEngine,
    sentences_of,
)

log = logging.getLogger(__name__)
HEALTH_TUTOR = "healthcheck"

STREAM_OPENED = TutorEvent.message("")
"""The first event of a stream opened at once: an empty MESSAGE (it fits the stream's order and
adds no text); the server sends it as an SSE comment."""

_OPEN_AT_ONCE: ContextVar[bool] = ContextVar("open_at_once", default=False)


@contextmanager
def opening_at_once() -> Iterator[None]:
    """Within it, a chat stream's first step yields :data:`STREAM_OPENED` once the turn is
    prepared, instead of waiting for the engine's first text (the server's stream route)."""
    token = _OPEN_AT_ONCE.set(True)
    try:
        yield
    finally:
        _OPEN_AT_ONCE.reset(token)


def engine_for(tutor: TutorConfiguration, task: TaskBase | None, settings: Settings) -> TutorEngine:
    """The tutor engine of a turn. The engines (and the language tools under them) are imported on
    the first turn, not with the service: a starting app lists its tasks about 0.1 s sooner."""
    from core.tutor.engines import engine_for as build

    return build(tutor, task, settings)


@dataclass
class Prepared:
    """Everything a turn needs, read and checked before the first event."""

    tenant: str
    tutor: TutorConfiguration
    task: TaskBase | None
    conversation_id: str
    existing: bool
    history: list[ChatTurn]
    message: str
    language: Language
    engine: TutorEngine
    user_id: str
    state: dict[str, Any] = field(default_factory=dict)
    last_turn_note: str | None = None
    """The closing message when this turn uses up a simulation's turns."""


@dataclass(frozen=True)
class TurnRead:
    """What a turn read from the store (TutorOperations._read_turn)."""

    tenant: str
    tutor: TutorConfiguration
    task: TaskBase | None
    stored: Row[Any] | None
    conversation_id: str
    history: list[ChatTurn]


@dataclass
class Reply:
    messages: list[str] = field(default_factory=lambda: [""])
    debug: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None
    first_ms: float | None = None
    failure: dict[str, Any] | None = None
    """What failed in this turn ({kind, reason, …}), for the trace."""
    answered_by: str | None = None
    """The offline engine that answered when the turn's engine failed."""


RECENT_REPLIES = 4
"""The tutor's replies the leak guard reads with a new one: a solution handed out piece by piece
is told within a few turns, and judging a long conversation whole would slow every reply."""

RECENT_ATTEMPTS = 20
"""The learner's messages the leak guard reads to know which concepts the learner has shown (the
tutor may say those back): enough for any real conversation, bounded for a very long one."""


def _write_tutor(tenant: str, tutor_id: str, body: TutorUpsert, connection: Connection) -> Row[Any]:
    """A tutor's write job: the task it is about must exist in its tenant."""
    if body.taskId and tasks.read_revision(connection, tenant, body.taskId) is None:
        raise InvalidParameter(f"task {body.taskId!r} does not exist in tenant {tenant!r}")
    return conversations.write_tutor(connection, tenant, tutor_id, body.to_wire())


def configuration(row: Row[Any]) -> TutorConfiguration:
    return TutorConfiguration.model_validate({**row.config, "id": row.id, "tenantId": row.tenant_id})


class TutorOperations:
    def __init__(self, caller: Caller, simulations: SimulationOperations) -> None:
        self.caller = caller
        self.simulations = simulations

    # --- configurations -------------------------------------------------------------------------

    async def get_tutor(self, tutor_id: str, tenant_id: str | None = None) -> TutorConfiguration:
        row = await self.caller.runtime.db.run_read(
            partial(self._tutor_row, tutor_id=tutor_id, tenant_id=tenant_id)
        )
        return configuration(row)

    def _tutor_row(
        self, connection: Connection, tutor_id: str, tenant_id: str | None, conversation_id: str | None = None
    ) -> Row[Any]:
        """The caller's tutor of this id. Each tenant names its own tutors, so the tenant decides
        which one is meant: the tenant named, else the one tenant among those the caller may access
        that has both the tutor and the conversation named, else the caller's default tenant if it
        has the tutor, else the one such tenant that has it. Another tenant's tutor is never the
        answer; its existence is told only as API.md asks (403, no access to its tenant)."""
        if tenant_id is not None:
            tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
            row = conversations.read_tutor(connection, tenant, tutor_id)
            if row is None:
                raise NotFound(f"tutor {tutor_id!r} does not exist in tenant {tenant!r}")
            return row
        principal = self.caller.principal
        owners = conversations.tutor_tenants(connection, tutor_id)
        mine = [t for t in owners if principal.can(t, Permission.ACCESS)]
        if len(mine) > 1 and conversation_id:  # a conversation goes on in its own tenant
            holding = conversations.holding_tenants(connection, conversation_id, mine)
            if len(holding) == 1:
                mine = holding
        if len(mine) > 1 and principal.default_tenant in mine:
            mine = [principal.default_tenant]
        if len(mine) > 1:
            raise InvalidParameter(
                f"tutor {tutor_id!r} exists in the tenants {', '.join(map(repr, mine))}; "
                "name one (tenantId; in a chat: context.tenantId)"
            )
        if not mine:
            if owners:
                raise MissingPermissions(f"no access to the tenant of tutor {tutor_id!r}")
            raise NotFound(f"tutor {tutor_id!r} does not exist")
        row = conversations.read_tutor(connection, mine[0], tutor_id)
        if row is None:  # deleted between the two reads
            raise NotFound(f"tutor {tutor_id!r} does not exist")
        return row

    async def list_tutors(self, tenant_id: str) -> list[TutorConfiguration]:
        tenant = self.caller.tenant(tenant_id, Permission.ACCESS)
        rows = await self.caller.runtime.db.run_read(partial(conversations.list_tutors, tenant_id=tenant))
        return [configuration(r) for r in rows]

    async def put_tutor(self, tenant_id: str, tutor_id: str, body: TutorUpsert) -> TutorConfiguration:
        tenant = self.caller.tenant(tenant_id, Permission.WRITE)
        if not tutor_id.strip() or "/" in tutor_id or len(tutor_id) > 200 or tutor_id == HEALTH_TUTOR:
            raise InvalidParameter(
                f"a tutor id needs 1 to 200 characters, no '/', and must not be {HEALTH_TUTOR!r} "
                "(GET /tutor/healthcheck is the health check)"
            )
        if body.engine == "llm" and not self.caller.runtime.settings.llm_base_url:
            raise InvalidParameter(
                "engine 'llm' needs a model server, and none is configured "
                "(FEEDBACK_STUDIO_LLM_BASE_URL): choose 'grounded', or configure the server first"
            )
        check_client_id("tutor", tutor_id)
        return configuration(
            await self.caller.runtime.db.run_write(partial(_write_tutor, tenant, tutor_id, body))
        )

    # --- chat -----------------------------------------------------------------------------------

    async def chat(self, request: ChatRequest) -> ChatResponse:
        async with aclosing(self.chat_stream(request)) as events:
            return await collect(events, request.debugMode)

    async def chat_stream(self, request: ChatRequest) -> AsyncGenerator[TutorEvent, None]:
        prepared = await self._prepare_turn(request)
        opened = _OPEN_AT_ONCE.get()
        if opened:
            yield STREAM_OPENED
        # Closed with this generator, not left to the garbage collector: its engine may hold an
        # open request to a language model (see core.server.routers.tutor).
        turn = self._stream_turn(prepared, request.to_wire(), request.debugMode, opened=opened)
        async with aclosing(turn) as events:
            async for event in events:
                yield event

    async def healthcheck_chat(self) -> ChatResponse:
        """A real round trip through the configured engine; any failure is an InternalError (500)."""
        tenant = self.caller.tenant(None, Permission.ACCESS)
        language = Language.EN_US
        text = self.caller.runtime.catalogue.text(language, "tutor.healthcheck_message")
        tutor = TutorConfiguration(id=HEALTH_TUTOR, name="health check", tenantId=tenant)
        prepared = Prepared(
            tenant=tenant,
            tutor=tutor,
            task=None,
            conversation_id="",
            existing=False,
            history=[],
            message=text,
            language=language,
            engine=engine_for(tutor, None, self.caller.runtime.settings),
            user_id=self.caller.principal.id,
        )
        request = {"messages": [{"role": "user", "content": text}], "tutorId": HEALTH_TUTOR}
        # A probe, not a conversation: nothing is recorded, so the response's traceId is empty;
        # an engine that failed is a failed check, whoever answered in its place.
        async with aclosing(self._stream_turn(prepared, request, debug_mode=True, record=False)) as events:
            return await collect(events, debug_mode=True)

    async def rate_trace(self, trace_id: str, rating: TraceRating) -> TraceRatingResponse:
        await self.caller.runtime.db.run_write(partial(self._rate_trace, trace_id, rating))
        return TraceRatingResponse(success=True, message=f"rating of trace {trace_id!r} saved")

    def _rate_trace(self, trace_id: str, rating: TraceRating, connection: Connection) -> None:
        tenant = conversations.trace_tenant(connection, trace_id)
        if tenant is None:
            raise NotFound(f"trace {trace_id!r} does not exist")
        self.caller.principal.require(tenant, Permission.ACCESS)
        conversations.put_trace_rating(connection, trace_id, rating.score, rating.comment)

    async def _prepare_turn(self, request: ChatRequest) -> Prepared:
        if request.messages[-1].role != "user":
            raise InvalidParameter("the last message must be the learner's (role 'user')")
        await self.caller.runtime.text_models()  # the tutor reads the learner's words
        read = await self.caller.runtime.db.run_read(partial(self._read_turn, request))
        tutor, task, stored = read.tutor, read.task, read.stored
        language = task.language if task else tutor.language or Language.EN_US
        return Prepared(
            tenant=read.tenant,
            tutor=tutor,
            task=task,
            conversation_id=read.conversation_id,
            existing=stored is not None,
            history=read.history,
            message=request.messages[-1].content,
            language=language,
            engine=engine_for(tutor, task, self.caller.runtime.settings),
            user_id=request.userId or self.caller.principal.id,
            state=dict(stored.state.get("engine", {})) if stored else {},
            last_turn_note=self.simulations.closing_note(stored, task, language),
        )

    def _read_turn(self, request: ChatRequest, connection: Connection) -> TurnRead:
        """What a turn reads, checked: the tutor, the conversation and its history, the task."""
        named_tenant = request.context.tenantId if request.context else None
        # The tutor's tenant is the conversation's: each tenant names its own conversations.
        row = self._tutor_row(connection, request.tutorId, named_tenant, request.conversationId)
        tenant = row.tenant_id
        tutor = configuration(row)
        stored = None
        if request.conversationId:
            stored = conversations.read_conversation(connection, tenant, request.conversationId)
        conversation_id = request.conversationId or str(uuid.uuid4())
        if stored is None and conversation_id.startswith(SERVER_ID_PREFIX):
            raise NotFound(
                f"simulation session {conversation_id!r} does not exist; start one with POST /simulation/start"
            )
        if stored is not None:
            self._check_conversation(stored, tutor.id)
            history = [
                ChatTurn(role=r.role, content=r.content)
                for r in conversations.read_messages(connection, tenant, conversation_id)
            ]
            task_id = stored.task_id
        else:
            history = [ChatTurn(role=t.role, content=t.content) for t in request.messages[:-1]]
            task_id = (request.context.taskId if request.context else None) or tutor.taskId
        task = self._bound_task(connection, tenant, task_id)
        if stored is None and isinstance(task, SimulationTask):
            raise NotFound(
                f"simulation session {conversation_id!r} does not exist; start one with POST /simulation/start"
            )
        return TurnRead(tenant, tutor, task, stored, conversation_id, history)

    def _check_conversation(self, stored: Row[Any], tutor_id: str) -> None:
        if stored.tutor_id != tutor_id:
            raise InvalidParameter(
                f"conversation {stored.id!r} is held with tutor {stored.tutor_id!r}, not {tutor_id!r}"
            )
        check_session_open(stored)

    def _bound_task(self, connection: Connection, tenant: str, task_id: str | None) -> TaskBase | None:
        if not task_id:
            return None
        row = tasks.read_task(connection, tenant, task_id)
        if row is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        return parse_task(row.definition)

    async def _stream_turn(
        self,
        prepared: Prepared,
        request: dict[str, Any],
        debug_mode: bool,
        *,
        record: bool = True,
        opened: bool = False,
    ) -> AsyncGenerator[TutorEvent, None]:
        """The turn's events. ``record`` False is the health check's probe: nothing is stored, and
        an engine that failed (even with a reply in its place) is an error. ``opened``: an event
        was yielded before this turn's, so a failure is an ERROR event, never raised."""
        started = time.perf_counter()
        turn = Turn(
            tutor=prepared.tutor,
            task=prepared.task,
            history=tuple(prepared.history),
            message=prepared.message,
            language=prepared.language,
            catalogue=self.caller.runtime.catalogue,
            state=prepared.state,
        )
        from core.tutor.leak_guard import LeakGuard, guarded  # see engine_for: loaded on first use

        said_before = [t.content for t in prepared.history if t.role == "assistant"][-RECENT_REPLIES:]
        learner = [t.content for t in prepared.history if t.role == "user"][-RECENT_ATTEMPTS:]
        learner_said = [*learner, turn.message]
        guard = LeakGuard.for_task(prepared.task, prepared.language, said_before, learner_said)
        outputs = guarded(prepared.engine.reply(turn), guard, turn.text("tutor.safe_hint"))
        reply = Reply()
        try:
            async for output in outputs:
                if isinstance(output, Piece):
                    if reply.first_ms is None:
                        reply.first_ms = round((time.perf_counter() - started) * 1000, 3)
                    reply.messages[-1] += output.text
                    yield TutorEvent.message(output.text)
                elif isinstance(output, Boundary):
                    reply.messages.append("")
                    yield TutorEvent.boundary()
                elif isinstance(output, Debug):
                    reply.debug.append(output.entry)
                elif isinstance(output, NewState):
                    reply.state = output.state
                elif isinstance(output, Failed):
                    reply.failure = {"kind": output.kind, "reason": output.reason}
                    if output.retry_after is not None:
                        reply.failure["retryAfterSeconds"] = output.retry_after
                    reply.answered_by = output.answered_by
                    self._log_fallback(output, prepared)
                    if not record:
                        raise EngineFailure(output.reason, kind=output.kind)
            if not any(text.strip() for text in reply.messages):
                raise EngineFailure("the tutor's reply has no text", kind="empty")
        except Exception as exc:
            error = self._engine_error(exc, prepared)
            if record:
                failure = exc if isinstance(exc, EngineFailure) else EngineFailure("an internal error")
                reply.failure = {"kind": failure.kind, "reason": str(failure), "error": error.message}
                await self._record_failed_turn(prepared, request, reply, started)
            if reply.first_ms is None and not opened:
                raise error from None
            yield TutorEvent(event=TutorEventType.ERROR, text=error.message)
            return
        finally:
            await outputs.aclose()
        if prepared.last_turn_note:
            yield TutorEvent.boundary()
            reply.messages.append(prepared.last_turn_note)
            for piece in sentences_of(prepared.last_turn_note):
                yield TutorEvent.message(piece)
        if record:
            trace_id = await self._record_turn(prepared, request, reply, started)
            yield TutorEvent(event=TutorEventType.TRACE, text=trace_id)
        if debug_mode:
            yield TutorEvent.model_validate(
                {"event": TutorEventType.DEBUG, "text": "debug", "list": reply.debug}
            )
        yield TutorEvent.done()

    def _log_fallback(self, failed: Failed, prepared: Prepared) -> None:
        log.warning(
            "tutor engine %s failed (%s: %s); the %s engine answered (tutor %s)",
            prepared.engine.name,
            failed.kind,
            failed.reason,
            failed.answered_by,
            prepared.tutor.id,
        )

    def _engine_error(self, exc: Exception, prepared: Prepared) -> InternalError:
        error_id = uuid.uuid4().hex[:12]
        reason = str(exc) if isinstance(exc, EngineFailure) else "an internal error"
        log.error(
            "tutor engine %s failed (error id %s, tutor %s)",
            prepared.engine.name,
            error_id,
            prepared.tutor.id,
            exc_info=exc,
        )
        return InternalError(
            self.caller.runtime.catalogue.text(
                prepared.language, "tutor.engine_failed", reason=reason, error_id=error_id
            )
        )

    async def _record_failed_turn(
        self, prepared: Prepared, request: dict[str, Any], reply: Reply, started: float
    ) -> None:
        """A failed turn is kept: the learner's message, what they were shown, the trace with the
        failure; the conversation's state stays, and a simulation's last turn is not used up."""
        prepared = replace(prepared, last_turn_note=None)
        reply.state = None
        try:
            await self._record_turn(prepared, request, reply, started)
        except Exception:  # the store failing too: the ERROR still goes out, and the log has both
            log.exception("the failed turn of tutor %s could not be recorded", prepared.tutor.id)

    async def _record_turn(
        self, prepared: Prepared, request: dict[str, Any], reply: Reply, started: float
    ) -> str:
        """Store the turn in one write job of the store's writer; the trace's id once committed."""
        trace_id = str(uuid.uuid4())
        messages = [text for text in reply.messages if text]
        trace = dict(
            id=trace_id,
            tenant_id=prepared.tenant,
            conversation_id=prepared.conversation_id or None,
            tutor_id=prepared.tutor.id,
            engine=prepared.engine.name,
            request=request,
            reply={
                "messages": messages,
                **({"failure": reply.failure} if reply.failure else {}),
                **({"answeredBy": reply.answered_by} if reply.answered_by else {}),
            },
            debug=reply.debug,
            timings={
                "firstMessageMs": reply.first_ms,
                "totalMs": round((time.perf_counter() - started) * 1000, 3),
            },
            created_at=m.utcnow(),
        )
        await self.caller.runtime.db.run_write(partial(_write_turn, prepared, reply, messages, trace))
        return trace_id


def _write_turn(
    prepared: Prepared, reply: Reply, messages: list[str], trace: dict[str, Any], connection: Connection
) -> None:
    """A turn's write job: the conversation (created by its first turn, with the history that turn
    brought), the learner's message and the replies, the new state, and the trace."""
    if prepared.conversation_id:
        conversation = _conversation_for(connection, prepared)
        conversations.record_turn(
            connection,
            conversation,
            [("user", prepared.message), *(("assistant", text) for text in messages)],
            state={**conversation.state, "engine": reply.state or prepared.state},
            status=FINISHED if prepared.last_turn_note else conversation.status,
        )
    conversations.add_trace(connection, trace)


def _conversation_for(connection: Connection, prepared: Prepared) -> Row[Any]:
    """The turn's conversation, its row locked for the job."""
    if prepared.existing:
        stored = conversations.lock_conversation(connection, prepared.tenant, prepared.conversation_id)
        if stored is None:
            raise NotFound(f"conversation {prepared.conversation_id!r} was deleted meanwhile")
        return stored
    conversation, created = conversations.open_conversation(
        connection,
        conversation_id=prepared.conversation_id,
        tenant_id=prepared.tenant,
        tutor_id=prepared.tutor.id,
        user_id=prepared.user_id,
        task_id=prepared.task.id if prepared.task else None,
    )
    if created:  # a concurrent first turn that lost the race finds its history already stored
        conversations.append_messages(
            connection,
            prepared.tenant,
            prepared.conversation_id,
            [(t.role, t.content) for t in prepared.history],
        )
    return conversation


async def collect(events: AsyncIterator[TutorEvent], debug_mode: bool) -> ChatResponse:
    """A whole reply from its events (POST /tutor/chat is the stream, gathered)."""
    messages = [""]
    debug: list[dict[str, Any]] = []
    trace_id = ""
    async for event in events:
        if event.event is TutorEventType.MESSAGE:
            messages[-1] += event.text
        elif event.event is TutorEventType.BOUNDARY:
            messages.append("")
        elif event.event is TutorEventType.TRACE:
            trace_id = event.text
        elif event.event is TutorEventType.DEBUG:
            debug = event.items or []
        elif event.event is TutorEventType.ERROR:
            raise InternalError(event.text)
    texts = [text for text in messages if text]
    return ChatResponse(
        message="\n\n".join(texts), messages=texts, debugLogs=debug if debug_mode else [], traceId=trace_id
    )
