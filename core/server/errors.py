"""Every error leaves the server as API.md 7 asks: a status and the body {message, type}.

Validation errors become 400 REQUEST_SCHEMA_MALFORMED with a message naming each bad field; an
unexpected exception becomes 500 INTERNAL with an error id that is also in the log.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic_core import ErrorDetails
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from core.api import ErrorType, InternalError, NotFound, SchemaMalformed, ServiceError

log = logging.getLogger("feedback_studio.errors")


def error_response(error: ServiceError) -> JSONResponse:
    return JSONResponse(error.body().model_dump(), status_code=error.status, headers=error.headers)


def describe_validation(errors: Sequence[ErrorDetails]) -> str:
    parts = []
    for err in errors[:10]:
        location = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",)) or "body"
        message = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON" + (
                f" ({err['ctx']['error']})" if err.get("ctx") else ""
            )
        parts.append(f"{location}: {message}")
    more = f" (and {len(errors) - 10} more)" if len(errors) > 10 else ""
    return "; ".join(parts) + more


def internal_error(exc: BaseException, where: str) -> InternalError:
    error_id = uuid.uuid4().hex[:12]
    log.error("internal error %s in %s", error_id, where, exc_info=exc)
    return InternalError(f"an internal error occurred; it was logged with error id {error_id}")


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(SchemaMalformed(describe_validation(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return error_response(NotFound(f"no such endpoint: {request.method} {request.url.path}"))
        error_type = ErrorType.INTERNAL if exc.status_code >= 500 else ErrorType.INVALID_PARAMETER
        # Starlette's headers (Allow on a 405) go out with the API's error body.
        return JSONResponse(
            {"message": str(exc.detail), "type": error_type.value},
            status_code=exc.status_code,
            headers=exc.headers,
        )


async def answer_failure(exc: Exception, answered: bool, scope: Scope, receive: Receive, send: Send) -> None:
    """After a route let `exc` through: answer 500 INTERNAL, with an error id that is logged, and
    keep the connection usable. (Starlette's catch-all handler re-raises after answering, which
    makes the server drop the connection; an API client on keep-alive would then see a broken pipe
    on its next call.) If the response had already started, nothing can be answered: a client that
    went away is logged as such, anything else is logged and raised again."""
    where = f"{scope.get('method')} {scope.get('path')}"
    if answered and client_went_away(exc):
        log.info("the client went away during %s; the response was cut off", where)
        return
    error = internal_error(exc, where)
    if answered:
        raise exc
    await error_response(error)(scope, receive, send)


DISCONNECTS = (anyio.BrokenResourceError, anyio.ClosedResourceError, ConnectionError)
"""What writing to a client that has gone raises (a stream's keep-alive finds it first)."""


def client_went_away(exc: BaseException) -> bool:
    """Whether the failure is only the client having disconnected (alone, or every part of a group)."""
    if isinstance(exc, BaseExceptionGroup):
        _, rest = exc.split(DISCONNECTS)
        return rest is None
    return isinstance(exc, DISCONNECTS)
