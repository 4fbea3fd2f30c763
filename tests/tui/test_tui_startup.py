"""The library is listed without loading what it does not need (issue 21, item 6).

A fresh interpreter, as `feedback-studio tui` starts: the app runs headless until its library
lists the tasks, then reports which heavy packages it had loaded by then. Alembic is loaded only
when an existing schema needs migrating (a new database is made from the models in one step);
the text models' numpy, the lemmatisers and the tutor engines wait for the first answer or chat
that needs them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
LATER = ("alembic", "numpy", "simplemma", "core.tutor.engines", "core.tutor.leak_guard")

APP = """
import gc, json, sys
gc.disable()  # as the command starts the app (core.cli): the app turns the collector on once connected
from core.config import Settings
from tui.app import FeedbackStudioApp

async def listed(pilot):
    while not pilot.app.screen._loaded:
        await pilot.pause(0.01)
    loaded = [name for name in json.loads(sys.argv[2]) if name in sys.modules]
    pilot.app.exit((len(pilot.app.screen.tasks), loaded, gc.isenabled() and gc.get_freeze_count() > 0))

settings = Settings(database_url=sys.argv[1], seed_demo=True)
print(json.dumps(FeedbackStudioApp(settings).run(headless=True, size=(80, 24), auto_pilot=listed)))
"""


def start(database: Path) -> tuple[int, list[str], bool]:
    url = f"sqlite+aiosqlite:///{database}"
    out = subprocess.run(
        [sys.executable, "-c", APP, url, json.dumps(LATER)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    count, loaded, collecting = json.loads(out.strip().splitlines()[-1])
    return count, loaded, collecting


def test_the_first_start_makes_the_schema_and_seeds_and_no_start_loads_alembic(tmp_path):
    database = tmp_path / "fresh" / "studio.sqlite3"
    count, loaded, collecting = start(database)
    assert count > 0, "the demo tasks are listed on the very first start"
    assert loaded == []
    assert collecting, "the collector is on again, with what start-up built frozen"
    assert start(database) == (count, [], True)
