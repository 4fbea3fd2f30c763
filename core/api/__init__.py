"""The wire contract: pydantic v2 models of every request, response, event and error of API.md.

No I/O here; import the names from this package rather than from its modules.
"""

from core.api.answers import (
    ANSWER_MODELS,
    Answer,
    ChatTurn,
    ContentPiece,
    FreeformTextAnswer,
    InTextChoicesAnswer,
    InTextFillInBlanksAnswer,
    MultipleChoiceAnswer,
    MultipleResponsesAnswer,
    SimulationAnswer,
    parse_answer,
)
from core.api.common import (
    AnyTaskType,
    ApiModel,
    AspectType,
    Correctness,
    Language,
    TaskAction,
    TaskType,
    parse_task_type,
    try_parse_task_type,
)
from core.api.errors import (
    ErrorBody,
    ErrorType,
    InternalError,
    InvalidParameter,
    InvalidToken,
    MissingPermissions,
    NotFound,
    PayloadTooLarge,
    SchemaMalformed,
    ServiceError,
    ServiceUnavailable,
    TooManyRequests,
    WrongTaskType,
    error_from_response,
)
from core.api.feedback import (
    Aspect,
    AspectsComputeRequest,
    BlanksSolution,
    ChoicesSolution,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    DetectedAspect,
    Feedback,
    FeedbackItem,
    FeedbackMetaData,
    FeedbackResult,
    FreeformTextResult,
    IndexedContent,
    InTextChoicesResult,
    InTextFillInBlanksResult,
    LearnerMetaData,
    MessageSpan,
    MultipleChoiceResult,
    MultipleResponsesResult,
    OptionSelection,
    Points,
    SelectedIndexSolution,
    SelectedSolution,
    SimulationResult,
    TextSpan,
    Topic,
)
from core.api.interactions import (
    EndUserRating,
    EndUserRatingRecord,
    GradedAnswer,
    GradedAnswersRequest,
    GradedAnswersResponse,
    InteractionRecord,
    RatingSubtype,
    RatingType,
)
from core.api.simulation import SimulationSession, StartSimulationRequest
from core.api.studio import ServiceInfo
from core.api.tasks import (
    TASK_MODELS,
    AspectDefinition,
    AspectGroup,
    Blank,
    ChoiceOption,
    ChoicePoint,
    DeleteTaskResponse,
    FreeformTextTask,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    Matching,
    MultipleChoiceTask,
    MultipleResponsesTask,
    Persona,
    SampleSolutionText,
    SimulationTask,
    StoredTask,
    TaskBase,
    TaskDefinition,
    TaskSummary,
    UpsertTaskResponse,
)
from core.api.tutor import (
    DONE_TEXT,
    MESSAGE_BOUNDARY,
    ChatContext,
    ChatMessage,
    ChatRequest,
    ChatResponse,
    HealthStatus,
    TraceRating,
    TraceRatingResponse,
    TutorConfiguration,
    TutorEvent,
    TutorEventType,
    TutorUpsert,
)
from core.api.validation import check_task, gap_numbers
from core.api.webhooks import TASK_DELETED, TASK_UPSERTED, WebhookPayload, WebhookReceipt
from core.api.workspace import (
    AnswerRetest,
    AnswerSource,
    Expectation,
    FeedbackSnapshot,
    RetestReport,
    RetestRequest,
    TaskRetest,
    TestAnswer,
    TestAnswerSet,
    TestAnswersRequest,
)

__all__ = [name for name in dir() if not name.startswith("_")]
