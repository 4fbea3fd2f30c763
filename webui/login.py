"""The web app's login: who may use the author's studio when it is reachable from a network.

`feedback-studio web` acts as the local user with every permission. On 127.0.0.1 that is right:
only this machine reaches it. Bound to any other address (a teacher letting a class try the tutor
from their phones), everyone on the network would get the author's rights, so the pages then ask
for a login, as Jupyter does: a random token printed in the start-up URL (or the password in
FEEDBACK_STUDIO_WEB_PASSWORD). The first request that carries it (``?token=…``) is remembered in
the browser's signed session cookie and redirected to the same page without it; a browser without
it gets a small login page. The API under the same app keeps its own bearer tokens: this login
stands only before the pages (NiceGUI's app), and compares secrets in constant time.

The browsers' stored choices (a remote's token typed into Settings among them) live in the
user's data directory, in a folder only its owner can read, never in the working directory.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import ifaddr
from platformdirs import user_data_path
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from core.client.i18n import N_, SOURCE_LANGUAGE, accepted, translate
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


WILDCARDS = ("0.0.0.0", "::", "")
"""Hosts that bind every address of the machine: nobody can open a page at them."""


def machine_addresses(host: str, adapters: Iterable[Any] | None = None) -> list[str]:
    """Where a server bound to ``host`` can be opened: the host itself, or for a wildcard every
    address of the machine (IPv6 ones too for "::"), those other machines reach first, loopback
    last. ``adapters`` are ifaddr's (the machine's own by default)."""
    bare = host.strip("[]")
    if bare not in WILDCARDS:
        return [bare]
    found: list[str] = []
    for adapter in ifaddr.get_adapters() if adapters is None else adapters:
        for ip in adapter.ips:
            if ip.is_IPv4:
                found.append(str(ip.ip))
            elif bare == "::":
                address = ipaddress.ip_address(ip.ip[0])
                if not address.is_link_local:  # fe80:: needs the interface's name: no use in a URL
                    found.append(str(address))
    unique = list(dict.fromkeys(found))
    reachable = sorted((a for a in unique if not ipaddress.ip_address(a).is_loopback), key=_address_order)
    local = [a for a in unique if ipaddress.ip_address(a).is_loopback] or ["127.0.0.1"]
    return reachable + local[:1]


def _address_order(address: str) -> tuple[int, str]:
    return (ipaddress.ip_address(address).version, address)


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def startup_lines(settings: Settings, secret: str | None, adapters: Iterable[Any] | None = None) -> list[str]:
    """What `feedback-studio web` prints when it starts: the address of the pages, one line per
    address of the machine where the server listens on all of them (0.0.0.0 opens nowhere, least
    of all on a phone), with the token where the pages ask for one; then who can reach them."""
    page = "/learn" if settings.learner_tasks else "/"
    token = f"?token={secret}" if secret and not settings.web_password else ""
    if settings.public_base_url:
        bases = [settings.base_url]
    else:
        bases = [f"http://{_url_host(a)}:{settings.port}" for a in machine_addresses(settings.host, adapters)]
    mode = "learner mode: the chosen tasks only" if settings.learner_tasks else "web app and API"
    if len(bases) == 1:
        lines = [f"Feedback Studio, {mode}: {bases[0]}{page}{token} (OpenAPI at {bases[0]}/docs)"]
    else:
        lines = [f"Feedback Studio, {mode}, at each address of this machine:"]
        lines += [
            f"  {base}{page}{token}"
            + (" (this machine only)" if is_loopback(base.split("//")[1].rsplit(":", 1)[0]) else "")
            for base in bases
        ]
        lines.append(f"OpenAPI at {bases[0]}/docs")
    if secret:
        asks = "the password (FEEDBACK_STUDIO_WEB_PASSWORD)" if settings.web_password else "the token above"
        lines.append(
            f"Reachable from the network at {settings.host}: the pages ask for {asks}; the API takes its tokens."
        )
    return lines


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


LOGIN_BODY_BYTES = 8 * 1024
"""The most of a login form's body the login reads: a token or a password, nothing more."""


class LoginRequired:
    """ASGI middleware of NiceGUI's app, inside its session middleware (see the module doc).

    The login form posts the secret (never in a URL, so not in the browser's history or a
    proxy's log) to the address the user asked for, whose query (``?tab=Versions``) it keeps; the
    start-up link's ``?token=`` is taken once and redirected away."""

    def __init__(self, app: ASGIApp, secret: str, language: str = SOURCE_LANGUAGE) -> None:
        self.app = app
        self.secret = secret
        self.language = language
        """The studio's language (FEEDBACK_STUDIO_UI_LANGUAGE), for a browser that names none of its own."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session")
        if scope["type"] not in ("http", "websocket") or (session is not None and session.get(SESSION_KEY)):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["path"].startswith(PUBLIC_PREFIXES):
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode(), keep_blank_values=True)
        kept = [(key, value) for key, value in query if key != "token"]
        target = scope["path"] + (f"?{urlencode(kept)}" if kept else "")
        offered = next((value for key, value in query if key == "token"), None)
        if offered is None and scope["method"] == "POST":
            offered = await _posted_secret(scope, receive)
        if (
            offered is not None
            and session is not None
            and hmac.compare_digest(offered.encode(), self.secret.encode())
        ):
            session[SESSION_KEY] = True
            await RedirectResponse(target, status_code=303)(scope, receive, send)
            return
        language = accepted(dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1"))
        page = login_page(wrong=offered is not None, action=target, language=language or self.language)
        await page(scope, receive, send)


async def _posted_secret(scope: Scope, receive: Receive) -> str | None:
    """The ``token`` field of a posted login form, or None (another body, or one too big)."""
    headers = dict(scope.get("headers", []))
    if not headers.get(b"content-type", b"").startswith(b"application/x-www-form-urlencoded"):
        return None
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > LOGIN_BODY_BYTES:
            return None
        if not message.get("more_body", False):
            break
    fields = dict(parse_qsl(body.decode("utf-8", "replace")))
    return fields.get("token")


LOGIN_TITLE = N_("Log in")
LOGIN_WHY = N_(
    "This studio is open to the network, so it asks who you are. Enter the token from the address "
    "the studio printed when it started, or its password."
)
LOGIN_WRONG = N_("That token or password is not right.")
LOGIN_FIELD = N_("Token or password")


def login_page(*, wrong: bool, action: str = "", language: str = SOURCE_LANGUAGE) -> HTMLResponse:
    """The login page in ``language`` (the browser's, as the login reads it from its request)."""

    def say(message: str) -> str:
        return html.escape(translate(language, message))

    note = f"<p class=wrong>{say(LOGIN_WRONG)}</p>" if wrong else ""
    return HTMLResponse(
        f"""<!doctype html><html lang={language}><head><meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1"><title>Feedback Studio · {say(LOGIN_TITLE)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:12vh auto;padding:0 1rem;color:#1f2937}}
input,button{{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin-top:.5rem}}
button{{background:#4f46e5;color:#fff;border:0;border-radius:.375rem}}.wrong{{color:#b91c1c}}</style></head>
<body><h1>Feedback Studio</h1><p>{say(LOGIN_WHY)}</p>{note}
<form method=post action="{html.escape(action, quote=True)}"><label>{say(LOGIN_FIELD)}
<input name=token type=password autocomplete=current-password autofocus required></label>
<button type=submit>{say(LOGIN_TITLE)}</button></form></body></html>""",
        status_code=401,
        headers={"Cache-Control": "no-store"},
    )
