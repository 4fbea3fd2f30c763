"""Teachers' verdicts on interactions (one per interaction), in place of the engine's.

Kept in a table of their own so that the interaction stays exactly as it was computed; the
history reads both. Forgotten with their interaction (the foreign key cascades).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, delete
from sqlalchemy.ext.asyncio import AsyncSession

from core.store import models as m
from core.store.common import insert_for

_overrides = m.Base.metadata.tables[m.VerdictOverride.__tablename__]


def put_override(
    connection: Connection, interaction_id: str, verdict: str, note: str | None, author: str
) -> Row[Any]:
    """Set the override, or change it (keeping when it was first set); the row as stored."""
    now = m.utcnow()
    stmt = insert_for(connection, _overrides).values(
        interaction_id=interaction_id,
        verdict=verdict,
        note=note,
        author=author,
        created_at=now,
        updated_at=now,
    )
    return connection.execute(
        stmt.on_conflict_do_update(
            index_elements=["interaction_id"],
            set_={"verdict": verdict, "note": note, "author": author, "updated_at": now},
        ).returning(_overrides)
    ).one()


def delete_override(connection: Connection, interaction_id: str) -> None:
    """Forget the override, if there is one."""
    connection.execute(delete(_overrides).where(_overrides.c.interaction_id == interaction_id))


async def get_override(session: AsyncSession, interaction_id: str) -> m.VerdictOverride | None:
    return await session.get(m.VerdictOverride, interaction_id)
