"""RemoteService: the Service against any server of this API over HTTP (httpx, httpx-sse, stamina).

Every call goes through one helper, :meth:`RemoteService._send`, which adds the bearer token,
applies the time-out and retries idempotent calls; :meth:`RemoteService._call` then turns the
answer into a model or into the typed exception the server meant. So a UI handles the same
exceptions and models whether it talks to LocalService or to a remote.

Retries. GET, PUT and DELETE are retried with exponential backoff and jitter (``stamina``, which
wraps tenacity with sane defaults and switches waits off in tests) when the connection fails,
the server stalls, or it answers 429, 502, 503 or 504 (waiting as a Retry-After of up to 5 s
asks; a longer one is returned to the caller at once).
POST is never retried: a feedback computation or a chat that reached the server before the
connection broke has already been recorded, and sending it again would record it twice.
httpx's own transport retries were not used because they cover connect errors only and know
nothing of methods or statuses. A retried DELETE whose first attempt did reach the server
answers 404 (the task is already gone). Retrying stops after ``retries`` further attempts or once
``timeout`` seconds have passed since the first, so a call takes at most about twice the time-out.
A connection that cannot be opened is not retried, and may take at most ``CONNECT_SECONDS``: a
server that is down is reported within 5 s, with what to check.

Streams. Until the server has answered 200 with an event stream, failures are raised (the typed
error of a JSON error body, RemoteUnreachable, NotThisApi), as LocalService raises what it finds
before the first event. Once the stream has begun, a server that goes away, stalls for
``timeout`` seconds, sends a malformed event or ends without DONE gives one ERROR event and the
end of the stream, which is the shape LocalService uses for a failure mid-stream.

Tolerance. The models ignore unknown fields and read task types in either spelling; a feedback
without metaData.interactionId takes it from the X-Interaction-Id header, and the aspects call
accepts a single object as well as an array (API.md leaves the container open).
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import httpx
import stamina
from httpx_sse import aconnect_sse
from pydantic import TypeAdapter, ValidationError

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
    ErrorBody,
    ErrorType,
    Feedback,
    GradedAnswersRequest,
    GradedAnswersResponse,
    HealthStatus,
    InteractionRecord,
    InvalidToken,
    RetestReport,
    RetestRequest,
    ReviewOrderRequest,
    ReviewOrderResponse,
    SampleSolutionChecks,
    ServiceError,
    ServiceInfo,
    ServiceUnavailable,
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
    TutorEventType,
    TutorUpsert,
    UpsertTaskResponse,
    VerdictOverride,
    WebhookPayload,
    WebhookReceipt,
    error_from_response,
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
from core.api.preconditions import precondition_headers
from core.auth import ALL_PERMISSIONS
from core.http import tls_context

T = TypeVar("T")

IDEMPOTENT = frozenset({"GET", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
WAIT_MAX_SECONDS = 5.0
CONNECT_SECONDS = 5.0
"""How long a connection may take to open: a server that is down or unreachable is reported within
it (a slow answer, on a connection that opened, still has the whole time-out)."""
FINAL_EVENTS = frozenset({TutorEventType.DONE, TutorEventType.ERROR})


class RemoteUnreachable(ServiceUnavailable):
    """The remote could not be reached: connection refused, unknown host, or no answer in time."""


class NotThisApi(ServiceUnavailable):
    """The remote answered, but not as a server of this API does (no JSON, unexpected shape)."""


class ExtensionUnavailable(ServiceError):
    """The remote serves this API without Feedback Studio's authoring extensions."""

    status = 501
    type = ErrorType.INVALID_PARAMETER


class _RetryableStatus(Exception):
    """Carries a 429/5xx answer through stamina, which retries on exceptions only."""

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(f"{response.status_code} {response.reason_phrase}")
        self.response = response


def _backoff(exc: Exception) -> bool | float:
    """stamina's hook: retry transport failures and retryable statuses, waiting as Retry-After says.

    A Retry-After longer than the longest backoff is not waited out: the caller gets the error at
    once and can tell the user, instead of a call that hangs for as long as the server asks.
    """
    if isinstance(exc, _RetryableStatus):
        after = exc.response.headers.get("Retry-After", "")
        if not after.isdigit():
            return True
        return float(after) if float(after) <= WAIT_MAX_SECONDS else False
    # A connection that cannot be opened is a server that is down or an address that is wrong:
    # trying again only makes the user wait to be told. A connection that broke is retried.
    return isinstance(exc, httpx.TransportError) and not isinstance(
        exc, httpx.ConnectError | httpx.ConnectTimeout
    )


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(into: type[T]) -> TypeAdapter[T]:
    """One adapter per type: building one costs more than validating with it."""
    adapter = _ADAPTERS.get(into)
    if adapter is None:
        adapter = _ADAPTERS[into] = TypeAdapter(into)
    return adapter


def _segment(value: str) -> str:
    """A path segment: identifiers come from the client's own system and may hold any character."""
    return quote(value, safe="")


def _cause(exc: BaseException) -> str:
    """The operating system's words for a failure ("Connection refused"), found under httpx's own."""
    detail = str(exc) or type(exc).__name__
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        if isinstance(cause, OSError) and cause.errno:
            # asyncio words a refusal as "Connect call failed (…)"; the errno's own text is plainer.
            detail = os.strerror(cause.errno) if cause.errno > 0 else str(cause.strerror)
        cause = cause.__cause__ or cause.__context__
    return detail


def _snippet(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


class RemoteService:
    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        default_tenant: str = "default",
    ) -> None:
        """``default_tenant`` is only assumed when the remote cannot say (no /studio/info)."""
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.default_tenant = default_tenant
        headers = {"User-Agent": f"feedback-studio/{__version__}", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(CONNECT_SECONDS, timeout)),
            verify=tls_context(),
        )
        self._retrying = stamina.AsyncRetryingCaller(
            attempts=retries + 1,
            timeout=timeout,
            wait_initial=0.2,
            wait_max=WAIT_MAX_SECONDS,
            wait_jitter=0.2,
        ).on(_backoff)
        self._extensions: bool | None = None

    # --- the one request path -------------------------------------------------------------------

    async def _send(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        """One HTTP exchange, retried when idempotent; transport failures become RemoteUnreachable."""
        try:
            if method in IDEMPOTENT:
                return await self._retrying(self._attempt, method, path, body)
            return await self._client.request(method, path, json=body, headers=headers)
        except _RetryableStatus as exc:
            return exc.response
        except httpx.TransportError as exc:
            raise self._unreachable(exc, method, path) from exc

    async def _attempt(self, method: str, path: str, body: Any) -> httpx.Response:
        response = await self._client.request(method, path, json=body)
        if response.status_code in RETRY_STATUSES:
            raise _RetryableStatus(response)
        return response

    async def _call(self, method: str, path: str, into: type[T], body: Any = None) -> T:
        response = await self._send(method, path, body)
        return self._validate(self._json(response), into, response)

    def _json(self, response: httpx.Response) -> Any:
        """The JSON of a 2xx answer; any other answer raises the error it stands for."""
        if not response.is_success:
            raise self._error(response)
        try:
            return response.json()
        except ValueError:
            raise self._not_this_api(response, "answered without JSON") from None

    def _validate(self, document: Any, into: type[T], response: httpx.Response) -> T:
        try:
            return _adapter(into).validate_python(document)
        except ValidationError as exc:
            raise self._not_this_api(
                response,
                f"answered in an unexpected shape ({exc.error_count()} problems: {exc.errors()[0]['loc']})",
            ) from None

    def _error(self, response: httpx.Response) -> ServiceError:
        """The typed exception of an error answer, with the server's message and error type."""
        try:
            body = ErrorBody.model_validate(response.json())
        except ValueError:
            return self._not_this_api(
                response, f"answered {response.status_code} {response.reason_phrase} without an error body"
            )
        return error_from_response(response.status_code, body.message, body.type)

    def _not_this_api(self, response: httpx.Response, what: str) -> NotThisApi:
        request = response.request
        return NotThisApi(
            f"{self.base_url} does not look like a server of the Learner Feedback and Tutoring Service "
            f"API: {request.method} {request.url.path} {what}: {_snippet(response.text)!r}"
        )

    def _unreachable(self, exc: httpx.TransportError, method: str, path: str) -> RemoteUnreachable:
        if isinstance(exc, httpx.ConnectTimeout):
            detail = f"no connection within {min(CONNECT_SECONDS, self.timeout):g} s"
        elif isinstance(exc, httpx.TimeoutException):
            detail = f"no answer within {self.timeout:g} s"
        else:
            detail = _cause(exc)
        check = (
            "; check that the server runs and that the address (and port) is right"
            if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
            else ""
        )
        return RemoteUnreachable(
            f"cannot reach the server at {self.base_url} ({method} {path}): {detail}{check}"
        )

    async def _extension(self, method: str, path: str, into: type[T], body: Any = None) -> T:
        """An extension call: refused with ExtensionUnavailable when the remote lacks the extensions."""
        if self._extensions is None:
            await self.info()
        if not self._extensions:
            raise ExtensionUnavailable(
                f"the server at {self.base_url} does not offer Feedback Studio's authoring extensions "
                f"({method} {path})"
            )
        return await self._call(method, path, into, body)

    # --- feedback and tasks (API.md 4) ------------------------------------------------------------

    async def compute_feedback(self, request: ComputeFeedbackRequest) -> Feedback:
        return await self._feedback("/feedback/compute", request)

    async def compute_feedback_for_task(self, task_id: str, request: ComputeTaskFeedbackRequest) -> Feedback:
        return await self._feedback(f"/tasks/{_segment(task_id)}/feedback/compute", request)

    async def _feedback(
        self, path: str, request: ComputeFeedbackRequest | ComputeTaskFeedbackRequest
    ) -> Feedback:
        response = await self._send("POST", path, request.to_wire())
        document = self._json(response)
        meta = document.get("metaData") if isinstance(document, dict) else None
        if isinstance(meta, dict):
            meta.setdefault("interactionId", response.headers.get("X-Interaction-Id", ""))
        return self._validate(document, Feedback, response)

    async def upsert_task(
        self, tenant_id: str, task: TaskDefinition, *, expected_version: int | None = None
    ) -> UpsertTaskResponse:
        path = f"/tenants/{_segment(tenant_id)}/tasks"
        response = await self._send(
            "POST", path, task.to_wire(), headers=precondition_headers(expected_version)
        )
        return self._validate(self._json(response), UpsertTaskResponse, response)

    async def delete_task(self, tenant_id: str, task_id: str) -> DeleteTaskResponse:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}"
        return await self._call("DELETE", path, DeleteTaskResponse)

    async def compute_aspects(self, request: AspectsComputeRequest) -> list[Aspect]:
        response = await self._send("POST", "/tasks/aspects/compute", request.to_wire())
        document = self._json(response)
        return self._validate([document] if isinstance(document, dict) else document, list[Aspect], response)

    async def rate_interaction(self, interaction_id: str, rating: EndUserRating) -> EndUserRatingRecord:
        path = f"/interactions/{_segment(interaction_id)}/end-user-rating"
        return await self._call("PUT", path, EndUserRatingRecord, rating.to_wire())

    async def receive_webhook(self, token: str, payload: WebhookPayload) -> WebhookReceipt:
        return await self._call("POST", f"/webhooks/{_segment(token)}", WebhookReceipt, payload.to_wire())

    async def healthcheck(self) -> HealthStatus:
        return await self._call("GET", "/tutor/healthcheck", HealthStatus)

    # --- tutor and simulation ---------------------------------------------------------------------

    async def start_simulation(self, request: StartSimulationRequest) -> SimulationSession:
        return await self._call("POST", "/simulation/start", SimulationSession, request.to_wire())

    async def chat(self, request: ChatRequest) -> ChatResponse:
        return await self._call("POST", "/tutor/chat", ChatResponse, request.to_wire())

    async def chat_stream(self, request: ChatRequest) -> AsyncGenerator[TutorEvent, None]:
        """The tutor's events as LocalService yields them; see the module docstring for failures."""
        started = False
        try:
            async with aconnect_sse(
                self._client, "POST", "/tutor/chat/stream", json=request.to_wire()
            ) as source:
                await self._check_stream(source.response)
                started = True
                async for sse in source.aiter_sse():
                    event = _tutor_event(sse.event, sse.data)
                    if event is None:
                        continue
                    yield event
                    if event.event in FINAL_EVENTS:
                        return
            failure = "the server ended the stream without DONE"
        except httpx.TransportError as exc:
            if not started:
                raise self._unreachable(exc, "POST", "/tutor/chat/stream") from exc
            if isinstance(exc, httpx.TimeoutException):
                failure = f"the server stopped sending: nothing arrived for {self.timeout:g} s"
            else:
                failure = f"the connection to the server was lost mid-stream ({exc or type(exc).__name__})"
        yield TutorEvent(event=TutorEventType.ERROR, text=failure)

    async def _check_stream(self, response: httpx.Response) -> None:
        """Raise what a stream's answer means unless it is a 2xx event stream."""
        if response.is_success and response.headers.get("content-type", "").startswith("text/event-stream"):
            return
        await response.aread()
        if not response.is_success:
            raise self._error(response)
        raise self._not_this_api(response, "answered without an event stream")

    async def get_tutor(self, tutor_id: str, tenant_id: str | None = None) -> TutorConfiguration:
        query = f"?{urlencode({'tenantId': tenant_id})}" if tenant_id else ""
        return await self._call("GET", f"/tutor/{_segment(tutor_id)}{query}", TutorConfiguration)

    async def healthcheck_chat(self) -> ChatResponse:
        return await self._call("GET", "/tutor/healthcheck/chat", ChatResponse)

    async def rate_trace(self, trace_id: str, rating: TraceRating) -> TraceRatingResponse:
        return await self._call(
            "POST", f"/trace/{_segment(trace_id)}/rate", TraceRatingResponse, rating.to_wire()
        )

    # --- authoring extensions -----------------------------------------------------------------------

    async def info(self) -> ServiceInfo:
        """The remote's own description, or, from a server without /studio/info, what can be assumed."""
        response = await self._send("GET", "/studio/info")
        if response.status_code == 404:
            self._extensions = False
            return ServiceInfo(
                version="unknown",
                apiVersion=API_VERSION,
                mode="remote",
                principal="unknown",
                defaultTenantId=self.default_tenant,
                tenants=[self.default_tenant],
                permissions={self.default_tenant: sorted(p.value for p in ALL_PERMISSIONS)},
                extensions=False,
            )
        info = self._validate(self._json(response), ServiceInfo, response).model_copy(
            update={"mode": "remote"}
        )
        self._extensions = info.extensions
        return info

    async def check_connection(self) -> ServiceInfo:
        """What the remote is, or an exception that says plainly what is wrong.

        RemoteUnreachable: refused, unknown host or no answer in time. InvalidToken: the server
        refused the token. NotThisApi: something answered, but not as this API does. The health
        check follows the info call because a public server of this API has no /studio/info.
        """
        try:
            info = await self.info()
            await self.healthcheck()
        except InvalidToken as exc:
            raise InvalidToken(
                f"the server at {self.base_url} refused the bearer token: {exc.message}"
            ) from exc
        return info

    async def list_tasks(self, tenant_id: str) -> list[TaskSummary]:
        return await self._extension("GET", f"/tenants/{_segment(tenant_id)}/tasks", list[TaskSummary])

    async def get_task(self, tenant_id: str, task_id: str) -> StoredTask:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}"
        return await self._extension("GET", path, StoredTask)

    async def list_task_versions(self, tenant_id: str, task_id: str) -> list[TaskVersionSummary]:
        return await self._extension("GET", _versions(tenant_id, task_id), list[TaskVersionSummary])

    async def get_task_version(self, tenant_id: str, task_id: str, version: int) -> TaskVersion:
        return await self._extension("GET", f"{_versions(tenant_id, task_id)}/{version}", TaskVersion)

    async def list_tutors(self, tenant_id: str) -> list[TutorConfiguration]:
        return await self._extension(
            "GET", f"/tenants/{_segment(tenant_id)}/tutors", list[TutorConfiguration]
        )

    async def put_tutor(self, tenant_id: str, tutor_id: str, body: TutorUpsert) -> TutorConfiguration:
        path = f"/tenants/{_segment(tenant_id)}/tutors/{_segment(tutor_id)}"
        return await self._extension("PUT", path, TutorConfiguration, body.to_wire())

    async def add_graded_answers(
        self, tenant_id: str, task_id: str, request: GradedAnswersRequest
    ) -> GradedAnswersResponse:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/graded-answers"
        return await self._extension("POST", path, GradedAnswersResponse, request.to_wire())

    async def review_order(
        self, tenant_id: str, task_id: str, request: ReviewOrderRequest
    ) -> ReviewOrderResponse:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/review-order"
        return await self._extension("POST", path, ReviewOrderResponse, request.to_wire())

    async def check_sample_solutions(self, tenant_id: str, task_id: str) -> SampleSolutionChecks:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/sample-solution-checks"
        return await self._extension("GET", path, SampleSolutionChecks)

    async def list_interactions(self, tenant_id: str, task_id: str) -> list[InteractionRecord]:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/interactions"
        return await self._extension("GET", path, list[InteractionRecord])

    async def get_interaction(self, interaction_id: str) -> InteractionRecord:
        return await self._extension("GET", f"/interactions/{_segment(interaction_id)}", InteractionRecord)

    async def override_verdict(self, interaction_id: str, override: VerdictOverride) -> InteractionRecord:
        path = _verdict_override(interaction_id)
        return await self._extension("PUT", path, InteractionRecord, override.to_wire())

    async def remove_verdict_override(self, interaction_id: str) -> InteractionRecord:
        return await self._extension("DELETE", _verdict_override(interaction_id), InteractionRecord)

    async def list_test_answers(self, tenant_id: str, task_id: str) -> TestAnswerSet:
        return await self._extension("GET", _test_answers(tenant_id, task_id), TestAnswerSet)

    async def put_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        return await self._extension(
            "PUT", _test_answers(tenant_id, task_id), TestAnswerSet, request.to_wire()
        )

    async def add_test_answers(
        self, tenant_id: str, task_id: str, request: TestAnswersRequest
    ) -> TestAnswerSet:
        return await self._extension(
            "POST", _test_answers(tenant_id, task_id), TestAnswerSet, request.to_wire()
        )

    async def delete_test_answer(self, tenant_id: str, task_id: str, label: str) -> TestAnswerSet:
        path = f"{_test_answers(tenant_id, task_id)}/{_segment(label)}"
        return await self._extension("DELETE", path, TestAnswerSet)

    async def retest(self, tenant_id: str, task_ids: list[str]) -> RetestReport:
        body = RetestRequest(taskIds=task_ids).to_wire()
        return await self._extension("POST", f"/tenants/{_segment(tenant_id)}/retest", RetestReport, body)

    # --- class sets -------------------------------------------------------------------------------

    async def create_class_set(self, tenant_id: str, task_id: str, request: ClassSetCreate) -> ClassSet:
        path = f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/class-sets"
        return await self._extension("POST", path, ClassSet, request.to_wire())

    async def add_class_set_answers(
        self, tenant_id: str, set_id: str, request: ClassSetAnswersAdd
    ) -> ClassSet:
        return await self._extension(
            "POST", f"{_class_set(tenant_id, set_id)}/answers", ClassSet, request.to_wire()
        )

    async def list_class_sets(self, tenant_id: str, task_id: str | None = None) -> list[ClassSet]:
        query = f"?{urlencode({'taskId': task_id})}" if task_id is not None else ""
        return await self._extension(
            "GET", f"/tenants/{_segment(tenant_id)}/class-sets{query}", list[ClassSet]
        )

    async def get_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        return await self._extension("GET", _class_set(tenant_id, set_id), ClassSet)

    async def delete_class_set(self, tenant_id: str, set_id: str) -> ClassSet:
        return await self._extension("DELETE", _class_set(tenant_id, set_id), ClassSet)

    async def judge_class_set(self, tenant_id: str, set_id: str, request: ClassSetJudgeRequest) -> ClassSet:
        return await self._extension(
            "POST", f"{_class_set(tenant_id, set_id)}/judge", ClassSet, request.to_wire()
        )

    async def class_set_answers(
        self, tenant_id: str, set_id: str, order: ClassSetOrder, offset: int = 0, limit: int = 50
    ) -> ClassSetPage:
        query = urlencode({"order": order.value, "offset": offset, "limit": limit})
        return await self._extension("GET", f"{_class_set(tenant_id, set_id)}/answers?{query}", ClassSetPage)

    async def grade_class_set_answer(
        self, tenant_id: str, set_id: str, position: int, grade: ClassSetGrade | None
    ) -> ClassSet:
        path = f"{_class_set(tenant_id, set_id)}/answers/{position}/grade"
        if grade is None:
            return await self._extension("DELETE", path, ClassSet)
        return await self._extension("PUT", path, ClassSet, grade.to_wire())

    async def export_class_set(self, tenant_id: str, set_id: str) -> str:
        path = f"{_class_set(tenant_id, set_id)}/export"
        await self._extension(
            "GET", _class_set(tenant_id, set_id), ClassSet
        )  # the extensions, and the set, exist
        response = await self._send("GET", path)
        if not response.is_success:
            raise self._error(response)
        return response.text

    async def aclose(self) -> None:
        await self._client.aclose()


def _test_answers(tenant_id: str, task_id: str) -> str:
    return f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/test-answers"


def _verdict_override(interaction_id: str) -> str:
    return f"/interactions/{_segment(interaction_id)}/verdict-override"


def _versions(tenant_id: str, task_id: str) -> str:
    return f"/tenants/{_segment(tenant_id)}/tasks/{_segment(task_id)}/versions"


def _tutor_event(name: str, data: str) -> TutorEvent | None:
    """A stream event as a TutorEvent; None for event names this client does not know (skipped)."""
    try:
        kind = TutorEventType(name)
    except ValueError:
        return None
    try:
        document = json.loads(data)
        return TutorEvent.model_validate({**document, "event": kind})
    except (ValueError, TypeError):
        return TutorEvent(event=TutorEventType.ERROR, text=f"the server sent a malformed {kind.value} event")


def _class_set(tenant_id: str, set_id: str) -> str:
    return f"/tenants/{_segment(tenant_id)}/class-sets/{_segment(set_id)}"
