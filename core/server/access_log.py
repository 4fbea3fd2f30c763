"""One structured access-log line per request, at INFO (the level a production server keeps on).

Written by the server's middleware (core.server.middleware), which every request passes first, so that the
line has the status the client got (413, 429 and 500 included) and the whole time the request
took (a streamed tutor chat: until its last event). The line is JSON: {method, path, status, ms,
client, interactionId?}. It replaces uvicorn's own access log (core.cli turns that off), which is
prepared and formatted in the server for every request; when INFO is dropped, the middleware makes one
level check.

The record is made and handed to the logger's handlers directly (Logger.makeRecord, handle):
Logger.info would first walk the stack to find the calling line, which for this logger is
always the same line of this module.
"""

from __future__ import annotations

import logging
import time
from json.encoder import encode_basestring_ascii as json_string

from starlette.types import Message, Scope

log = logging.getLogger("feedback_studio.access")
INTERACTION_HEADER = b"x-interaction-id"


def interaction_of(message: Message) -> bytes | None:
    """The interaction id a response's start names in its headers, if any."""
    for name, value in message.get("headers", ()):
        if name == INTERACTION_HEADER:
            return value  # type: ignore[no-any-return]
    return None


def log_request(scope: Scope, status: int, started: float, interaction: bytes | None) -> None:
    """The request's line, `started` being its time.perf_counter() when it came in."""
    client = scope.get("client")
    line = access_line(
        scope["method"],
        scope["path"],
        status,
        round((time.perf_counter() - started) * 1000, 2),
        client[0] if client else None,
        interaction,
    )
    log.handle(log.makeRecord(log.name, logging.INFO, __file__, 0, line, (), None))


def access_line(
    method: str, path: str, status: int, ms: float, client: str | None, interaction: bytes | None
) -> str:
    """The line's JSON, as json.dumps writes the object {method, path, status, ms, client,
    interactionId?}, put together directly (a quarter of json.dumps's time for this one shape)."""
    line = (
        f'{{"method": {json_string(method)}, "path": {json_string(path)}, "status": {status}, '
        f'"ms": {ms!r}, "client": {"null" if client is None else json_string(client)}'
    )
    if interaction is None:
        return line + "}"
    return f'{line}, "interactionId": {json_string(interaction.decode("latin-1"))}}}'
