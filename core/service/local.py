"""LocalService: the Service implemented in-process by the engines, the store and the auth rules.

Every operation checks the principal's permission on the tenant first, validates what the
store cannot, and does its reads, its computation and its writes in one transaction, so a
refused or failing request leaves nothing behind.

The work is done by one class per area over a shared :class:`~core.service.caller.Caller`:

| area | module |
|---|---|
| tasks | :mod:`core.service.tasks` |
| feedback, interactions, ratings | :mod:`core.service.feedback` |
| teachers' verdicts on interactions | :mod:`core.service.overrides` |
| graded answers, the review order of new answers, the sample-solution check | :mod:`core.service.graded` |
| tutors and chat | :mod:`core.service.tutors` |
| simulation sessions | :mod:`core.service.simulation` |
| test answers and retest | :mod:`core.service.workspace` |
| webhooks | :mod:`core.service.webhooks` |
| class sets | :mod:`core.service.class_sets` |

This class is the facade, and a generic one: an operation of the Service interface
(:class:`core.service.base.Service`) that this class does not write out is the method of the same
name on the one area that has it (:data:`AREA_OF`, checked and set on the class when the module
is imported). Adding an operation is declaring it on the interface and writing it on its area;
nothing here changes (docs/architecture.md, "Adding a Service operation").
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from core import API_VERSION, __version__
from core.api import GradedAnswersRequest, GradedAnswersResponse, HealthStatus, ServiceInfo
from core.auth import Principal
from core.service.base import Service
from core.service.caller import Caller
from core.service.class_sets import ClassSetOperations
from core.service.feedback import FeedbackOperations
from core.service.graded import GradedAnswerOperations
from core.service.overrides import VerdictOverrideOperations
from core.service.runtime import Runtime
from core.service.simulation import SimulationOperations
from core.service.tasks import TaskOperations
from core.service.tutors import TutorOperations
from core.service.webhooks import WebhookOperations
from core.service.workspace import WorkspaceOperations

AREAS: dict[str, type] = {
    "_tasks": TaskOperations,
    "_simulations": SimulationOperations,
    "_feedback": FeedbackOperations,
    "_graded": GradedAnswerOperations,
    "_overrides": VerdictOverrideOperations,
    "_tutors": TutorOperations,
    "_workspace": WorkspaceOperations,
    "_webhooks": WebhookOperations,
    "_class_sets": ClassSetOperations,
}
"""The areas by the attribute of LocalService that holds each."""

OPERATIONS = tuple(
    name for name, member in vars(Service).items() if inspect.isfunction(member) and name[0] != "_"
)
"""The operations of the Service interface."""


class LocalService:
    def __init__(self, runtime: Runtime, principal: Principal, *, owns_runtime: bool = False) -> None:
        self.runtime = runtime
        self.principal = principal
        self._owns_runtime = owns_runtime
        caller = Caller(runtime, principal)
        self._tasks = TaskOperations(caller)
        self._simulations = SimulationOperations(caller)
        self._feedback = FeedbackOperations(caller, self._simulations)
        self._graded = GradedAnswerOperations(caller, self._feedback)
        self._overrides = VerdictOverrideOperations(caller, self._feedback)
        self._tutors = TutorOperations(caller, self._simulations)
        self._workspace = WorkspaceOperations(caller, self._feedback)
        self._webhooks = WebhookOperations(caller)
        self._class_sets = ClassSetOperations(caller, self._feedback)

    if TYPE_CHECKING:  # the forwarded operations, set on the class below where mypy cannot see them

        def __getattr__(self, name: str) -> Any: ...

    @classmethod
    def for_webhooks(cls, runtime: Runtime) -> Service:
        """A service with no grants: a webhook call is authorised by its path token alone."""
        return cls(runtime, Principal(id="webhook", name="webhook caller", default_tenant=""))

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        added = await self._graded.add_graded_answers(tenant_id, task_id, request)
        await self._feedback.prepare_stored(added.tenantId, task_id)  # the next answer finds it built
        return added

    async def healthcheck(self) -> HealthStatus:
        return HealthStatus(status="OK")

    async def info(self) -> ServiceInfo:
        return ServiceInfo(
            version=__version__,
            apiVersion=API_VERSION,
            mode="local",
            principal=self.principal.name,
            defaultTenantId=self.principal.default_tenant,
            tenants=sorted(self.principal.grants),
            permissions={t: sorted(p.value for p in perms) for t, perms in self.principal.grants.items()},
            extensions=True,
        )

    async def aclose(self) -> None:
        """Close the runtime if this service opened it; a shared runtime is closed by its owner."""
        if self._owns_runtime:
            await self.runtime.aclose()


def _area_of() -> dict[str, str]:
    """Each operation LocalService does not write out, and the attribute of the one area that
    implements it; an operation no area or two areas implement stops the import, naming it."""
    owners: dict[str, str] = {}
    for name in OPERATIONS:
        if name in vars(LocalService):
            continue
        areas = [attribute for attribute, area in AREAS.items() if inspect.isfunction(vars(area).get(name))]
        if len(areas) != 1:
            raise TypeError(f"Service.{name} is implemented by {len(areas)} areas of LocalService ({areas})")
        owners[name] = areas[0]
    return owners


class _Forwarded:
    """A forwarded operation: on a LocalService, the bound method of its area, looked up at each
    use, so the call passes no wrapper and a test that replaces the area's method is heard."""

    __slots__ = ("area", "name")

    def __init__(self, area: str, name: str) -> None:
        self.area, self.name = area, name

    def __get__(self, service: LocalService | None, owner: type | None = None) -> Any:
        return self if service is None else getattr(service.__dict__[self.area], self.name)


AREA_OF = _area_of()
"""The area attribute of each forwarded operation."""
for _name, _area in AREA_OF.items():
    setattr(LocalService, _name, _Forwarded(_area, _name))
