"""The API as `feedback-studio serve` runs it: a process of its own, with the collector tuned for it.

Only the `serve` entry point uses this; tests and the web app build create_app as it is, since the
settings below are the process's, not the app's.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from core.config import Settings
from core.server.app import create_app
from core.service.runtime import Runtime

GC_YOUNG_THRESHOLD = 10_000
"""Container allocations (net of frees) between two young collections; Python's default is 700.
A request's objects are freed by reference counting (it leaves no cycles), but with dozens of
requests in flight the default count is passed every few requests, and each collection traverses
the live objects of all of them (docs/performance.md)."""


def serving_app() -> FastAPI:
    """A uvicorn factory (each worker process calls it): create_app with the process's settings
    from the environment, and what start-up built moved out of the collector's sight once the
    runtime is open: it lives as long as the process, and full collections that traversed it
    stalled requests under load (docs/performance.md)."""
    gc.set_threshold(GC_YOUNG_THRESHOLD)
    # The server's log lines (core.server.log_output.LOG_FORMAT) name no thread or process: records need
    # not look them up, a large part of what making each record (one a request) cost.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    app = create_app(Settings())
    start_up = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with start_up(app):  # create_app's lifespan keeps its runtime on app.state, yields no state
            _freeze()
            # The text models load in the background after start-up (core.engine.text.preload), and
            # they too live as long as the process: thousands of objects that every full
            # collection walked (about 3 ms more for each; docs/performance.md).
            models = asyncio.create_task(_freeze_when_loaded(app.state.runtime))
            try:
                yield
            finally:
                models.cancel()

    app.router.lifespan_context = lifespan
    return app


def _freeze() -> None:
    gc.collect()
    gc.freeze()


async def _freeze_when_loaded(runtime: Runtime) -> None:
    await runtime.text_models()
    _freeze()
