"""The OpenAPI document as the server really behaves, valid for the version it declares (3.1).

FastAPI generates it from the routes; three things it cannot know are added here, once, for
every operation, rather than repeated on each route:

* the bearer token, on every operation that uses the caller's service (the generator only sees
  security dependencies, which ``local_service`` does without);
* the error responses each operation can send, with the API's error body ``{message, type}``
  (API.md 7), instead of FastAPI's 422, which this server never sends (a validation error is
  400 REQUEST_SCHEMA_MALFORMED);
* the Server-Sent Events of ``/tutor/chat/stream``: the route writes them itself, several to a
  write (core.server.routers.tutor), so FastAPI knows only their media type (and for a generator
  route it would use ``itemSchema``, a keyword of OpenAPI 3.2 that 3.1 validators reject); here
  the text/event-stream ``schema`` describes one event (its name and JSON data), as SSE-aware
  tools read it.

``tests/server/test_openapi.py`` checks the document with openapi-spec-validator, and the fuzz
suite checks the responses against it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from core.api import ErrorType
from core.server.deps import local_service

BEARER_SCHEME = {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <ACCESS_TOKEN>"}
ERROR_BODY = {
    "type": "object",
    "title": "ErrorBody",
    "description": "Every error response (API.md 7).",
    "required": ["message", "type"],
    "properties": {
        "message": {"type": "string", "description": "What went wrong, for a person to read."},
        "type": {"type": "string", "enum": [t.value for t in ErrorType]},
    },
}
ERRORS = {
    "400": "The body or a parameter is malformed (REQUEST_SCHEMA_MALFORMED), the token is missing or "
    "invalid (INVALID_TOKEN), a value is invalid (INVALID_PARAMETER), or a task would change type "
    "(WRONG_TASK_TYPE_FOR_UPSERT).",
    "403": "The token's principal has no access to the tenant, or lacks the permission (MISSING_PERMISSIONS).",
    "404": "Something the request names does not exist (INVALID_PARAMETER).",
    "413": "The body is larger than the server takes (REQUEST_SCHEMA_MALFORMED).",
    "429": "Too many requests for this token, where a rate limit is set (INVALID_PARAMETER).",
    "500": "An internal error (INTERNAL); the message carries an error id that is in the server's log.",
}
PRECONDITION_FAILED = (
    "Extension: the conditional upsert (If-Match, If-None-Match) found another version stored; nothing "
    "was written (INVALID_PARAMETER)."
)
STREAM = {
    "schema": {
        "type": "object",
        "description": "One Server-Sent Event; a reply is MESSAGE* (BOUNDARY MESSAGE*)* TRACE [DEBUG] DONE, or "
        'ERROR at a failure. Its data is JSON: {"text": …}, and DEBUG adds "list".',
        "required": ["event", "data"],
        "properties": {
            "event": {"type": "string", "enum": ["MESSAGE", "BOUNDARY", "TRACE", "DEBUG", "ERROR", "DONE"]},
            "data": {"type": "string", "contentMediaType": "application/json"},
        },
    }
}


def describe(app: FastAPI, routers: list[APIRouter]) -> None:
    """Make ``app.openapi()`` return the document described in the module docstring."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            components = document.setdefault("components", {})
            components["securitySchemes"] = {"bearer": BEARER_SCHEME}
            schemas = components.setdefault("schemas", {})
            schemas["ErrorBody"] = ERROR_BODY
            for route, operation in _operations(document, routers):
                _describe_operation(route, operation)
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            app.openapi_schema = document
        return app.openapi_schema

    # FastAPI's documented way to extend the schema is to replace this method (its "Extending
    # OpenAPI" recipe); mypy refuses any assignment to a method, so the check is silenced here only.
    app.openapi = openapi  # type: ignore[method-assign]


def _operations(
    document: dict[str, Any], routers: list[APIRouter]
) -> Iterator[tuple[APIRoute, dict[str, Any]]]:
    for router in routers:
        for route in router.routes:
            if isinstance(route, APIRoute) and route.include_in_schema:
                for method in route.methods or ():
                    yield route, document["paths"][route.path_format][method.lower()]


def _describe_operation(route: APIRoute, operation: dict[str, Any]) -> None:
    responses = operation["responses"]
    responses.pop("422", None)
    authenticated = _uses(route.dependant, local_service)
    if authenticated:
        operation["security"] = [{"bearer": []}]
    statuses = ["400", "403", "404", "413", "429", "500"] if authenticated else ["400", "404", "413", "500"]
    if route.path_format == "/tenants/{tenantId}/tasks" and "POST" in (route.methods or ()):
        responses["412"] = _error(PRECONDITION_FAILED)
    if route.path_format == "/webhooks/{token}":
        responses["415"] = _error("The body is not sent as JSON (REQUEST_SCHEMA_MALFORMED).")
    for status in statuses:
        responses.setdefault(status, _error(ERRORS[status]))
    for response in responses.values():
        stream = response.get("content", {}).get("text/event-stream")
        if stream is not None:
            response["content"]["text/event-stream"] = STREAM


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }


def _uses(dependant: Dependant, call: Any) -> bool:
    return any(d.call is call or _uses(d, call) for d in dependant.dependencies)
