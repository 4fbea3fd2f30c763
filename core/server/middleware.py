"""The server's middleware: the one pure ASGI layer that every request passes before FastAPI's own.

It does, in this order, what four middlewares did one inside the other (each layer cost every
request a coroutine, and most of them a wrapper of `send` for every message; docs/performance.md):

1. the access log (core.server.access_log): first, so that its line has the status the client
   got (413, 429 and 500 included) and the whole time the request took (a streamed tutor chat:
   until its last event);
2. the rate limit (core.server.ratelimit), when one is set;
3. the body limits (core.server.limits): the body is read here, and refused before any route
   parses it (or the token is checked);
4. internal errors (core.server.errors): an exception a route lets through is answered 500
   INTERNAL, logged with its error id, and the connection stays usable.

Each part keeps its rules in its own module; this class puts them in order.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.api import ServiceError
from core.server import access_log, errors, limits, ratelimit


class RequestMiddleware:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, rate_limit_per_minute: int = 0) -> None:
        self.app = app
        self.max_bytes = max_body_bytes
        self.buckets = ratelimit.TokenBuckets(rate_limit_per_minute) if rate_limit_per_minute > 0 else None
        """The rate limit's buckets; None when no limit is set."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        logged = access_log.log.isEnabledFor(logging.INFO)
        started = time.perf_counter()
        status = 500  # what the client sees if the app fails before answering
        answered = False
        interaction: bytes | None = None

        async def send_on(message: Message) -> None:
            nonlocal status, answered, interaction
            if message["type"] == "http.response.start":
                answered = True
                status = message["status"]
                if logged:
                    interaction = access_log.interaction_of(message)
            await send(message)

        try:
            refusal = ratelimit.refusal(self.buckets, scope) if self.buckets is not None else None
            if refusal is not None:
                await errors.error_response(refusal)(scope, receive, send_on)
                return
            if scope["method"] not in limits.BODYLESS:
                read = await limits.read_body(scope, receive, self.max_bytes)
                if isinstance(read, ServiceError):
                    await limits.refuse(send_on, read)
                    return
                receive = read
            try:
                await self.app(scope, receive, send_on)
            except Exception as exc:
                await errors.answer_failure(exc, answered, scope, receive, send_on)
        finally:
            if logged:
                access_log.log_request(scope, status, started, interaction)
