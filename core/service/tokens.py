"""Bearer and webhook tokens: who a token names, and making new ones (the server's authentication
and the command's `token create` / `webhook create` reach the store through these)."""

from __future__ import annotations

from functools import partial

from core.auth import Permission, Principal, new_token
from core.service.runtime import Runtime
from core.store import principals


async def principal_for_token(runtime: Runtime, token: str) -> Principal | None:
    """The principal a bearer token names, with its grants; None for an unknown or revoked token."""
    return await runtime.db.run_read(partial(principals.principal_for_token, token=token))


async def create_token(
    runtime: Runtime, name: str, tenant_id: str, permissions: frozenset[Permission]
) -> str:
    """A new principal named `name` with the permissions on the tenant; its new bearer token."""
    token = new_token("fs")
    await runtime.db.run_write(
        partial(
            principals.create_principal, name=name, tenant_id=tenant_id, permissions=permissions, token=token
        )
    )
    return token


async def create_webhook_token(runtime: Runtime, tenant_id: str) -> str:
    """A new webhook token of the tenant."""
    token = new_token("wh")
    await runtime.db.run_write(partial(principals.create_webhook_token, tenant_id=tenant_id, token=token))
    return token
