"""A teacher's verdict on an interaction, as both apps set and show it.

The teacher's verdict is the one that counts where there is one (the history filters by it), and
the engine's stays beside it. Overriding can also keep the answer as a test answer that expects
the teacher's verdict (core.client.gold), so every later retest checks that the engine learnt it.
"""

from __future__ import annotations

from core.api import AnswerRetest, Correctness, InteractionRecord, VerdictOverride
from core.client.gold import mark_gold
from core.service.base import Service


def effective_verdict(record: InteractionRecord) -> Correctness:
    """The teacher's verdict where one was given, else the engine's."""
    return record.override.verdict if record.override else record.verdict


async def override_verdict(
    service: Service,
    tenant: str,
    record: InteractionRecord,
    verdict: Correctness,
    note: str = "",
    *,
    keep_as_test: bool = False,
) -> tuple[InteractionRecord, AnswerRetest | None]:
    """Set (or change) the teacher's verdict; with ``keep_as_test`` the answer also becomes a test
    answer expecting it, retested at once (its line is returned)."""
    updated = await service.override_verdict(
        record.interactionId, VerdictOverride(verdict=verdict, note=note.strip() or None)
    )
    gold = await mark_gold(service, tenant, record.taskId, record.answer, verdict) if keep_as_test else None
    return updated, gold
