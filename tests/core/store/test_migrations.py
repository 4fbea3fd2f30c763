"""Migrations carry existing data forward (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from core.store import conversations
from core.store.db import Database, alembic_config


def upgrade_to(connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


async def test_graded_count_is_backfilled_from_existing_graded_answers(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0001")
            await connection.execute(
                text("INSERT INTO tenants (id, name, created_at) VALUES ('t', 't', '2026-01-01')")
            )
            await connection.execute(
                text(
                    "INSERT INTO tasks (tenant_id, task_id, type, title, language, definition, content_hash, version,"
                    " created_at, updated_at) VALUES ('t', 'a', 'FREEFORM_TEXT', 'A', 'EN_US', '{}', 'h', 1,"
                    " '2026-01-01', '2026-01-01')"
                )
            )
            for _ in range(2):
                await connection.execute(
                    text(
                        "INSERT INTO graded_answers (tenant_id, task_id, answer, correctness, created_at)"
                        " VALUES ('t', 'a', '{}', 'CORRECT', '2026-01-01')"
                    )
                )
        await db.migrate()
        async with db.engine.connect() as connection:
            count = (
                await connection.execute(text("SELECT graded_count FROM tasks WHERE task_id = 'a'"))
            ).scalar_one()
        assert count == 2
    finally:
        await db.aclose()


async def test_tutors_keep_their_rows_and_become_the_tenants_own(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0002")
            for tenant in ("t", "u"):
                await connection.execute(
                    text(
                        f"INSERT INTO tenants (id, name, created_at) VALUES ('{tenant}', '{tenant}', '2026-01-01')"
                    )
                )
            await connection.execute(
                text(
                    "INSERT INTO tutors (id, tenant_id, config, created_at, updated_at)"
                    """ VALUES ('coach', 't', '{"name": "T"}', '2026-01-01', '2026-01-01')"""
                )
            )
        await db.migrate()
        async with db.write() as session:
            await conversations.put_tutor(session, "u", "coach", {"name": "U"})
        async with db.read() as session:
            kept = await conversations.get_tutor(session, "t", "coach")
            assert kept is not None and kept.config == {"name": "T"}
            assert await conversations.tenants_of_tutor(session, "coach") == ["t", "u"]
    finally:
        await db.aclose()


async def test_each_existing_task_keeps_its_current_version_as_its_first_in_the_history(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0002")
            await connection.execute(
                text("INSERT INTO tenants (id, name, created_at) VALUES ('t', 't', '2026-01-01')")
            )
            await connection.execute(
                text(
                    "INSERT INTO tasks (tenant_id, task_id, type, title, language, definition, content_hash, version,"
                    " created_at, updated_at) VALUES ('t', 'a', 'FREEFORM_TEXT', 'A', 'EN_US', '{\"id\": \"a\"}',"
                    " 'h', 4, '2026-01-01', '2026-02-01')"
                )
            )
        await db.migrate()
        async with db.engine.connect() as connection:
            rows = (
                await connection.execute(text("SELECT task_id, version, title, author FROM task_versions"))
            ).all()
        assert [tuple(row) for row in rows] == [("a", 4, "A", "")]
    finally:
        await db.aclose()
