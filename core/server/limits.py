"""Request body limits, enforced by the server's middleware (core.server.middleware) while the body is read
and before any route runs (so before the token is checked): its size (413) and, for JSON, how
deeply it nests and whether it holds what JSON does not (NaN, Infinity, a lone UTF-16 surrogate;
Python's parser accepts them, a database or another client does not): 400
REQUEST_SCHEMA_MALFORMED. All answer with the API's error body.

Nesting matters because Python's parser and validators recurse: about a thousand levels used to
end in a RecursionError, a 500, on any route. No body of this API nests anywhere near
:data:`MAX_JSON_DEPTH`.
"""

from __future__ import annotations

import json
import re

from starlette.types import Message, Receive, Scope, Send

from core.api import PayloadTooLarge, SchemaMalformed, ServiceError

MAX_JSON_DEPTH = 64
"""Objects and arrays within each other; a task definition with aspects reaches about 5."""


def json_too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text nests objects and arrays more than ``limit`` deep (brackets inside
    strings do not count). Bodies with fewer brackets than the limit cannot, and cost two counts."""
    if body.count(b"{") + body.count(b"[") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x7B, 0x5B):  # { [
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x7D, 0x5D):  # } ]
            depth -= 1
    return False


_NOT_JSON = (b"NaN", b"Infinity")
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def json_outside_standard(body: bytes) -> str | None:
    """What the body holds that standard JSON does not, or None. The common body, without those
    letters, costs three searches; a suspicious one is parsed to be sure (the letters may sit in a
    string)."""
    if not any(token in body for token in _NOT_JSON) and not _SURROGATE.search(body):
        return None
    try:
        document = json.loads(body, parse_constant=_refuse_constant)
    except _NonStandard as exc:
        return str(exc)
    except (ValueError, RecursionError):
        return None  # not JSON at all: the route's own parser says so
    return "a lone UTF-16 surrogate in a string" if _has_lone_surrogate(document) else None


class _NonStandard(ValueError):
    pass


def _refuse_constant(name: str) -> None:
    raise _NonStandard(f"{name} is not a JSON number")


def _has_lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


BODYLESS = ("GET", "HEAD", "OPTIONS")
"""Methods whose requests are not read here (they carry no body this API reads)."""


async def read_body(scope: Scope, receive: Receive, max_bytes: int) -> Receive | ServiceError:
    """Read the request's body and check it: the error to answer with (413, or 400 for JSON that
    nests too deeply or is not standard), or a `receive` that hands the app the same messages.

    The body is read here first (the app would read it whole anyway), so that an oversized or too
    deeply nested one is refused before the app parses any of it."""
    declared = next((value for name, value in scope["headers"] if name == b"content-length"), None)
    if max_bytes > 0 and declared is not None and declared.isdigit() and int(declared) > max_bytes:
        # The server reads no more than the declared length, so the declaration is the size.
        return PayloadTooLarge(_too_large(max_bytes))
    messages: list[Message] = []
    chunks: list[bytes] = []
    received = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        chunks.append(chunk)
        received += len(chunk)
        if 0 < max_bytes < received:
            return PayloadTooLarge(_too_large(max_bytes))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if json_too_deep(body):
        return SchemaMalformed(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")
    if (problem := json_outside_standard(body)) is not None:
        return SchemaMalformed(f"the body is not standard JSON: {problem}")

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return replay


def _too_large(max_bytes: int) -> str:
    return f"the request body is larger than the limit of {max_bytes} bytes"


async def refuse(send: Send, error: ServiceError) -> None:
    body = json.dumps(error.body().model_dump()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
