"""Request body limits as a pure ASGI middleware, enforced while the body is read and before any
route runs (so before the token is checked): its size (413) and, for JSON, how deeply it nests
(400 REQUEST_SCHEMA_MALFORMED). Both answer with the API's error body.

Nesting matters because Python's parser and validators recurse: about a thousand levels used to
end in a RecursionError, a 500, on any route. No body of this API nests anywhere near
:data:`MAX_JSON_DEPTH`.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class BodyLimits:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        if (
            self.max_bytes > 0
            and declared is not None
            and declared.isdigit()
            and int(declared) > self.max_bytes
        ):
            # The server reads no more than the declared length, so the declaration is the size.
            await _refuse(send, PayloadTooLarge(self._too_large()))
            return
        # The body is read here first (the app would read it whole anyway), so that an oversized
        # or too deeply nested one is refused before the app parses any of it.
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
            if 0 < self.max_bytes < received:
                await _refuse(send, PayloadTooLarge(self._too_large()))
                return
            if not message.get("more_body", False):
                break
        if json_too_deep(b"".join(chunks)):
            await _refuse(send, SchemaMalformed(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels"))
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return f"the request body is larger than the limit of {self.max_bytes} bytes"


async def _refuse(send: Send, error: ServiceError) -> None:
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
