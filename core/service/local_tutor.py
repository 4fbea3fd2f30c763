"""The tutor and simulation operations of LocalService (API.md 2.8, 2.9, 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.api import ChatTurn, MissingPermissions, NotFound
from core.store import conversations

if TYPE_CHECKING:
    from core.auth import Principal
    from core.service.runtime import Runtime


class TutorOperations:
    runtime: Runtime
    principal: Principal

    async def simulation_transcript(self, tenant: str, conversation_id: str) -> tuple[ChatTurn, ...]:
        """The stored turns of a session, for feedback on a simulation answered by conversationId."""
        async with self.runtime.db.read() as session:
            conversation = await conversations.get_conversation(session, conversation_id)
            if conversation is None:
                raise NotFound(f"conversation {conversation_id!r} does not exist")
            if conversation.tenant_id != tenant:
                raise MissingPermissions(f"conversation {conversation_id!r} belongs to another tenant")
            rows = await conversations.list_messages(session, conversation_id)
        return tuple(ChatTurn(role=r.role, content=r.content) for r in rows)
