"""Conditional task upserts on the wire (extension, docs/architecture.md): HTTP preconditions.

An editor saves on top of the version it opened. GET /tenants/{t}/tasks/{id} answers with an ETag
of the task's version; POST /tenants/{t}/tasks with ``If-Match: "<version>"`` writes only if that
version is still the stored one, and with ``If-None-Match: *`` only if no task has the id yet.
Otherwise 412 with the error body, and nothing is written. Without either header the upsert is
unconditional, as API.md has it.
"""

from __future__ import annotations

from core.api.errors import InvalidParameter


def etag(version: int) -> str:
    return f'"{version}"'


def precondition_headers(expected_version: int | None) -> dict[str, str]:
    """The headers that make an upsert conditional on ``expected_version`` (0: create only)."""
    if expected_version is None:
        return {}
    if expected_version == 0:
        return {"If-None-Match": "*"}
    return {"If-Match": etag(expected_version)}


def expected_version_of(if_match: str | None, if_none_match: str | None) -> int | None:
    """The version a request's precondition headers ask for (0: none may exist), or None."""
    if if_none_match is not None:
        if if_none_match.strip() != "*":
            raise InvalidParameter('If-None-Match takes only "*" (create the task only if its id is free)')
        return 0
    if if_match is None:
        return None
    tag = if_match.strip().removeprefix("W/").strip('"')
    if not tag.isdigit() or int(tag) < 1:
        raise InvalidParameter(f'If-Match takes the task\'s version as its ETag, e.g. "3"; got {if_match!r}')
    return int(tag)
