"""The web app's door: who may use the author's studio when it is reachable from a network.

`feedback-studio web` acts as the local user with every permission. On 127.0.0.1 that is right:
only this machine reaches it. Bound to any other address (a teacher letting a class try the tutor
from their phones), everyone on the network would get the author's rights, so the pages then ask
for a login, as Jupyter does: a random token printed in the start-up URL (or the password in
FEEDBACK_STUDIO_WEB_PASSWORD). The first request that carries it (``?token=…``) is remembered in
the browser's signed session cookie and redirected to the same page without it; a browser without
it gets a small login page. The API under the same app keeps its own bearer tokens: this door
stands only before the pages (NiceGUI's app), and compares secrets in constant time.

The browsers' stored choices (a remote's token typed into Settings among them) live in the
user's data directory, in a folder only its owner can read, never in the working directory.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from platformdirs import user_data_path
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from core.config import APP_NAME, Settings

SESSION_KEY = "studio_login"
PUBLIC_PREFIXES = ("/_nicegui/",)
"""The pages' static assets: scripts and styles, nothing of the author's."""


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach a server bound to ``host``."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name that resolves to who knows what: ask for the login


def login_secret(settings: Settings) -> str | None:
    """The secret that opens the pages, or None where no login is needed (loopback, not forced)."""
    if settings.web_password:
        return settings.web_password
    if settings.web_login or (settings.web_login is None and not is_loopback(settings.host)):
        return secrets.token_urlsafe(24)
    return None


def private_storage_path() -> Path:
    """Where NiceGUI keeps the browsers' storage: the user's data directory, owner-only."""
    path = user_data_path(APP_NAME, appauthor=False, ensure_exists=True) / "web-storage"
    path.mkdir(mode=0o700, exist_ok=True)
    path.chmod(0o700)
    return path


def use_private_storage() -> Path:
    """Point NiceGUI's storage there (before NiceGUI is imported, the environment does it too)."""
    path = private_storage_path()
    os.environ["NICEGUI_STORAGE_PATH"] = str(path)
    from nicegui.storage import Storage

    Storage.path = path
    return path


class LoginRequired:
    """ASGI middleware of NiceGUI's app, inside its session middleware (see the module doc)."""

    def __init__(self, app: ASGIApp, secret: str) -> None:
        self.app = app
        self.secret = secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session")
        if scope["type"] not in ("http", "websocket") or (session is not None and session.get(SESSION_KEY)):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode()))
        offered = query.pop("token", None)
        if (
            offered is not None
            and session is not None
            and hmac.compare_digest(offered.encode(), self.secret.encode())
        ):
            session[SESSION_KEY] = True
            target = scope["path"] + (f"?{urlencode(query)}" if query else "")
            await RedirectResponse(target, status_code=303)(scope, receive, send)
            return
        if scope["path"].startswith(PUBLIC_PREFIXES):
            await self.app(scope, receive, send)
            return
        await login_page(wrong=offered is not None)(scope, receive, send)


def login_page(*, wrong: bool) -> HTMLResponse:
    note = "<p class=wrong>That token or password is not right.</p>" if wrong else ""
    return HTMLResponse(
        f"""<!doctype html><html lang=en><head><meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1"><title>Feedback Studio · Log in</title>
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:12vh auto;padding:0 1rem;color:#1f2937}}
input,button{{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin-top:.5rem}}
button{{background:#4f46e5;color:#fff;border:0;border-radius:.375rem}}.wrong{{color:#b91c1c}}</style></head>
<body><h1>Feedback Studio</h1><p>This studio is open to the network, so it asks who you are. Enter the
token from the address the studio printed when it started, or its password.</p>{note}
<form method=get><label>Token or password<input name=token type=password autofocus required></label>
<button type=submit>Log in</button></form></body></html>""",
        status_code=401,
    )
