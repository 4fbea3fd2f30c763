"""The FastAPI application: one router per API area, error handlers, limits, OpenAPI at /docs.

The routes only translate HTTP to LocalService calls; the runtime they share is opened in the
lifespan (or handed in, when the web app and the API share one process).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.telemetry import TelemetryConfig

from core import API_VERSION
from core.config import Settings
from core.server import errors
from core.server.log_output import server_handler
from core.server.middleware import RequestMiddleware
from core.server.openapi import describe
from core.server.routers import (
    class_sets,
    feedback,
    interactions,
    simulation,
    studio,
    tasks,
    tutor,
    webhooks,
    workspace,
)
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
    class_sets.router,
]

TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
"""FastAPI's native OpenTelemetry unless FEEDBACK_STUDIO_OPENTELEMETRY is set: with it on and no
SDK configured, FastAPI asks OpenTelemetry's global providers on every request whether one is."""

DESCRIPTION = """Learner Feedback and Tutoring Service API 0.9.0, implemented by Feedback Studio.

Endpoints tagged *extensions* are Feedback Studio's authoring extensions (DESIGN.md); a client
must not require them of other servers of this API."""


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    settings = settings or Settings()
    logging.basicConfig(level=settings.log_level, handlers=[server_handler()])

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
        RequestMiddleware,  # access log, rate limit, body limits, internal errors: one layer (core.server.middleware)
        max_body_bytes=settings.max_body_bytes,
        rate_limit_per_minute=settings.rate_limit_per_minute,
    )
    return app
