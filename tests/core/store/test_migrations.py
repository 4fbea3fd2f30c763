"""Migrations carry existing data forward (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

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


def test_head_revisions_are_alembics_heads():
    from alembic.script import ScriptDirectory

    from core.store.db import head_revisions

    assert head_revisions() == set(ScriptDirectory.from_config(alembic_config()).get_heads())


async def test_a_current_schema_is_not_migrated_again(database_url, monkeypatch):
    """The usual start finds the schema current and skips Alembic (0.2 s of a starting app)."""
    db = Database(database_url)
    try:
        await db.migrate()
        upgrades: list[str] = []
        monkeypatch.setattr(command, "upgrade", lambda _config, revision: upgrades.append(revision))
        await db.migrate()
        assert upgrades == []
        async with db.engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
        await db.migrate()
        assert upgrades == ["head"]
    finally:
        await db.aclose()
