"""Fixtures of the terminal app's tests: the real embedded service over a copy of one seeded
SQLite database (seeding once per session keeps the suite fast), and a running app on it."""

from __future__ import annotations

import asyncio
import pickle
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pytest_textual_snapshot import node_to_report_path
from textual import constants
from textual.pilot import Pilot

from core.config import Settings
from core.service import Service, connect
from tests.tui import snapshot_diff
from tests.tui.helpers import SIZE, library_loaded, settle, wait_until
from tui.app import FeedbackStudioApp


def studio_settings(database: Path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{database}", seed_demo=True, public_base_url="http://studio.test"
    )


@pytest.fixture(autouse=True)
def no_animations(monkeypatch) -> None:
    """Apps start with animations off: a sliding tab underline or a smooth scroll is then never
    caught half-way by a snapshot or an assertion, and no frames are drawn only to animate."""
    monkeypatch.setattr(constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(scope="session")
def seeded_database(tmp_path_factory) -> Path:
    """A database with the demo tasks and tutors, created once; tests work on copies of it."""
    path = tmp_path_factory.mktemp("template") / "studio.sqlite3"

    async def seed() -> None:
        service = await connect(studio_settings(path))
        await service.list_tutors((await service.info()).defaultTenantId)
        await service.aclose()

    asyncio.run(seed())
    return path


@pytest.fixture
def database(tmp_path, seeded_database) -> Path:
    copy = tmp_path / "studio.sqlite3"
    shutil.copy(seeded_database, copy)
    return copy


@pytest.fixture
def snapshot_app(tmp_path, seeded_database, monkeypatch) -> FeedbackStudioApp:
    """An app on a copy of the seeded database at a path relative to the test's folder, with a
    fixed public address: nothing on its screens differs between two runs (SVG snapshots)."""
    shutil.copy(seeded_database, tmp_path / "studio.sqlite3")
    monkeypatch.chdir(tmp_path)
    settings = Settings(
        database_url="sqlite+aiosqlite:///studio.sqlite3",
        seed_demo=True,
        public_base_url="http://studio.test",
    )
    return FeedbackStudioApp(settings)


@pytest.fixture
async def studio(database) -> AsyncIterator[Service]:
    service = await connect(studio_settings(database))
    yield service
    await service.aclose()


@pytest.fixture
async def pilot(studio) -> AsyncIterator[Pilot]:
    """The app on the embedded service, its library loaded."""
    app = FeedbackStudioApp(service=studio)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        yield pilot
        await settle(pilot)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed snapshot test reports which cells differ, so that a CI log says what changed."""
    report = yield
    if report.when == "call" and report.failed and "snap_compare" in getattr(item, "fixturenames", ()):
        path = node_to_report_path(item)
        if path.exists():
            data = pickle.loads(path.read_bytes())
            report.sections.append(("snapshot differences", snapshot_diff.describe(data[1], data[2])))
    return report
