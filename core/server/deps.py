"""Typed dependencies of the routes: the runtime, the calling principal and its Service."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from core.api import InvalidToken
from core.auth import Principal, hash_token
from core.service.local import LocalService
from core.service.runtime import Runtime
from core.store import principals

BEARER_SCHEME = {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <ACCESS_TOKEN>"}
BEARER_SECURITY = {"security": [{"bearer": []}]}
"""The OpenAPI of an operation that takes the bearer token (declare_bearer_auth adds it where
local_service is a dependency)."""


async def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


async def local_service(request: Request) -> LocalService:
    """The caller's Service: the principal of its bearer token over the process's runtime.

    One dependency that reads the header itself, rather than a chain of runtime, HTTPBearer and
    principal: FastAPI resolves every dependency of a route on every call (tens of microseconds
    each), and this one is on every request. It is async because FastAPI would run a plain def
    in a worker thread.
    """
    runtime: Runtime = request.app.state.runtime
    return LocalService(
        runtime, await _principal_for(runtime, bearer_token(request.headers.get("authorization")))
    )


ServiceDep = Annotated[LocalService, Depends(local_service)]


def bearer_token(header: str | None) -> str:
    """The token of an `Authorization: Bearer <token>` header, or InvalidToken saying what is wrong."""
    if not header:
        raise InvalidToken("the Authorization header is missing; send Authorization: Bearer <ACCESS_TOKEN>")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidToken(
            "the Authorization header is malformed; expected Authorization: Bearer <ACCESS_TOKEN>"
        )
    return token.strip()


async def _principal_for(runtime: Runtime, token: str) -> Principal:
    """The token's principal, remembered for a few seconds to spare a query per call."""
    key = hash_token(token)
    principal = runtime.principal_cache.fresh(key)
    if principal is None:

        async def lookup() -> Principal | None:
            async with runtime.db.read() as session:
                return await principals.principal_for_token(session, token)

        principal = await runtime.principal_cache.get(key, lookup)
    if principal is None:
        raise InvalidToken("the bearer token is unknown or has been revoked")
    return principal


def declare_bearer_auth(app: FastAPI, routers: list[APIRouter]) -> None:
    """Show in the OpenAPI document (and the Authorize button of /docs) that every operation using
    local_service takes a bearer token; the generator only sees security dependencies, which
    local_service does without."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            schema.setdefault("components", {})["securitySchemes"] = {"bearer": BEARER_SCHEME}
            for route in (route for router in routers for route in router.routes):
                if (
                    isinstance(route, APIRoute)
                    and route.include_in_schema
                    and _uses(route.dependant, local_service)
                ):
                    for method in route.methods:
                        schema["paths"][route.path_format][method.lower()].update(BEARER_SECURITY)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _uses(dependant: Dependant, call: Any) -> bool:
    return any(d.call is call or _uses(d, call) for d in dependant.dependencies)
