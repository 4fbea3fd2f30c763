"""Errors of API.md 7: the body {message, type} and the typed exceptions every Service raises.

LocalService raises these; the server turns them into responses; RemoteService turns responses
back into them, so a UI handles one family of exceptions whichever service it talks to.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from core.api.common import ApiModel


class ErrorType(StrEnum):
    REQUEST_SCHEMA_MALFORMED = "REQUEST_SCHEMA_MALFORMED"
    INVALID_TOKEN = "INVALID_TOKEN"
    MISSING_PERMISSIONS = "MISSING_PERMISSIONS"
    INVALID_PARAMETER = "INVALID_PARAMETER"
    WRONG_TASK_TYPE_FOR_UPSERT = "WRONG_TASK_TYPE_FOR_UPSERT"
    INTERNAL = "INTERNAL"


class ErrorBody(ApiModel):
    message: str
    type: str


class ServiceError(Exception):
    """An error with its HTTP status and API error type."""

    status: ClassVar[int] = 500
    type: ClassVar[ErrorType] = ErrorType.INTERNAL
    remote_type: str | None = None
    """The error type a remote service answered with, where this error was rebuilt from one."""

    def __init__(self, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.headers = headers or {}

    def body(self) -> ErrorBody:
        return ErrorBody(message=self.message, type=self.type.value)


class SchemaMalformed(ServiceError):
    status = 400
    type = ErrorType.REQUEST_SCHEMA_MALFORMED


class InvalidToken(ServiceError):
    status = 400
    type = ErrorType.INVALID_TOKEN


class MissingPermissions(ServiceError):
    status = 403
    type = ErrorType.MISSING_PERMISSIONS


class InvalidParameter(ServiceError):
    status = 400
    type = ErrorType.INVALID_PARAMETER


class NotFound(ServiceError):
    status = 404
    type = ErrorType.INVALID_PARAMETER


class WrongTaskType(ServiceError):
    status = 400
    type = ErrorType.WRONG_TASK_TYPE_FOR_UPSERT


class VersionConflict(ServiceError):
    """Extension: a conditional upsert (If-Match / If-None-Match) found another version stored.

    412 Precondition Failed, as HTTP names a failed If-Match; nothing was written."""

    status = 412
    type = ErrorType.INVALID_PARAMETER


class UnsupportedMediaType(ServiceError):
    """A body in a content type the endpoint does not read (the webhook reads JSON only)."""

    status = 415
    type = ErrorType.REQUEST_SCHEMA_MALFORMED


class PayloadTooLarge(ServiceError):
    status = 413
    type = ErrorType.REQUEST_SCHEMA_MALFORMED


class TooManyRequests(ServiceError):
    status = 429
    type = ErrorType.INVALID_PARAMETER


class InternalError(ServiceError):
    status = 500
    type = ErrorType.INTERNAL


class ServiceUnavailable(ServiceError):
    """Client side only: the remote could not be reached, stalled, or is not this API."""

    status = 503
    type = ErrorType.INTERNAL


_BY_STATUS_AND_TYPE: dict[tuple[int, str], type[ServiceError]] = {
    (cls.status, cls.type.value): cls
    for cls in (
        SchemaMalformed,
        InvalidToken,
        MissingPermissions,
        InvalidParameter,
        NotFound,
        WrongTaskType,
        VersionConflict,
        UnsupportedMediaType,
        PayloadTooLarge,
        TooManyRequests,
        InternalError,
    )
}


def error_from_response(status: int, message: str, error_type: str | None) -> ServiceError:
    """Rebuild the typed exception of a server's error response (used by RemoteService)."""
    cls = _BY_STATUS_AND_TYPE.get((status, error_type or ""))
    if cls is None:
        cls = {400: InvalidParameter, 403: MissingPermissions, 404: NotFound, 413: PayloadTooLarge}.get(
            status, InternalError
        )
    err = cls(message)
    err.remote_type = error_type
    return err
