"""`feedback-studio serve`'s own process settings (core.server.process), in a process of their own:
they are the process's, so a test must not apply them to the test run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process  # each test starts a Python process of its own, as `serve` does

ROOT = Path(__file__).resolve().parents[2]
SERVE = """
import asyncio, gc, json
from core.server.process import serving_app

async def main():
    app = serving_app()
    async with app.router.lifespan_context(app):
        at_start = gc.get_freeze_count()
        await app.state.runtime.text_models()
        for _ in range(500):  # the freeze follows the load on the event loop
            if gc.get_freeze_count() > at_start:
                break
            await asyncio.sleep(0.01)
        print(json.dumps([at_start, gc.get_freeze_count()]))

asyncio.run(main())
"""


def test_the_text_models_are_moved_out_of_the_collectors_sight_once_loaded(tmp_path: Path) -> None:
    """They load after start-up, in the background, and live as long as the process: left to the
    collector, every full collection walks their thousands of objects, a stall of
    milliseconds for the requests in flight."""
    env = {
        **os.environ,
        "FEEDBACK_STUDIO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}",
        "FEEDBACK_STUDIO_SEED_DEMO": "false",
    }
    out = subprocess.run(
        [sys.executable, "-c", SERVE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    at_start, loaded = json.loads(out.strip().splitlines()[-1])
    assert at_start > 0, "what start-up built is frozen"
    assert loaded - at_start > 5_000, "the text models' objects are frozen too"


def test_a_served_requests_access_line_reaches_standard_error_while_the_server_runs(tmp_path: Path) -> None:
    """The server's log lines are written a turn of the event loop at a time (core.server.log_output):
    an operator tailing the log sees a request's line as it ends, not when the server stops."""
    import queue
    import threading
    import time

    import httpx

    from tests.conftest import free_port

    port = free_port(reserve=False)
    env = {
        **os.environ,
        "FEEDBACK_STUDIO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}",
        "FEEDBACK_STUDIO_SEED_DEMO": "false",
        "FEEDBACK_STUDIO_LOG_LEVEL": "INFO",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in server.stderr], daemon=True).start()  # type: ignore[union-attr]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                answered = httpx.get(f"http://127.0.0.1:{port}/studio/info", timeout=2)  # no token: 400
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert answered.status_code == 400
        seen = []
        while time.monotonic() < deadline:
            try:
                # until the deadline: on a loaded machine the line may take seconds
                seen.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break
            if '"path": "/studio/info"' in seen[-1]:
                break
        assert '"path": "/studio/info", "status": 400' in seen[-1], seen[-5:]
        assert server.poll() is None  # written while the server runs
    finally:
        server.terminate()
        server.wait(timeout=30)
