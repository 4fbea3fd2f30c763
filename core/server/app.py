"""The FastAPI application: one router per API area, error handlers, limits, OpenAPI at /docs.

The routes only translate HTTP to LocalService calls; the runtime they share is opened in the
lifespan (or handed in, when the web app and the API share one process).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from core import API_VERSION
from core.config import Settings
from core.server import errors
from core.server.deps import declare_bearer_auth
from core.server.limits import BodySizeLimit
from core.server.ratelimit import RateLimit
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

GC_YOUNG_THRESHOLD = 10_000
"""Container allocations (net of frees) between two young collections; Python's default is 700.
A request's objects are freed by reference counting (it leaves no cycles), but with 32 requests
in flight the count passed 700 every 6 feedbacks, and each collection traversed the live objects
of all of them: 6 % of a feedback's instructions. At 10,000 one comes every 1,000 feedbacks
(docs/performance.md)."""

DESCRIPTION = """Learner Feedback and Tutoring Service API 0.9.0, implemented by Feedback Studio.

Endpoints tagged *extensions* are Feedback Studio's authoring extensions (DESIGN.md); a client
must not require them of other servers of this API."""


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    settings = settings or Settings()
    logging.basicConfig(level=settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = runtime is None
        app.state.runtime = runtime or await Runtime.open(settings)
        # What start-up built (modules, models, schemas, caches) lives as long as the process: moved
        # out of the collector's sight, it is not traversed again by every full collection, which
        # otherwise stalled requests for 100 ms and more under load (docs/performance.md).
        gc.collect()
        gc.freeze()
        gc.set_threshold(GC_YOUNG_THRESHOLD)
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
    )
    app.state.settings = settings
    errors.install(app)
    add_routes(app, ROUTERS)
    declare_bearer_auth(app, ROUTERS)
    app.add_middleware(errors.InternalErrors)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RateLimit, per_minute=settings.rate_limit_per_minute)
    return app


def add_routes(app: FastAPI, routers: list[APIRouter]) -> None:
    """Each area's routes, in order, straight into the app's route table.

    FastAPI 0.165's include_router keeps each router as one node of the table, and every request
    walks through that node's own matching before it reaches its route: 38 k instructions of a
    feedback's 1,014 k (docs/performance.md). A router's own prefix, tags and dependencies are
    already part of its routes; include_router would only add the options given to it, and none
    are, so the routes (and the OpenAPI document) are the same.
    """
    app.router.routes.extend(route for router in routers for route in router.routes)
