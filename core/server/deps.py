"""Typed dependencies of the routes: the runtime, the calling principal and its Service."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from core.api import InvalidToken
from core.auth import Principal
from core.service.local import LocalService
from core.service.runtime import Runtime
from core.store import principals

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
    async with runtime.db.read() as session:
        principal = await principals.principal_for_token(session, credentials.credentials.strip())
    if principal is None:
        raise InvalidToken("the bearer token is unknown or has been revoked")
    return principal


PrincipalDep = Annotated[Principal, Depends(authenticate)]


def local_service(runtime: RuntimeDep, principal: PrincipalDep) -> LocalService:
    return LocalService(runtime, principal)


ServiceDep = Annotated[LocalService, Depends(local_service)]
