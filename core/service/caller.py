"""The caller every area of the local service works for: who calls (the principal), over which
runtime, and the checks on both.

The local service is split by area (tasks, feedback, graded answers, tutors, simulations, the
authoring workspace, webhooks, class sets); each area is a small class over one :class:`Caller`,
and :class:`core.service.local.LocalService` is the facade that implements the Service interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from core.api import NotFound
from core.auth import Permission, Principal
from core.store import tasks

if TYPE_CHECKING:
    from core.service.runtime import Runtime


@dataclass(frozen=True, slots=True)
class Caller:
    runtime: Runtime
    principal: Principal

    def tenant(self, tenant_id: str | None, permission: Permission) -> str:
        """The tenant a request names (the caller's default when it names none), once the caller
        is known to hold the permission there; raises MissingPermissions otherwise."""
        tenant = self.principal.tenant(tenant_id)
        self.principal.require(tenant, permission)
        return tenant

    async def stored_task(self, tenant: str, task_id: str) -> tasks.TaskRow:
        """The stored task, or NotFound naming it and its tenant."""
        row = await self.runtime.db.run_read(partial(tasks.read_task, tenant_id=tenant, task_id=task_id))
        if row is None:
            raise NotFound(f"task {task_id!r} does not exist in tenant {tenant!r}")
        return row
