"""LocalService: the Service implemented in-process by the engines, the store and the auth rules.

Every operation checks the principal's permission on the tenant first, validates what the
store cannot, and does its reads, its computation and its writes in one transaction, so a
refused or failing request leaves nothing behind.

The work is done by one class per area over a shared :class:`~core.service.context.Context`:

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

This class is the facade: each method of the Service interface hands over to its area.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from core import API_VERSION, __version__
from core.api import (
    Aspect,
    AspectsComputeRequest,
    ChatRequest,
    ChatResponse,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    DeleteTaskResponse,
    EndUserRating,
    EndUserRatingRecord,
    Feedback,
    GradedAnswersRequest,
    GradedAnswersResponse,
    HealthStatus,
    InteractionRecord,
    RetestReport,
    ReviewOrderRequest,
    ReviewOrderResponse,
    SampleSolutionChecks,
    ServiceInfo,
    SimulationSession,
    StartSimulationRequest,
    StoredTask,
    TaskBase,
    TaskSummary,
    TaskVersion,
    TaskVersionSummary,
    TestAnswerSet,
    TestAnswersRequest,
    TraceRating,
    TraceRatingResponse,
    TutorConfiguration,
    TutorEvent,
    TutorUpsert,
    UpsertTaskResponse,
    VerdictOverride,
    WebhookPayload,
    WebhookReceipt,
)
from core.api.class_sets import (
    ClassSet,
    ClassSetAnswersAdd,
    ClassSetCreate,
    ClassSetGrade,
    ClassSetJudgeRequest,
    ClassSetOrder,
    ClassSetPage,
)
from core.auth import Principal
from core.service.class_sets import ClassSetOperations
from core.service.context import Context
from core.service.feedback import FeedbackOperations
from core.service.graded import GradedAnswerOperations
from core.service.overrides import VerdictOverrideOperations
from core.service.runtime import Runtime
from core.service.simulation import SimulationOperations
from core.service.tasks import TaskOperations
from core.service.tutors import TutorOperations
from core.service.webhooks import WebhookOperations
from core.service.workspace import WorkspaceOperations


class LocalService:
    def __init__(self, runtime: Runtime, principal: Principal, *, owns_runtime: bool = False) -> None:
        self.runtime = runtime
        self.principal = principal
        self._owns_runtime = owns_runtime
        ctx = Context(runtime, principal)
        self._tasks = TaskOperations(ctx)
        self._simulations = SimulationOperations(ctx)
        self._feedback = FeedbackOperations(ctx, self._simulations)
        self._graded = GradedAnswerOperations(ctx, self._feedback)
        self._overrides = VerdictOverrideOperations(ctx, self._feedback)
        self._tutors = TutorOperations(ctx, self._simulations)
        self._workspace = WorkspaceOperations(ctx, self._feedback)
        self._webhooks = WebhookOperations(ctx)
        self._class_sets = ClassSetOperations(ctx, self._feedback)

    @classmethod
    def for_webhooks(cls, runtime: Runtime) -> LocalService:
        """A service with no grants: a webhook call is authorised by its path token alone."""
        return cls(runtime, Principal(id="webhook", name="webhook caller", default_tenant=""))

    # --- feedback -------------------------------------------------------------------------------

    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback:
        return await self._feedback.compute_feedback(request)

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        return await self._feedback.compute_feedback_for_task(task_id, request)

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]:
        return await self._feedback.compute_aspects(request)

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord:
        return await self._feedback.rate_interaction(interaction_id, rating)

    async def list_interactions(self, tenant_id: str, task_id: str) -> list[InteractionRecord]:
        return await self._feedback.list_interactions(tenant_id, task_id)

    async def get_interaction(self, interaction_id: str) -> InteractionRecord:
        return await self._feedback.get_interaction(interaction_id)

    async def override_verdict(self, interaction_id: str, override: VerdictOverride) -> InteractionRecord:
        return await self._overrides.override_verdict(interaction_id, override)

    async def remove_verdict_override(self, interaction_id: str) -> InteractionRecord:
        return await self._overrides.remove_verdict_override(interaction_id)

    # --- tasks and graded answers ---------------------------------------------------------------

    async def upsert_task(
        self, tenant_id: str, task: TaskBase, *, expected_version: int | None = None
    ) -> UpsertTaskResponse:
        return await self._tasks.upsert_task(tenant_id, task, expected_version=expected_version)

    async def delete_task(self, tenant_id: str, task_id: str) -> DeleteTaskResponse:
        return await self._tasks.delete_task(tenant_id, task_id)

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]:
        return await self._tasks.list_tasks(tenant_id)

    async def get_task(self, tenant_id: str, task_id: str) -> StoredTask:
        return await self._tasks.get_task(tenant_id, task_id)

    async def list_task_versions(self, tenant_id: str, task_id: str) -> list[TaskVersionSummary]:
        return await self._tasks.list_task_versions(tenant_id, task_id)

    async def get_task_version(self, tenant_id: str, task_id: str, version: int) -> TaskVersion:
        return await self._tasks.get_task_version(tenant_id, task_id, version)

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        added = await self._graded.add_graded_answers(tenant_id, task_id, request)
        await self._feedback.prepare_stored(added.tenantId, task_id)  # the next answer finds it built
        return added

    async def review_order(
        self, tenant_id: str, task_id: str, request: ReviewOrderRequest
    ) -> ReviewOrderResponse:
        return await self._graded.review_order(tenant_id, task_id, request)

    async def check_sample_solutions(self, tenant_id: str, task_id: str) -> SampleSolutionChecks:
        return await self._graded.check_sample_solutions(tenant_id, task_id)

    # --- tutors and simulations -----------------------------------------------------------------

    async def get_tutor(self, tutor_id: str, tenant_id: str | None = None) -> TutorConfiguration:
        return await self._tutors.get_tutor(tutor_id, tenant_id)

    async def list_tutors(self, tenant_id: str) -> list[TutorConfiguration]:
        return await self._tutors.list_tutors(tenant_id)

    async def put_tutor(self, tenant_id: str, tutor_id: str, body: TutorUpsert) -> TutorConfiguration:
        return await self._tutors.put_tutor(tenant_id, tutor_id, body)

    async def chat(self, request: ChatRequest) -> ChatResponse:
        return await self._tutors.chat(request)

    def chat_stream(self, request: ChatRequest) -> AsyncGenerator[TutorEvent, None]:
        return self._tutors.chat_stream(request)

    async def healthcheck_chat(self) -> ChatResponse:
        return await self._tutors.healthcheck_chat()

    async def rate_trace(self, trace_id: str, rating: TraceRating) -> TraceRatingResponse:
        return await self._tutors.rate_trace(trace_id, rating)

    async def start_simulation(self, request: StartSimulationRequest) -> SimulationSession:
        return await self._simulations.start_simulation(request)

    # --- the authoring workspace ----------------------------------------------------------------

    async def list_test_answers(self, tenant_id: str, task_id: str) -> TestAnswerSet:
        return await self._workspace.list_test_answers(tenant_id, task_id)

    async def put_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        return await self._workspace.put_test_answers(tenant_id, task_id, request)

    async def add_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        return await self._workspace.add_test_answers(tenant_id, task_id, request)

    async def delete_test_answer(self, tenant_id: str, task_id: str, label: str) -> TestAnswerSet:
        return await self._workspace.delete_test_answer(tenant_id, task_id, label)

    async def retest(self, tenant_id: str, task_ids: list[str]) -> RetestReport:
        return await self._workspace.retest(tenant_id, task_ids)

    # --- class sets -------------------------------------------------------------------------------

    async def create_class_set(self, tenant_id: str, task_id: str, request: ClassSetCreate) -> ClassSet:
        return await self._class_sets.create_class_set(tenant_id, task_id, request)

    async def add_class_set_answers(
        self, tenant_id: str, set_id: str, request: ClassSetAnswersAdd
    ) -> ClassSet:
        return await self._class_sets.add_class_set_answers(tenant_id, set_id, request)

    async def list_class_sets(self, tenant_id: str, task_id: str | None = None) -> list[ClassSet]:
        return await self._class_sets.list_class_sets(tenant_id, task_id)

    async def get_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        return await self._class_sets.get_class_set(tenant_id, set_id)

    async def delete_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        return await self._class_sets.delete_class_set(tenant_id, set_id)

    async def judge_class_set(self, tenant_id: str, set_id: str, request: ClassSetJudgeRequest) -> ClassSet:
        return await self._class_sets.judge_class_set(tenant_id, set_id, request)

    async def class_set_answers(
        self, tenant_id: str, set_id: str, order: ClassSetOrder, offset: int = 0, limit: int = 50
    ) -> ClassSetPage:
        return await self._class_sets.class_set_answers(tenant_id, set_id, order, offset, limit)

    async def grade_class_set_answer(
        self, tenant_id: str, set_id: str, position: int, grade: ClassSetGrade | None
    ) -> ClassSet:
        return await self._class_sets.grade_class_set_answer(tenant_id, set_id, position, grade)

    async def export_class_set(self, tenant_id: str, set_id: str) -> str:
        return await self._class_sets.export_class_set(tenant_id, set_id)

    # --- webhooks and the service itself --------------------------------------------------------

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt:
        return await self._webhooks.receive_webhook(token, payload)

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
