"""Tenants, principals, their grants and tokens; webhook tokens and received webhook events."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Connection, insert, select

from core.auth import Permission, Principal, hash_token, hashes_match
from core.store import models as m
from core.store.common import insert_for

_tables = m.Base.metadata.tables
_tenants = _tables[m.Tenant.__tablename__]
_principals = _tables[m.Principal.__tablename__]
_grants = _tables[m.Grant.__tablename__]
_api_tokens = _tables[m.ApiToken.__tablename__]
_webhook_tokens = _tables[m.WebhookToken.__tablename__]
_webhook_events = _tables[m.WebhookEvent.__tablename__]


def ensure_tenant(connection: Connection, tenant_id: str, name: str | None = None) -> None:
    """The tenant, created if it does not exist yet."""
    stmt = insert_for(connection, _tenants).values(
        id=tenant_id, name=name or tenant_id, created_at=m.utcnow()
    )
    connection.execute(stmt.on_conflict_do_nothing(index_elements=["id"]))


def create_principal(
    connection: Connection, name: str, tenant_id: str, permissions: frozenset[Permission], token: str
) -> str:
    """A new principal with permissions on one tenant, reachable by the given bearer token; its id."""
    ensure_tenant(connection, tenant_id)
    principal_id = str(uuid.uuid4())
    now = m.utcnow()
    connection.execute(
        insert(_principals).values(id=principal_id, name=name, default_tenant_id=tenant_id, created_at=now)
    )
    grant(connection, principal_id, tenant_id, permissions)
    connection.execute(
        insert(_api_tokens).values(
            id=str(uuid.uuid4()),
            principal_id=principal_id,
            name=name,
            token_hash=hash_token(token),
            created_at=now,
        )
    )
    return principal_id


def grant(
    connection: Connection, principal_id: str, tenant_id: str, permissions: frozenset[Permission]
) -> None:
    """Give the principal exactly these permissions on the tenant (created if new)."""
    ensure_tenant(connection, tenant_id)
    flags = dict(
        can_access=Permission.ACCESS in permissions,
        can_write=Permission.WRITE in permissions,
        can_delete=Permission.DELETE in permissions,
    )
    stmt = insert_for(connection, _grants).values(principal_id=principal_id, tenant_id=tenant_id, **flags)
    connection.execute(stmt.on_conflict_do_update(index_elements=["principal_id", "tenant_id"], set_=flags))


def principal_for_token(connection: Connection, token: str) -> Principal | None:
    """The principal the bearer token names, with its grants; None for an unknown token."""
    found = connection.execute(
        select(_api_tokens.c.token_hash, _principals)
        .join(_principals, _principals.c.id == _api_tokens.c.principal_id)
        .where(_api_tokens.c.token_hash == hash_token(token))
    ).first()
    if found is None or not hashes_match(found.token_hash, token):
        return None
    grants = connection.execute(select(_grants).where(_grants.c.principal_id == found.id))
    return Principal(
        id=found.id,
        name=found.name,
        default_tenant=found.default_tenant_id,
        grants={g.tenant_id: _permissions_of(g) for g in grants},
    )


def _permissions_of(row: Any) -> frozenset[Permission]:
    flags = {
        Permission.ACCESS: row.can_access,
        Permission.WRITE: row.can_write,
        Permission.DELETE: row.can_delete,
    }
    return frozenset(p for p, on in flags.items() if on)


def create_webhook_token(connection: Connection, tenant_id: str, token: str) -> None:
    ensure_tenant(connection, tenant_id)
    connection.execute(
        insert(_webhook_tokens).values(
            id=str(uuid.uuid4()), tenant_id=tenant_id, token_hash=hash_token(token), created_at=m.utcnow()
        )
    )


def tenant_for_webhook_token(connection: Connection, token: str) -> str | None:
    """The tenant the webhook token names, or None for an unknown token."""
    row = connection.execute(
        select(_webhook_tokens.c.token_hash, _webhook_tokens.c.tenant_id).where(
            _webhook_tokens.c.token_hash == hash_token(token)
        )
    ).first()
    if row is None or not hashes_match(row.token_hash, token):
        return None
    tenant: str = row.tenant_id
    return tenant


def record_webhook_event(connection: Connection, tenant_id: str, event: str, payload: Any) -> str:
    """The event as received; its id."""
    event_id = str(uuid.uuid4())
    connection.execute(
        insert(_webhook_events).values(
            id=event_id,
            tenant_id=tenant_id,
            event=event,
            payload={"event": event, "data": payload},
            received_at=m.utcnow(),
        )
    )
    return event_id
