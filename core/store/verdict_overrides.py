"""Teachers' verdicts on interactions (one per interaction), in place of the engine's.

Kept in a table of their own so that the interaction stays exactly as it was computed; the
history reads both. Forgotten with their interaction (the foreign key cascades).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, delete

from core.store import models as m
from core.store.common import put_interaction_row

_overrides = m.Base.metadata.tables[m.VerdictOverride.__tablename__]


def put_override(
    connection: Connection, interaction_id: str, verdict: str, note: str | None, author: str
) -> Row[Any]:
    """Set the override, or change it (keeping when it was first set); the row as stored."""
    return put_interaction_row(
        connection, _overrides, interaction_id, verdict=verdict, note=note, author=author
    )


def delete_override(connection: Connection, interaction_id: str) -> None:
    """Forget the override, if there is one."""
    connection.execute(delete(_overrides).where(_overrides.c.interaction_id == interaction_id))
