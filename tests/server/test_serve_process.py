"""`feedback-studio serve`'s own process settings (core.server.process), in a process of their own:
they are the process's, so a test must not apply them to the test run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
