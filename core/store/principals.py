"""Tenants, principals, their grants and tokens; webhook tokens and received webhook events."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.auth import Permission, Principal, hash_token, hashes_match
from core.store import models as m
from core.store.common import insert_for


async def ensure_tenant(session: AsyncSession, tenant_id: str, name: str | None = None) -> None:
    stmt = insert_for(session, m.Tenant).values(id=tenant_id, name=name or tenant_id, created_at=m.utcnow())
    await session.execute(stmt.on_conflict_do_nothing(index_elements=["id"]))


async def create_principal(
    session: AsyncSession, name: str, tenant_id: str, permissions: frozenset[Permission], token: str
) -> str:
    """A new principal with permissions on one tenant, reachable by the given bearer token."""
    await ensure_tenant(session, tenant_id)
    principal_id = str(uuid.uuid4())
    session.add(m.Principal(id=principal_id, name=name, default_tenant_id=tenant_id, created_at=m.utcnow()))
    await session.flush()
    session.add(
        m.Grant(
            principal_id=principal_id,
            tenant_id=tenant_id,
            can_access=Permission.ACCESS in permissions,
            can_write=Permission.WRITE in permissions,
            can_delete=Permission.DELETE in permissions,
        )
    )
    session.add(
        m.ApiToken(
            id=str(uuid.uuid4()),
            principal_id=principal_id,
            name=name,
            token_hash=hash_token(token),
            created_at=m.utcnow(),
        )
    )
    return principal_id


async def grant(
    session: AsyncSession, principal_id: str, tenant_id: str, permissions: frozenset[Permission]
) -> None:
    await ensure_tenant(session, tenant_id)
    row = await session.get(m.Grant, (principal_id, tenant_id))
    if row is None:
        row = m.Grant(principal_id=principal_id, tenant_id=tenant_id)
        session.add(row)
    row.can_access = Permission.ACCESS in permissions
    row.can_write = Permission.WRITE in permissions
    row.can_delete = Permission.DELETE in permissions


async def principal_for_token(session: AsyncSession, token: str) -> Principal | None:
    token_hash = hash_token(token)
    found = (
        await session.execute(
            select(m.ApiToken, m.Principal)
            .join(m.Principal, m.Principal.id == m.ApiToken.principal_id)
            .where(m.ApiToken.token_hash == token_hash)
        )
    ).first()
    if found is None or not hashes_match(found[0].token_hash, token):
        return None
    principal = found[1]
    grants = (await session.execute(select(m.Grant).where(m.Grant.principal_id == principal.id))).scalars()
    return Principal(
        id=principal.id,
        name=principal.name,
        default_tenant=principal.default_tenant_id,
        grants={g.tenant_id: _permissions_of(g) for g in grants},
    )


def _permissions_of(row: m.Grant) -> frozenset[Permission]:
    flags = {
        Permission.ACCESS: row.can_access,
        Permission.WRITE: row.can_write,
        Permission.DELETE: row.can_delete,
    }
    return frozenset(p for p, on in flags.items() if on)


async def create_webhook_token(session: AsyncSession, tenant_id: str, token: str) -> None:
    await ensure_tenant(session, tenant_id)
    session.add(
        m.WebhookToken(
            id=str(uuid.uuid4()), tenant_id=tenant_id, token_hash=hash_token(token), created_at=m.utcnow()
        )
    )


async def tenant_for_webhook_token(session: AsyncSession, token: str) -> str | None:
    row = (
        await session.execute(select(m.WebhookToken).where(m.WebhookToken.token_hash == hash_token(token)))
    ).scalar_one_or_none()
    if row is None or not hashes_match(row.token_hash, token):
        return None
    return row.tenant_id


async def record_webhook_event(session: AsyncSession, tenant_id: str, event: str, payload: Any) -> str:
    event_id = str(uuid.uuid4())
    session.add(
        m.WebhookEvent(
            id=event_id,
            tenant_id=tenant_id,
            event=event,
            payload={"event": event, "data": payload},
            received_at=m.utcnow(),
        )
    )
    return event_id
