"""What every page needs: the settings and the Service of the connection the browser has chosen.

create_web_app builds one PageServices and hands it to every page's ``register``; nothing here is kept
in module globals, because NiceGUI's test harness re-imports page modules between tests and module
state would split in two. The Service is opened per page through ``open_service``, a function the
composition root (webui.main) supplies: the UI itself never knows whether it is local or remote.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from nicegui import app, ui

from core.api import ServiceError, TaskDefinition
from core.client.deadlines import failure_words
from core.client.library import TaskLibrary
from core.config import Settings
from core.service import Service
from webui.i18n import _

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Connection:
    """Where the browser's requests go: the embedded service (no URL) or a remote server of the API."""

    remote_url: str | None = None
    token: str | None = None

    @property
    def is_remote(self) -> bool:
        return bool(self.remote_url)

    @property
    def label(self) -> str:
        return self.remote_url or "embedded service"


ServiceOpener = Callable[[Connection], Awaitable[Service]]

BUILD_SECONDS = 60
"""How long a page that reads the service while it is built may take (NiceGUI's response_timeout):
more than the deadlines of the calls a page makes in a row (core.client.deadlines: 5 s to open a
remote, 10 s a call, 20 s a retest; the task page opened on its Retest tab makes all of them), so a
slow remote's page is built and a hung remote's says within seconds that it does not answer
(its first call fails), never NiceGUI's error page."""


@dataclass(frozen=True)
class PageServices:
    """What the pages share: the settings and how to open the Service of this browser's choice."""

    settings: Settings
    open_service: ServiceOpener
    remembered: dict[tuple[Connection, str], dict[str, TaskDefinition]] = field(default_factory=dict)
    """The tasks saved through each remote without the extensions, per tenant: all such a remote
    can list (core.client.library); kept while the server runs, for every browser on it."""

    @property
    def default_connection(self) -> Connection:
        return Connection(self.settings.remote_url, self.settings.token)

    def connection(self) -> Connection:
        """The browser's choice (kept in its user storage), else what the command line chose;
        learners get what the command line chose, always."""
        saved = None if self.settings.learner_tasks else app.storage.user.get("connection")
        return Connection(**saved) if saved else self.default_connection

    def choose(self, connection: Connection) -> None:
        app.storage.user["connection"] = asdict(connection)

    async def service(self) -> Service:
        return await self.open_service(self.connection())

    async def library(self, tenant_id: str | None = None) -> TaskLibrary:
        """The task library of ``tenant_id`` (default: the tenant the pages work in) on this
        browser's connection: the same library the terminal app keeps its tasks through."""
        service = await self.service()
        tenant = tenant_id or await self.tenant(service)
        remembered = self.remembered.setdefault((self.connection(), tenant), {})
        extensions = (await service.info()).extensions
        return TaskLibrary(service, tenant, extensions=extensions, remembered=remembered)

    async def tenant(self, service: Service) -> str:
        """The tenant the pages work in: the principal's default one."""
        if not self.connection().is_remote:
            return self.settings.default_tenant
        return (await service.info()).defaultTenantId


@contextmanager
def reporting(action: str) -> Iterator[None]:
    """Turn a failing call into a notification: a ServiceError in the service's own words.

    Handlers wrap their service calls in it, so a refused or failing call leaves the page as it
    was and tells the user why, in the words of the API (the same text a remote client would see).
    Anything else is a fault of ours and is reported as the API reports one: logged with an id.
    """
    try:
        yield
    except Exception as exc:
        ui.notify(
            _("{action} failed: {reason}").format(action=action, reason=failure_text(exc)),
            type="negative",
            multi_line=True,
            close_button=True,
        )


def failure_text(exc: Exception) -> str:
    """What to tell the user about a failure: the API's message, or an id to find it in the log."""
    if isinstance(exc, ServiceError):
        return failure_words(exc, _) or exc.message
    error_id = uuid.uuid4().hex[:12]
    log.error("the web app failed (error id %s)", error_id, exc_info=exc)
    return _("an internal error; it was logged with the id {id}").format(id=error_id)
