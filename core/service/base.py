"""The Service: one async interface with a method per API operation plus the authoring extensions.

LocalService (engine + store + auth, in-process) and RemoteService (httpx against any server of
this API) both implement it and pass one contract suite; the user interfaces speak only to it.
A Service instance acts for one principal: the bearer token of a remote, or the local principal.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Protocol, runtime_checkable

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
    TaskDefinition,
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


@runtime_checkable
class Service(Protocol):
    # --- API.md operations -------------------------------------------------------------------
    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback: ...

    async def compute_feedback_for_task(
        self, task_id: str, request: ComputeTaskFeedbackRequest
    ) -> Feedback: ...

    async def upsert_task(
        self, tenant_id: str, task: TaskDefinition, *, expected_version: int | None = None
    ) -> UpsertTaskResponse:
        """``expected_version`` (extension): None writes unconditionally (API.md); 0 only creates;
        n only writes on top of version n. Otherwise VersionConflict, and nothing is written."""
        ...

    async def delete_task(self, tenant_id: str, task_id: str) -> DeleteTaskResponse: ...

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]: ...

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord: ...

    async def start_simulation(self, request: StartSimulationRequest) -> SimulationSession: ...

    async def chat(self, request: ChatRequest) -> ChatResponse: ...

    def chat_stream(self, request: ChatRequest) -> AsyncGenerator[TutorEvent, None]:
        """MESSAGE* (BOUNDARY MESSAGE*)* TRACE [DEBUG] DONE, or … ERROR and the end on failure.

        A generator, so a caller that stops early closes it (``aclose``) and its resources at once.

        Errors found before the first event (unknown tutor, no access) are raised as ServiceError.
        """
        ...

    async def get_tutor(self, tutor_id: str, tenant_id: str | None = None) -> TutorConfiguration:
        """The tenant's tutor of this id; each tenant names its own tutors. Without a tenant: the
        caller's default tenant's, else the one tenant the caller may access that has it."""
        ...

    async def healthcheck(self) -> HealthStatus: ...

    async def healthcheck_chat(self) -> ChatResponse: ...

    async def rate_trace(self, trace_id: str, rating: TraceRating) -> TraceRatingResponse: ...

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt: ...

    # --- authoring extensions (DESIGN.md); a remote may lack them: check info().extensions --------
    async def info(self) -> ServiceInfo: ...

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]: ...

    async def get_task(self, tenant_id: str, task_id: str) -> StoredTask: ...

    async def list_task_versions(self, tenant_id: str, task_id: str) -> list[TaskVersionSummary]:
        """Every version the task has had, newest first, with its time and author."""
        ...

    async def get_task_version(self, tenant_id: str, task_id: str, version: int) -> TaskVersion: ...

    async def list_tutors(self, tenant_id: str) -> list[TutorConfiguration]: ...

    async def put_tutor(self, tenant_id: str, tutor_id: str, body: TutorUpsert) -> TutorConfiguration: ...

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse: ...

    async def review_order(
        self, tenant_id: str, task_id: str, request: ReviewOrderRequest
    ) -> ReviewOrderResponse:
        """The indices of ungraded answers of a stored task (each in the shape of its type) in the
        order to grade them so that the judge learns most: distinct, ``min(limit, len(answers))``
        of them. Needs access to the tenant; records nothing."""
        ...

    async def check_sample_solutions(self, tenant_id: str, task_id: str) -> SampleSolutionChecks:
        """How the engine that judges the stored task's answers judges each of its sample solutions
        (freeform tasks; none for the other types). Needs access to the tenant; records nothing."""
        ...

    async def list_interactions(self, tenant_id: str, task_id: str) -> list[InteractionRecord]: ...

    async def get_interaction(self, interaction_id: str) -> InteractionRecord: ...

    async def override_verdict(self, interaction_id: str, override: VerdictOverride) -> InteractionRecord:
        """A teacher's verdict in place of the engine's (set or changed); the interaction as it now
        reads. Needs the same permission as rating it."""
        ...

    async def remove_verdict_override(self, interaction_id: str) -> InteractionRecord:
        """Back to the engine's verdict (nothing happens where there is no override)."""
        ...

    async def list_test_answers(self, tenant_id: str, task_id: str) -> TestAnswerSet: ...

    async def put_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet: ...

    async def add_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet: ...

    async def delete_test_answer(self, tenant_id: str, task_id: str, label: str) -> TestAnswerSet: ...

    async def retest(self, tenant_id: str, task_ids: list[str]) -> RetestReport: ...

    # --- class sets (docs/class-sets.md): a class's answers to a free-text task ----------------
    async def create_class_set(self, tenant_id: str, task_id: str, request: ClassSetCreate) -> ClassSet: ...

    async def add_class_set_answers(
        self, tenant_id: str, set_id: str, request: ClassSetAnswersAdd
    ) -> ClassSet: ...

    async def list_class_sets(self, tenant_id: str, task_id: str | None = None) -> list[ClassSet]: ...

    async def get_class_set(self, tenant_id: str, set_id: str) -> ClassSet: ...

    async def delete_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        """The set as it was (deleted with its answers and grades)."""
        ...

    async def judge_class_set(self, tenant_id: str, set_id: str, request: ClassSetJudgeRequest) -> ClassSet:
        """Judges up to ``request.limit`` answers not judged yet: called until ``judgedCount``
        reaches ``answerCount``, it shows progress and can stop between calls."""
        ...

    async def class_set_answers(
        self, tenant_id: str, set_id: str, order: ClassSetOrder, offset: int = 0, limit: int = 50
    ) -> ClassSetPage: ...

    async def grade_class_set_answer(
        self, tenant_id: str, set_id: str, position: int, grade: ClassSetGrade | None
    ) -> ClassSet:
        """The teacher's grade of one answer (None takes it back); every verdict moves with it."""
        ...

    async def export_class_set(self, tenant_id: str, set_id: str) -> str:
        """The judged set as CSV: answer, verdict, points, achievable points, feedback, graded by."""
        ...

    async def aclose(self) -> None: ...
