"""Principals, permissions per tenant, and tokens.

Bearer and webhook tokens are random 256-bit secrets; only their SHA-256 is stored. A fast hash
is right here because the secret has full entropy (nothing to brute-force), and a lookup by hash
keeps authentication to one indexed query; the found hash is compared again in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from enum import StrEnum

from core.api import InvalidParameter, MissingPermissions

LOCAL_PRINCIPAL_ID = "local"


class Permission(StrEnum):
    ACCESS = "access"  # compute, rate, simulate, chat, read
    WRITE = "write"  # upsert tasks, tutors, graded answers
    DELETE = "delete"  # delete tasks


ALL_PERMISSIONS = frozenset(Permission)


@dataclass(frozen=True)
class Principal:
    id: str
    name: str
    default_tenant: str
    grants: dict[str, frozenset[Permission]] = field(default_factory=dict)

    def tenant(self, tenant_id: str | None) -> str:
        """The tenant addressed, or the principal's default one when none is given."""
        return tenant_id or self.default_tenant

    def can(self, tenant_id: str, permission: Permission) -> bool:
        return permission in self.grants.get(tenant_id, frozenset())

    def require(self, tenant_id: str, permission: Permission = Permission.ACCESS) -> None:
        if not self.can(tenant_id, Permission.ACCESS):
            raise MissingPermissions(f"no access to tenant {tenant_id!r}")
        if not self.can(tenant_id, permission):
            raise MissingPermissions(
                f"the permission {permission.value!r} on tenant {tenant_id!r} is missing"
            )


def local_principal(tenant_id: str) -> Principal:
    """The embedded default: one user with every permission on the default tenant."""
    return Principal(LOCAL_PRINCIPAL_ID, "local user", tenant_id, {tenant_id: ALL_PERMISSIONS})


def parse_permissions(names: list[str] | None) -> frozenset[Permission]:
    """Permissions by name; ACCESS is implied by any other, and the default is ACCESS alone."""
    try:
        chosen = {Permission(n) for n in names or [Permission.ACCESS.value]}
    except ValueError:
        raise InvalidParameter(
            f"permissions must be among {', '.join(p.value for p in Permission)}"
        ) from None
    return frozenset(chosen | {Permission.ACCESS})


def new_token(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hashes_match(stored_hash: str, token: str) -> bool:
    return hmac.compare_digest(stored_hash, hash_token(token))
