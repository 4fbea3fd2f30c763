"""The composition root of the web app: the API app with the NiceGUI pages mounted on it.

`feedback-studio web` serves what create_web_app returns. The pages share the API's Runtime
(opened by the API's lifespan, which NiceGUI's run_with wraps: NiceGUI starts first, then the
API's lifespan opens app.state.runtime, all before the first request), so the embedded service
and the HTTP API see one database and one set of caches. This module is the only part of the web
app that knows LocalService and the local principal; every page speaks to the Service protocol.

NiceGUI keeps its pages in one process-wide app, so a process holds one web app at a time.
"""

from __future__ import annotations

import secrets

from fastapi import FastAPI
from nicegui import app as nicegui_app
from nicegui import ui
from platformdirs import user_data_path

from core.auth import local_principal
from core.client.deadlines import open_remote
from core.client.i18n import ui_language
from core.config import APP_NAME, Settings
from core.server.app import create_app
from core.service import Service
from core.service.local import LocalService
from webui import pages
from webui.compressed_assets import CompressedOnce
from webui.i18n import set_default
from webui.login import LoginRequired, login_secret, use_private_storage
from webui.page_services import Connection, PageServices, ServiceOpener
from webui.pages.learner import LearnersOnly
from webui.theme import APP_TITLE, FAVICON, use_shared_css


def create_web_app(settings: Settings) -> FastAPI:
    """The API with the pages on it; ``app.state.login_secret`` opens the pages where they ask for
    a login (webui.login), else it is None."""
    use_private_storage()
    api = create_app(settings)
    studio = PageServices(settings, _service_opener(api, settings))
    set_default(settings.ui_language)
    use_shared_css()
    pages.register(studio)
    api.state.login_secret = login_secret(settings)
    if settings.learner_tasks:
        nicegui_app.add_middleware(LearnersOnly)
    if api.state.login_secret is not None:
        nicegui_app.add_middleware(
            LoginRequired, secret=api.state.login_secret, language=ui_language(settings.ui_language)
        )  # inside the session
    ui.run_with(
        api,
        title=APP_TITLE,
        favicon=FAVICON,
        dark=None,  # follow the system until the user picks a mode (kept per browser)
        storage_secret=_storage_secret(),
        show_welcome_message=False,
        reconnect_timeout=RECONNECT_SECONDS,
    )
    nicegui_app.add_middleware(CompressedOnce)  # outside the gzip middleware run_with added
    return api


RECONNECT_SECONDS = 30.0
"""How long a page that lost its connection is kept for its browser to come back (NiceGUI's
default is 3 s). A phone on a school's Wi-Fi loses it for seconds as it roams between access
points or its radio sleeps; within these it reconnects to the same page, what was typed and the
feedback intact (past them, webui.components.drafts puts the typed text back). NiceGUI derives
the socket's heartbeat from it: a ping every 24 s, to be answered within 12 s (at the default,
every 4 s within 2 s, which a busy classroom network or a server judging a class's answers
misses, and the page shows "Connection lost")."""


def _service_opener(api: FastAPI, settings: Settings) -> ServiceOpener:
    """How a page gets its Service: a LocalService on the API's Runtime, or a (cached) remote."""
    remotes: dict[Connection, Service] = {}

    async def open_service(connection: Connection) -> Service:
        if not connection.is_remote:
            return LocalService(api.state.runtime, local_principal(settings.default_tenant))
        if connection not in remotes:
            # a remote that hangs is not waited for: opened within 5 s, then each call bounded
            opened = await open_remote(
                settings.model_copy(update={"remote_url": connection.remote_url, "token": connection.token})
            )
            if connection in remotes:  # another page opened it meanwhile: one per connection
                await opened.aclose()
            else:
                remotes[connection] = opened
        return remotes[connection]

    @nicegui_app.on_shutdown
    async def close_remotes() -> None:
        for service in remotes.values():
            await service.aclose()
        remotes.clear()

    return open_service


def _storage_secret() -> str:
    """The key of the browsers' session cookies, made once and kept in the user's data directory.

    A lasting secret keeps each browser's choices (dark mode, connection) across restarts.
    """
    path = user_data_path(APP_NAME, appauthor=False, ensure_exists=True) / "web-session-secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()
