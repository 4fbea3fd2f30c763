"""Simulation sessions in the local service (API.md 2.9): a role-play with a persona, held as a
conversation with a tutor the server makes for the task, judged afterwards from its transcript.

A session is a conversation of kind ``simulation`` with an expiry; the turn that reaches the
task's ``maxTurns`` ends it with a closing message. The server names the session ``sim:<uuid>``
and its tutor ``sim:<task>``, in the session's tenant (each tenant names its own tutors); the
prefix is reserved (:data:`core.api.SERVER_ID_PREFIX`), so no client can make or shadow either.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Row

from core.api import (
    SERVER_ID_PREFIX,
    ChatTurn,
    InvalidParameter,
    Language,
    NotFound,
    SimulationSession,
    SimulationTask,
    StartSimulationRequest,
    TaskAction,
    TaskBase,
    TutorUpsert,
    check_task,
)
from core.auth import Permission
from core.service.caller import Caller
from core.store import conversations, tasks
from core.store import models as m

SIMULATION = "simulation"
"""The kind of a conversation that is a simulation session."""
FINISHED = "finished"


def simulation_tutor_id(task_id: str) -> str:
    """The tutor the server makes for a simulation task, in the tenant of the task."""
    return f"{SERVER_ID_PREFIX}{task_id}"


def check_session_open(stored: Row[Any]) -> None:
    """A finished or expired session takes no more turns; the error says what to do instead."""
    if stored.kind != SIMULATION:
        return
    if stored.status == FINISHED:
        raise InvalidParameter(
            f"simulation session {stored.id!r} is finished; ask for feedback with its conversationId "
            "or start a new session"
        )
    if stored.expires_at is not None and stored.expires_at <= m.utcnow():
        raise InvalidParameter(
            f"simulation session {stored.id!r} expired at {stored.expires_at.isoformat()}; "
            "ask for feedback with its conversationId or start a new session"
        )


class SimulationOperations:
    def __init__(self, caller: Caller) -> None:
        self.caller = caller

    async def start_simulation(self, request: StartSimulationRequest) -> SimulationSession:
        tenant = self.caller.tenant(request.tenantId, Permission.ACCESS)
        task = request.simulationTask
        check_task(task)
        minutes = task.timeLimitInMinutes or self.caller.runtime.settings.simulation_default_minutes
        started = m.utcnow()
        expires = started + timedelta(minutes=minutes)
        tutor_id = simulation_tutor_id(task.id)
        conversation_id = f"{SERVER_ID_PREFIX}{uuid.uuid4()}"
        user_id = request.userId or self.caller.principal.id
        initial = [task.initialMessage] if task.initialMessage else []
        tutor = TutorUpsert(
            name=task.display_title,
            description=task.scenarioDescription,
            initial_messages=initial,
            taskId=task.id,
            language=task.language,
        )
        messages = [("system", self.system_prompt(task)), *(("assistant", text) for text in initial)]

        def start(connection: Connection) -> None:
            """The session's write job: its task, its tutor, the conversation and its first messages."""
            action, _ = tasks.write_task(connection, tenant, task, author=self.caller.principal.name)
            if action is not TaskAction.UNCHANGED:
                self.caller.principal.require(tenant, Permission.WRITE)
            conversations.write_tutor(connection, tenant, tutor_id, tutor.to_wire())
            conversations.open_conversation(
                connection,
                conversation_id=conversation_id,
                tenant_id=tenant,
                tutor_id=tutor_id,
                user_id=user_id,
                task_id=task.id,
                kind=SIMULATION,
                expires_at=expires,
            )
            conversations.append_messages(connection, tenant, conversation_id, messages)

        await self.caller.runtime.db.run_write(start)
        return SimulationSession(
            id=conversation_id,
            conversationId=conversation_id,
            taskId=task.id,
            userId=user_id,
            tutorId=tutor_id,
            initialMessages=initial,
            startedAt=started,
            expiresAt=expires,
        )

    def system_prompt(self, task: SimulationTask) -> str:
        text = self.caller.runtime.catalogue.text
        persona = task.persona
        return text(
            task.language,
            "simulation.system_prompt",
            persona=persona.name if persona else text(task.language, "simulation.default_persona"),
            persona_description=persona.description if persona else "",
            scenario=task.scenarioDescription or task.problemStatement,
        )

    def closing_note(self, stored: Row[Any] | None, task: TaskBase | None, language: Language) -> str | None:
        """The message that ends a simulation whose turn limit this turn reaches."""
        if stored is None or not isinstance(task, SimulationTask) or not task.maxTurns:
            return None
        if stored.turns + 1 < task.maxTurns:
            return None
        text = self.caller.runtime.catalogue.text
        reason = text(language, "simulation.reason_turns", max_turns=task.maxTurns)
        return text(language, "simulation.session_finished", reason=reason)

    async def transcript(self, tenant: str, conversation_id: str) -> tuple[ChatTurn, ...]:
        """The learner-visible turns of a session (its system prompts left out), for its feedback.

        They are exactly what a client saw, so feedback on {messages} built from the chat equals
        feedback on {conversationId}, message indexes included. The id is read in the tenant of the
        feedback: another tenant's session of that id is not there, and is not told of.
        """

        def read(connection: Connection) -> list[Row[Any]]:
            if conversations.read_conversation(connection, tenant, conversation_id) is None:
                raise NotFound(f"conversation {conversation_id!r} does not exist in tenant {tenant!r}")
            return conversations.read_messages(connection, tenant, conversation_id)

        rows = await self.caller.runtime.db.run_read(read)
        return tuple(ChatTurn(role=r.role, content=r.content) for r in rows if r.role != "system")
