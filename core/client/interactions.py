"""How an app names an interaction to a person: its time and a part that tells it from the others.

Interaction ids are time-ordered UUIDs (version 7): their first 12 hex digits are the moment of the
answer in milliseconds, so the first 8 characters were the same for every answer within a minute
or so ("interaction 01a21e2d" five times over). The label gives the moment the id holds (in the
language's clock, to the second) and the id's last 8 hex digits, which are random; an id of
another kind (a remote's random UUID, any other string) is named by its last 8 characters alone.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from babel.dates import format_time

TAIL = 8


def interaction_time(interaction_id: str) -> datetime | None:
    """The moment a time-ordered (version 7) id was made, else None."""
    try:
        parsed = uuid.UUID(interaction_id)
    except ValueError:
        return None
    if parsed.version != 7:
        return None
    return datetime.fromtimestamp((parsed.int >> 80) / 1000, UTC)


def interaction_tail(interaction_id: str) -> str:
    """The id's distinct part: its last 8 hex digits (random in a version 7 id)."""
    return interaction_id.replace("-", "")[-TAIL:]


def interaction_label(interaction_id: str, language: str) -> str:
    """When, and which: "21:07:25 · 0bee038d" (see the module doc)."""
    moment = interaction_time(interaction_id)
    tail = interaction_tail(interaction_id)
    if moment is None:
        return tail
    return f"{format_time(moment.astimezone(), format='medium', locale=language)} · {tail}"
