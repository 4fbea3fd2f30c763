"""Teachers' verdicts on interactions in the local service (an extension): set, changed, removed.

The same permission as rating an interaction (access to its tenant): whoever may read and rate
the feedback may say what the verdict should have been. The interaction itself is never changed;
both calls answer with the interaction as it now reads, override included.
"""

from __future__ import annotations

from functools import partial

from sqlalchemy import Connection

from core.api import InteractionRecord, NotFound, VerdictOverride
from core.auth import Permission
from core.service.caller import Caller
from core.service.feedback import FeedbackOperations
from core.store import interactions, verdict_overrides


class VerdictOverrideOperations:
    def __init__(self, caller: Caller, feedback: FeedbackOperations) -> None:
        self.caller = caller
        self.feedback = feedback

    async def override_verdict(self, interaction_id: str, override: VerdictOverride) -> InteractionRecord:
        """Set or change the teacher's verdict; the author is the acting principal's name."""
        await self.caller.runtime.db.run_write(partial(self._put, interaction_id, override))
        return await self.feedback.get_interaction(interaction_id)

    async def remove_verdict_override(self, interaction_id: str) -> InteractionRecord:
        """Back to the engine's verdict; removing an absent override changes nothing (a retried
        DELETE must not fail)."""
        await self.caller.runtime.db.run_write(partial(self._delete, interaction_id))
        return await self.feedback.get_interaction(interaction_id)

    def _put(self, interaction_id: str, override: VerdictOverride, connection: Connection) -> None:
        self._require_access(connection, interaction_id)
        verdict_overrides.put_override(
            connection, interaction_id, override.verdict.value, override.note, self.caller.principal.name
        )

    def _delete(self, interaction_id: str, connection: Connection) -> None:
        self._require_access(connection, interaction_id)
        verdict_overrides.delete_override(connection, interaction_id)

    def _require_access(self, connection: Connection, interaction_id: str) -> None:
        tenant = interactions.interaction_tenant(connection, interaction_id)
        if tenant is None:
            raise NotFound(f"interaction {interaction_id!r} does not exist")
        self.caller.principal.require(tenant, Permission.ACCESS)
