"""Tutor conversations (chat and simulation sessions), their messages, traces and trace ratings,
and tutor configurations."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, insert, select, update

from core.api import InvalidParameter
from core.store import models as m
from core.store.common import insert_for
from core.store.writer import insert_at_commit

_tables = m.Base.metadata.tables
_conversations = _tables[m.Conversation.__tablename__]
_messages = _tables[m.ConversationMessage.__tablename__]
_traces = _tables[m.Trace.__tablename__]
_trace_ratings = _tables[m.TraceRating.__tablename__]
_tutors = _tables[m.Tutor.__tablename__]


_BY_KEY = (_conversations.c.tenant_id == bindparam("key_tenant_id")) & (
    _conversations.c.id == bindparam("key_id")
)
_READ = select(_conversations).where(_BY_KEY)
_LOCK = _READ.with_for_update()
_RECORD_TURN = (
    update(_conversations)
    .where(_BY_KEY)
    .values(
        state=bindparam("new_state"),
        status=bindparam("new_status"),
        turns=_conversations.c.turns + 1,
        updated_at=bindparam("new_updated_at"),
    )
)
"""A turn's statements, built once (building one costs about as much as running it); the
conversation's key is bound under names of its own, since an UPDATE keeps its columns' names."""


def _key(tenant_id: str, conversation_id: str) -> dict[str, str]:
    return {"key_tenant_id": tenant_id, "key_id": conversation_id}


def read_conversation(connection: Connection, tenant_id: str, conversation_id: str) -> Row[Any] | None:
    """The tenant's conversation of this id (each tenant names its own conversations)."""
    return connection.execute(_READ, _key(tenant_id, conversation_id)).first()


def lock_conversation(connection: Connection, tenant_id: str, conversation_id: str) -> Row[Any] | None:
    """The tenant's conversation of this id, its row locked for the rest of the transaction (a
    turn's write job reads its state and count of turns)."""
    return connection.execute(_LOCK, _key(tenant_id, conversation_id)).first()


def holding_tenants(connection: Connection, conversation_id: str, among: Sequence[str]) -> list[str]:
    """Which of the tenants `among` hold a conversation of this id (never asks about any other)."""
    return list(
        connection.execute(
            select(_conversations.c.tenant_id)
            .where((_conversations.c.id == conversation_id) & _conversations.c.tenant_id.in_(among))
            .order_by(_conversations.c.tenant_id)
        ).scalars()
    )


def open_conversation(
    connection: Connection,
    *,
    conversation_id: str,
    tenant_id: str,
    tutor_id: str,
    user_id: str,
    task_id: str | None,
    kind: str = "chat",
    state: dict[str, Any] | None = None,
    expires_at: datetime | None = None,
) -> tuple[Row[Any], bool]:
    """A new conversation of the tenant, or the one a concurrent request just created under the
    same id, its row locked; and whether this call created it (only the creator stores the
    history the first turn brought).

    Clients choose conversation ids, so two first turns may arrive at once: INSERT … ON CONFLICT
    DO NOTHING lets exactly one create it, and every caller gets the row locked for its turn. A
    caller with another tutor is refused, never let into that conversation. Another tenant's
    conversation of the same id is another conversation and never meets this one.
    """
    now = m.utcnow()
    inserted = connection.execute(
        insert_for(connection, _conversations)
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
        .returning(_conversations.c.id)
    )
    created = inserted.first() is not None
    row = lock_conversation(connection, tenant_id, conversation_id)
    if row is None or row.tutor_id != tutor_id:
        raise InvalidParameter(f"conversation id {conversation_id!r} is taken; choose another")
    return row, created


_LAST_SEQ = select(func.coalesce(func.max(_messages.c.seq), 0)).where(
    (_messages.c.tenant_id == bindparam("tenant_id"))
    & (_messages.c.conversation_id == bindparam("conversation_id"))
)
_INSERT_MESSAGE = insert(_messages)


def append_messages(
    connection: Connection, tenant_id: str, conversation_id: str, messages: Sequence[tuple[str, str]]
) -> None:
    """Append (role, content) pairs after the conversation's last message, keeping their order."""
    if not messages:
        return
    last = connection.execute(
        _LAST_SEQ, {"tenant_id": tenant_id, "conversation_id": conversation_id}
    ).scalar_one()
    now = m.utcnow()
    connection.execute(
        _INSERT_MESSAGE,
        [
            dict(
                tenant_id=tenant_id,
                conversation_id=conversation_id,
                seq=last + i,
                role=role,
                content=content,
                created_at=now,
            )
            for i, (role, content) in enumerate(messages, start=1)
        ],
    )


def read_messages(connection: Connection, tenant_id: str, conversation_id: str) -> list[Row[Any]]:
    """The conversation's messages in their order."""
    return list(
        connection.execute(
            select(_messages)
            .where((_messages.c.tenant_id == tenant_id) & (_messages.c.conversation_id == conversation_id))
            .order_by(_messages.c.seq)
        )
    )


def add_trace(connection: Connection, values: dict[str, Any]) -> None:
    """One trace row (nothing in its transaction reads it back: inserted with its batch's others)."""
    insert_at_commit(connection, _INSERT_TRACE, values)


_INSERT_TRACE = insert(_traces)
_TENANT_OF_TRACE = select(_traces.c.tenant_id).where(_traces.c.id == bindparam("id"))


def trace_tenant(connection: Connection, trace_id: str) -> str | None:
    """The tenant of a trace, or None if there is no such trace."""
    return connection.execute(_TENANT_OF_TRACE, {"id": trace_id}).scalar_one_or_none()


def put_trace_rating(connection: Connection, trace_id: str, score: int, comment: str | None) -> None:
    now = m.utcnow()
    stmt = insert_for(connection, _trace_ratings).values(
        trace_id=trace_id, score=score, comment=comment, created_at=now, updated_at=now
    )
    connection.execute(
        stmt.on_conflict_do_update(
            index_elements=["trace_id"], set_={"score": score, "comment": comment, "updated_at": now}
        )
    )


def read_tutor(connection: Connection, tenant_id: str, tutor_id: str) -> Row[Any] | None:
    return connection.execute(
        select(_tutors).where((_tutors.c.tenant_id == tenant_id) & (_tutors.c.id == tutor_id))
    ).first()


def tutor_tenants(connection: Connection, tutor_id: str) -> list[str]:
    """The tenants that have a tutor of this id (each tenant names its own tutors)."""
    return list(
        connection.execute(
            select(_tutors.c.tenant_id).where(_tutors.c.id == tutor_id).order_by(_tutors.c.tenant_id)
        ).scalars()
    )


def list_tutors(connection: Connection, tenant_id: str) -> list[Row[Any]]:
    """The tenant's tutors, by id."""
    return list(
        connection.execute(select(_tutors).where(_tutors.c.tenant_id == tenant_id).order_by(_tutors.c.id))
    )


def write_tutor(connection: Connection, tenant_id: str, tutor_id: str, config: dict[str, Any]) -> Row[Any]:
    """Create or replace the tenant's tutor of this id (keeping when it was first made); no other
    tenant's tutor is touched. The row as stored."""
    now = m.utcnow()
    stmt = insert_for(connection, _tutors).values(
        tenant_id=tenant_id, id=tutor_id, config=config, created_at=now, updated_at=now
    )
    return connection.execute(
        stmt.on_conflict_do_update(
            index_elements=["tenant_id", "id"], set_={"config": config, "updated_at": now}
        ).returning(_tutors)
    ).one()


def record_turn(
    connection: Connection,
    conversation: Row[Any],
    messages: Sequence[tuple[str, str]],
    *,
    state: dict[str, Any],
    status: str,
) -> None:
    """One learner turn with the reply: its messages, the new state, one more turn counted (the
    conversation's row locked by this transaction: lock_conversation, open_conversation)."""
    append_messages(connection, conversation.tenant_id, conversation.id, messages)
    connection.execute(
        _RECORD_TURN,
        {
            **_key(conversation.tenant_id, conversation.id),
            "new_state": state,
            "new_status": status,
            "new_updated_at": m.utcnow(),
        },
    )
