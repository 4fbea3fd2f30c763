"""Typed dependencies of the routes: the runtime, the calling principal and its Service."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from core.api import InvalidToken
from core.auth import hash_token
from core.service.base import Service
from core.service.local import LocalService
from core.service.runtime import Runtime
from core.service.tokens import principal_for_token


async def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime  # Starlette's app state is untyped; create_app sets it
    return runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


async def local_service(request: Request) -> Service:
    """The caller's Service: the principal of its bearer token over the process's runtime.

    One dependency that reads the header itself, rather than a chain of runtime, HTTPBearer and
    principal: FastAPI resolves every dependency of a route on every call (tens of microseconds
    each), and this one is on every request. It is async because FastAPI would run a plain def
    in a worker thread. The service is built once per token and kept for a few seconds with its
    principal (Runtime.callers), not once per request.
    """
    runtime: Runtime = request.app.state.runtime  # Starlette's app state is untyped; create_app sets it
    return await _service_for(runtime, bearer_token(request.headers.get("authorization")))


ServiceDep = Annotated[Service, Depends(local_service)]


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


async def _service_for(runtime: Runtime, token: str) -> Service:
    """The token's principal's service, remembered for a few seconds to spare a query per call."""
    key = hash_token(token)
    service = runtime.callers.fresh(key)
    if service is None:

        async def lookup() -> Service | None:
            principal = await principal_for_token(runtime, token)
            return None if principal is None else LocalService(runtime, principal)

        service = await runtime.callers.get(key, lookup)
    if service is None:
        raise InvalidToken("the bearer token is unknown or has been revoked")
    return service
