"""Migrations carry existing data forward (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from core.store import conversations
from core.store.db import Database, alembic_config, head_revisions


def upgrade_to(connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def downgrade_to(connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def insert_task_a_of_tenant_t(connection, *, definition: str, version: int) -> None:
    """Tenant "t" and its task "a", written as an older schema holds them (raw SQL: the models
    describe the newest schema)."""
    await connection.execute(
        text("INSERT INTO tenants (id, name, created_at) VALUES ('t', 't', '2026-01-01')")
    )
    await connection.execute(
        text(
            "INSERT INTO tasks (tenant_id, task_id, type, title, language, definition, content_hash, version,"
            " created_at, updated_at) VALUES ('t', 'a', 'FREEFORM_TEXT', 'A', 'EN_US', :definition, 'h',"
            " :version, '2026-01-01', '2026-02-01')"
        ),
        {"definition": definition, "version": version},
    )


async def test_graded_count_is_backfilled_from_existing_graded_answers(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0001")
            await insert_task_a_of_tenant_t(connection, definition="{}", version=1)
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
        await db.run_write(lambda c: conversations.write_tutor(c, "u", "coach", {"name": "U"}))
        kept = await db.run_read(lambda c: conversations.read_tutor(c, "t", "coach"))
        assert kept is not None and kept.config == {"name": "T"}
        assert await db.run_read(lambda c: conversations.tutor_tenants(c, "coach")) == ["t", "u"]
    finally:
        await db.aclose()


async def test_each_existing_task_keeps_its_current_version_as_its_first_in_the_history(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0002")
            await insert_task_a_of_tenant_t(connection, definition='{"id": "a"}', version=4)
        await db.migrate()
        async with db.engine.connect() as connection:
            rows = (
                await connection.execute(text("SELECT task_id, version, title, author FROM task_versions"))
            ).all()
        assert [tuple(row) for row in rows] == [("a", 4, "A", "")]
    finally:
        await db.aclose()


async def insert_conversations_at_0003(connection) -> None:
    """Tenant t's chat "conv-1" with two messages and tenant u's session "sim:s" with one."""
    for tenant in ("t", "u"):
        await connection.execute(
            text(f"INSERT INTO tenants (id, name, created_at) VALUES ('{tenant}', '{tenant}', '2026-01-01')")
        )
    for tenant, conversation, kind in (("t", "conv-1", "chat"), ("u", "sim:s", "simulation")):
        await connection.execute(
            text(
                "INSERT INTO conversations (id, tenant_id, tutor_id, user_id, task_id, kind, status, state,"
                " turns, started_at, expires_at, updated_at) VALUES (:id, :tenant, 'coach', 'learner', NULL,"
                """ :kind, 'active', '{"engine": {}}', 1, '2026-01-01', NULL, '2026-01-01')"""
            ),
            {"id": conversation, "tenant": tenant, "kind": kind},
        )
    for conversation, seq, role, content in (
        ("conv-1", 1, "user", "Why does the bulb light?"),
        ("conv-1", 2, "assistant", "What closes the circuit?"),
        ("sim:s", 1, "system", "You are Mrs Rossi."),
    ):
        await connection.execute(
            text(
                "INSERT INTO conversation_messages (conversation_id, seq, role, content, created_at)"
                " VALUES (:conversation, :seq, :role, :content, '2026-01-01')"
            ),
            {"conversation": conversation, "seq": seq, "role": role, "content": content},
        )


async def transcript(db: Database, tenant: str, conversation_id: str) -> list[tuple[int, str, str]]:
    rows = await db.run_read(lambda c: conversations.read_messages(c, tenant, conversation_id))
    return [(r.seq, r.role, r.content) for r in rows]


async def test_conversations_keep_their_rows_and_become_the_tenants_own(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0003")
            await insert_conversations_at_0003(connection)
        await db.migrate()

        assert await transcript(db, "t", "conv-1") == [
            (1, "user", "Why does the bulb light?"),
            (2, "assistant", "What closes the circuit?"),
        ]
        assert await transcript(db, "u", "sim:s") == [(1, "system", "You are Mrs Rossi.")]
        kept = await db.run_read(lambda c: conversations.read_conversation(c, "t", "conv-1"))
        assert kept is not None
        assert (kept.tutor_id, kept.kind, kept.turns, kept.state) == ("coach", "chat", 1, {"engine": {}})
        assert await db.run_read(lambda c: conversations.read_conversation(c, "u", "conv-1")) is None

        # Tenant u now takes "conv-1" for itself, and t's conversation of that id goes on untouched.
        def take_and_go_on(connection):
            _, created = conversations.open_conversation(
                connection,
                conversation_id="conv-1",
                tenant_id="u",
                tutor_id="other",
                user_id="x",
                task_id=None,
            )
            assert created
            conversations.append_messages(connection, "u", "conv-1", [("user", "u's question")])
            assert conversations.lock_conversation(connection, "t", "conv-1") is not None
            conversations.append_messages(connection, "t", "conv-1", [("user", "And the switch?")])

        await db.run_write(take_and_go_on)
        assert await transcript(db, "u", "conv-1") == [(1, "user", "u's question")]
        assert [row[2] for row in await transcript(db, "t", "conv-1")][-1] == "And the switch?"
    finally:
        await db.aclose()


async def test_the_downgrade_of_the_conversations_migration_keeps_their_rows(database_url):
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "0003")
            await insert_conversations_at_0003(connection)
        await db.migrate()
        async with db.engine.begin() as connection:
            await connection.run_sync(downgrade_to, "0004")
        async with db.engine.connect() as connection:
            rows = await connection.execute(
                text(
                    "SELECT c.tenant_id, m.conversation_id, m.seq, m.role FROM conversation_messages m"
                    " JOIN conversations c ON c.id = m.conversation_id ORDER BY c.tenant_id, m.seq"
                )
            )
            assert [tuple(r) for r in rows] == [
                ("t", "conv-1", 1, "user"),
                ("t", "conv-1", 2, "assistant"),
                ("u", "sim:s", 1, "system"),
            ]
    finally:
        await db.aclose()


def test_head_revisions_are_alembics_heads():
    from alembic.script import ScriptDirectory

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


def _differences(connection) -> list:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from core.store.models import Base

    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "compare_server_default": True}
    )
    return compare_metadata(context, Base.metadata)


async def test_the_migrations_make_the_schema_the_models_describe(database_url):
    """A new database is made from the models in one step (no Alembic to load: the first start
    of the apps), an existing one is brought forward by the migrations: both must be one schema."""
    db = Database(database_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(upgrade_to, "head")
            assert await connection.run_sync(_differences) == []
    finally:
        await db.aclose()


async def test_a_new_database_is_made_in_one_step_at_the_newest_revision(database_url, monkeypatch):
    upgrades: list[str] = []
    monkeypatch.setattr(command, "upgrade", lambda _config, revision: upgrades.append(revision))
    db = Database(database_url)
    try:
        await db.migrate()
        async with db.engine.connect() as connection:
            stored = (
                (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
            )
            assert await connection.run_sync(_differences) == []
        assert upgrades == []
        assert set(stored) == head_revisions()
    finally:
        await db.aclose()
