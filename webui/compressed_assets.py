"""The pages' scripts and styles compressed once, not once per browser.

NiceGUI's assets under ``/_nicegui/{version}/`` never change while a version runs (NiceGUI tells
browsers to cache them for a year). Its gzip middleware compresses each anew for every browser
that asks: a class's phones on their first visit, thirty at once, ask for 1.2 MB each. This
middleware, outside the gzip one, keeps the first compressed answer of each asset and sends the
same bytes to the next browser that asks for it compressed.
"""

from __future__ import annotations

from nicegui import __version__
from starlette.types import ASGIApp, Message, Receive, Scope, Send

IMMUTABLE = f"/_nicegui/{__version__}/"
"""What NiceGUI marks immutable (SetCacheControlMiddleware), except its dynamic resources."""
DYNAMIC = f"/_nicegui/{__version__}/dynamic_resources/"
Headers = list[tuple[bytes, bytes]]


class CompressedOnce:
    """ASGI middleware of NiceGUI's app, added after (outside) its gzip middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.kept: dict[str, tuple[Headers, bytes]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._cacheable(scope):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if (kept := self.kept.get(path)) is not None:
            headers, body = kept
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        start: Message = {}
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, keep)
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        if start.get("status") == 200 and (b"content-encoding", b"gzip") in [
            (k.lower(), v) for k, v in headers
        ]:
            body = b"".join(chunks)
            self.kept[path] = ([*headers, (b"content-length", str(len(body)).encode())], body)

    @staticmethod
    def _cacheable(scope: Scope) -> bool:
        """A plain GET of an immutable asset by a browser that takes gzip (no range, no condition)."""
        if scope["type"] != "http" or scope["method"] != "GET" or scope.get("query_string"):
            return False
        path: str = scope["path"]
        if not path.startswith(IMMUTABLE) or path.startswith(DYNAMIC):
            return False
        headers = dict(scope["headers"])
        asked = (b"range", b"if-none-match", b"if-modified-since")
        return b"gzip" in headers.get(b"accept-encoding", b"") and not any(h in headers for h in asked)
