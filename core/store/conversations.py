"""Tutor conversations (chat and simulation sessions), their messages, traces and trace ratings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.api import InvalidParameter
from core.store import models as m
from core.store.common import insert_for


async def get_conversation(
    session: AsyncSession, tenant_id: str, conversation_id: str, *, lock: bool = False
) -> m.Conversation | None:
    """The tenant's conversation of this id (each tenant names its own conversations)."""
    stmt = select(m.Conversation).where(
        m.Conversation.tenant_id == tenant_id, m.Conversation.id == conversation_id
    )
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(stmt)).scalar_one_or_none()


async def tenants_holding_conversation(
    session: AsyncSession, conversation_id: str, among: Sequence[str]
) -> list[str]:
    """Which of the tenants `among` hold a conversation of this id (never asks about any other)."""
    return list(
        (
            await session.execute(
                select(m.Conversation.tenant_id)
                .where(m.Conversation.id == conversation_id, m.Conversation.tenant_id.in_(among))
                .order_by(m.Conversation.tenant_id)
            )
        ).scalars()
    )


async def create_conversation(
    session: AsyncSession,
    *,
    conversation_id: str,
    tenant_id: str,
    tutor_id: str,
    user_id: str,
    task_id: str | None,
    kind: str = "chat",
    state: dict[str, Any] | None = None,
    expires_at: datetime | None = None,
) -> tuple[m.Conversation, bool]:
    """A new conversation of the tenant, or the one a concurrent request just created under the
    same id; and whether this call created it (only the creator stores the history the first turn
    brought).

    Clients choose conversation ids, so two first turns may arrive at once: INSERT … ON CONFLICT
    DO NOTHING lets exactly one create it, and every caller gets the row locked for its turn. A
    caller with another tutor is refused, never let into that conversation. Another tenant's
    conversation of the same id is another conversation and never meets this one.
    """
    now = m.utcnow()
    inserted = await session.execute(
        insert_for(session, m.Conversation)
        .values(
            id=conversation_id,
            tenant_id=tenant_id,
            tutor_id=tutor_id,
            user_id=user_id,
            task_id=task_id,
            kind=kind,
            status="active",
            state=state or {},
            turns=0,
            started_at=now,
            expires_at=expires_at,
            updated_at=now,
        )
        .on_conflict_do_nothing(index_elements=["tenant_id", "id"])
        .returning(m.Conversation.id)
    )
    created = inserted.first() is not None
    row = await get_conversation(session, tenant_id, conversation_id, lock=True)
    if row is None or row.tutor_id != tutor_id:
        raise InvalidParameter(f"conversation id {conversation_id!r} is taken; choose another")
    return row, created


async def append_messages(
    session: AsyncSession, conversation: m.Conversation, messages: Sequence[tuple[str, str]]
) -> None:
    """Append (role, content) pairs after the conversation's last message, keeping their order."""
    last = (
        await session.execute(
            select(func.coalesce(func.max(m.ConversationMessage.seq), 0)).where(
                *_messages_of(conversation.tenant_id, conversation.id)
            )
        )
    ).scalar_one()
    now = m.utcnow()
    session.add_all(
        m.ConversationMessage(
            tenant_id=conversation.tenant_id,
            conversation_id=conversation.id,
            seq=last + i,
            role=role,
            content=content,
            created_at=now,
        )
        for i, (role, content) in enumerate(messages, start=1)
    )
    await session.flush()


async def list_messages(
    session: AsyncSession, tenant_id: str, conversation_id: str
) -> list[m.ConversationMessage]:
    return list(
        (
            await session.execute(
                select(m.ConversationMessage)
                .where(*_messages_of(tenant_id, conversation_id))
                .order_by(m.ConversationMessage.seq)
            )
        ).scalars()
    )


def _messages_of(tenant_id: str, conversation_id: str) -> tuple[ColumnElement[bool], ...]:
    """The WHERE clauses of one conversation's messages."""
    return (
        m.ConversationMessage.tenant_id == tenant_id,
        m.ConversationMessage.conversation_id == conversation_id,
    )


async def add_trace(session: AsyncSession, row: m.Trace) -> None:
    session.add(row)


async def get_trace(session: AsyncSession, trace_id: str) -> m.Trace | None:
    return await session.get(m.Trace, trace_id)


async def put_trace_rating(session: AsyncSession, trace_id: str, score: int, comment: str | None) -> None:
    now = m.utcnow()
    stmt = insert_for(session, m.TraceRating).values(
        trace_id=trace_id, score=score, comment=comment, created_at=now, updated_at=now
    )
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=["trace_id"], set_={"score": score, "comment": comment, "updated_at": now}
        )
    )


async def get_tutor(session: AsyncSession, tenant_id: str, tutor_id: str) -> m.Tutor | None:
    return await session.get(m.Tutor, (tenant_id, tutor_id))


async def tenants_of_tutor(session: AsyncSession, tutor_id: str) -> list[str]:
    """The tenants that have a tutor of this id (each tenant names its own tutors)."""
    return list(
        (
            await session.execute(
                select(m.Tutor.tenant_id).where(m.Tutor.id == tutor_id).order_by(m.Tutor.tenant_id)
            )
        ).scalars()
    )


async def list_tutors(session: AsyncSession, tenant_id: str) -> list[m.Tutor]:
    return list(
        (
            await session.execute(select(m.Tutor).where(m.Tutor.tenant_id == tenant_id).order_by(m.Tutor.id))
        ).scalars()
    )


async def put_tutor(session: AsyncSession, tenant_id: str, tutor_id: str, config: dict[str, Any]) -> m.Tutor:
    """Create or replace the tenant's tutor of this id; no other tenant's tutor is touched."""
    now = m.utcnow()
    row = await get_tutor(session, tenant_id, tutor_id)
    if row is None:
        row = m.Tutor(id=tutor_id, tenant_id=tenant_id, config=config, created_at=now, updated_at=now)
        session.add(row)
    else:
        row.config = config
        row.updated_at = now
    await session.flush()
    return row


async def record_turn(
    session: AsyncSession,
    conversation: m.Conversation,
    messages: Sequence[tuple[str, str]],
    *,
    state: dict[str, Any],
    status: str,
) -> None:
    """One learner turn with the reply: its messages, the new state, one more turn counted."""
    await append_messages(session, conversation, messages)
    conversation.state = state
    conversation.status = status
    conversation.turns += 1
    conversation.updated_at = m.utcnow()
    await session.flush()
