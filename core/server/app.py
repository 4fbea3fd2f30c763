"""The FastAPI application: one router per API area, error handlers, limits, OpenAPI at /docs.

The routes only translate HTTP to LocalService calls; the runtime they share is opened in the
lifespan (or handed in, when the web app and the API share one process).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.telemetry import TelemetryConfig

from core import API_VERSION
from core.config import Settings
from core.server import errors
from core.server.edge import Edge
from core.server.openapi import describe
from core.server.routers import feedback, interactions, simulation, studio, tasks, tutor, webhooks, workspace
from core.service.runtime import Runtime

ROUTERS = [
    feedback.router,
    tasks.router,
    interactions.router,
    webhooks.router,
    studio.router,
    workspace.router,
    tutor.router,
    simulation.router,
]

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class LogFormatter(logging.Formatter):
    """LOG_FORMAT's formatter, the text of the time's second made once a second rather than for
    every line (time.strftime was a third of what formatting an access-log line cost), and a line
    without an exception or stack put together directly rather than through logging's %-style
    machinery (every request writes one). The same text as logging.Formatter(LOG_FORMAT)'s."""

    _second: tuple[int, str] = (-1, "")

    def __init__(self) -> None:
        super().__init__(LOG_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        if record.exc_info or record.exc_text or record.stack_info:
            return super().format(record)
        record.message = record.getMessage()  # as logging.Formatter leaves them on the record
        record.asctime = self.formatTime(record)
        return f"{record.asctime} {record.levelname} {record.name} {record.message}"

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        cached, text = self._second
        if cached != second:
            text = time.strftime(self.default_time_format, self.converter(second))
            self._second = (second, text)  # one assignment: threads see the old pair or the new
        return f"{text},{int(record.msecs):03d}"  # logging's default_msec_format, "%s,%03d"


TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
"""FastAPI's native OpenTelemetry unless FEEDBACK_STUDIO_OPENTELEMETRY is set: with it on and no
SDK configured, FastAPI asks OpenTelemetry's global providers on every request whether one is."""

DESCRIPTION = """Learner Feedback and Tutoring Service API 0.9.0, implemented by Feedback Studio.

Endpoints tagged *extensions* are Feedback Studio's authoring extensions (DESIGN.md); a client
must not require them of other servers of this API."""


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    settings = settings or Settings()
    handler = logging.StreamHandler()
    handler.setFormatter(LogFormatter())
    logging.basicConfig(level=settings.log_level, handlers=[handler])

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = runtime is None
        app.state.runtime = runtime or await Runtime.open(settings)
        try:
            yield
        finally:
            if owned:
                await app.state.runtime.aclose()

    app = FastAPI(
        title="Learner Feedback and Tutoring Service",
        version=API_VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        telemetry=None if settings.opentelemetry else TELEMETRY_OFF,
    )
    app.state.settings = settings
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    describe(app, ROUTERS)
    app.add_middleware(
        Edge,  # access log, rate limit, body limits, internal errors: one layer (core.server.edge)
        max_body_bytes=settings.max_body_bytes,
        rate_limit_per_minute=settings.rate_limit_per_minute,
    )
    return app
