"""Typed dependencies of the routes: the runtime, the calling principal and its Service."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from core.api import InvalidToken
from core.auth import Principal, hash_token
from core.service.local import LocalService
from core.service.runtime import Runtime
from core.store import principals

PRINCIPAL_TTL_SECONDS = 5.0
bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <ACCESS_TOKEN>")


def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


async def authenticate(
    request: Request,
    runtime: RuntimeDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Principal:
    header = request.headers.get("authorization")
    if not header:
        raise InvalidToken("the Authorization header is missing; send Authorization: Bearer <ACCESS_TOKEN>")
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials.strip():
        raise InvalidToken(
            "the Authorization header is malformed; expected Authorization: Bearer <ACCESS_TOKEN>"
        )
    return await _principal_for(runtime, credentials.credentials.strip())


async def _principal_for(runtime: Runtime, token: str) -> Principal:
    """The token's principal; known ones are remembered for a few seconds to spare a query per call.

    A revoked token or a changed grant is therefore noticed within PRINCIPAL_TTL_SECONDS.
    """
    cache = runtime.principal_cache
    key = hash_token(token)
    cached = cache.get(key)
    if cached is not None and cached[1] > time.monotonic():
        return cached[0]
    async with runtime.db.read() as session:
        principal = await principals.principal_for_token(session, token)
    if principal is None:
        raise InvalidToken("the bearer token is unknown or has been revoked")
    cache.put(key, (principal, time.monotonic() + PRINCIPAL_TTL_SECONDS))
    return principal


PrincipalDep = Annotated[Principal, Depends(authenticate)]


def local_service(runtime: RuntimeDep, principal: PrincipalDep) -> LocalService:
    return LocalService(runtime, principal)


ServiceDep = Annotated[LocalService, Depends(local_service)]
