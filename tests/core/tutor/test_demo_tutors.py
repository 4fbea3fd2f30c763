"""The demo tutors come with the demo tasks, and every one of them is grounded in a demo task."""

from __future__ import annotations

from core.assets import demo_tasks, demo_tutors
from core.auth import local_principal
from core.config import Settings
from core.service.local import LocalService
from core.service.runtime import Runtime
from tests.conftest import sqlite_url


def test_every_demo_tutor_is_bound_to_a_demo_task():
    tasks = {t["id"] for t in demo_tasks()}
    assert demo_tutors()
    assert all(t["taskId"] in tasks for t in demo_tutors())


async def test_a_fresh_embedded_database_has_the_demo_tutors_and_they_answer(tmp_path):
    runtime = await Runtime.open(Settings(database_url=sqlite_url(tmp_path), seed_demo=True))
    try:
        service = LocalService(runtime, local_principal("default"))
        tutors = await service.list_tutors("default")
        assert {t.id for t in tutors} == {t["id"] for t in demo_tutors()}
        await runtime.seed_demo("other")
        assert await service.list_tutors("default") == tutors
        other = LocalService(runtime, local_principal("other"))
        theirs = await other.list_tutors("other")
        assert {t.id for t in theirs} == {t["id"] for t in demo_tutors()}  # each tenant its own ids
        assert {t.taskId for t in theirs} == {t["taskId"] for t in demo_tutors()}
        assert all(t.tenantId == "other" for t in theirs)
        await runtime.seed_demo("other")  # seeding again adds no second set
        assert len(await other.list_tutors("other")) == len(theirs)
    finally:
        await runtime.aclose()
