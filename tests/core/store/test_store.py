"""The store on SQLite and on PostgreSQL: migrations, task upserts, ratings, tokens, cascades."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import TypeAdapter
from sqlalchemy import Connection, inspect, text

from core.api import TaskAction, TaskDefinition, TaskType, WrongTaskType
from core.auth import ALL_PERMISSIONS, Permission, new_token
from core.store import interactions, principals, tasks
from core.store import models as m
from core.store.db import Database

TASKS = TypeAdapter(TaskDefinition)


def mc(task_id: str = "mc-1", title: str = "Capital") -> TaskDefinition:
    return TASKS.validate_python(
        {
            "id": task_id,
            "type": "MULTIPLE_CHOICE",
            "title": title,
            "problemStatement": "Which?",
            "options": [{"content": "Bern", "correct": True}, {"content": "Zurich"}],
        }
    )


@pytest.fixture
async def db(database_url):
    database = Database(database_url)
    await database.migrate()
    await database.run_write(lambda connection: principals.ensure_tenant(connection, "t1"))
    yield database
    await database.aclose()


async def upsert(db: Database, task) -> TaskAction:
    action, _ = await db.run_write(lambda connection: tasks.write_task(connection, "t1", task, author="test"))
    return action


async def test_migrations_are_idempotent(db):
    """A second start finds the schema at head: same revision, same tables, the data kept."""

    async def schema() -> tuple[str, list[str]]:
        def read(connection: Connection) -> tuple[str, list[str]]:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            return revision, sorted(inspect(connection).get_table_names())

        return await db.run_read(read)

    assert await upsert(db, mc()) is TaskAction.CREATED
    before = await schema()
    await db.migrate()
    assert await schema() == before
    assert set(m.Base.metadata.tables) <= set(before[1])  # every table of the models is there
    assert await upsert(db, mc()) is TaskAction.UNCHANGED


async def test_upsert_actions_follow_the_canonical_hash(db):
    assert await upsert(db, mc()) is TaskAction.CREATED
    assert await upsert(db, mc()) is TaskAction.UNCHANGED
    assert await upsert(db, mc(title="Federal city")) is TaskAction.UPDATED
    row = await db.run_read(lambda connection: tasks.read_task(connection, "t1", "mc-1"))
    assert row.version == 2
    assert row.title == "Federal city"
    assert row.created_at.tzinfo is not None


async def test_type_change_is_refused(db):
    await upsert(db, mc())
    freeform = TASKS.validate_python(
        {"id": "mc-1", "type": "FreeformTextTask", "problemStatement": "Explain."}
    )
    with pytest.raises(WrongTaskType):
        await upsert(db, freeform)


async def test_concurrent_upserts_create_exactly_once(db):
    actions = await asyncio.gather(*(upsert(db, mc("race")) for _ in range(20)))
    assert actions.count(TaskAction.CREATED) == 1
    assert set(actions) <= {TaskAction.CREATED, TaskAction.UNCHANGED}


async def add_interaction(db: Database, task_id: str = "mc-1") -> str:
    import uuid

    interaction_id = str(uuid.uuid4())
    await db.run_write(
        lambda connection: interactions.add_interaction(
            connection,
            dict(
                id=interaction_id,
                tenant_id="t1",
                task_id=task_id,
                task_version=1,
                user_id="u",
                principal_id="p",
                answer={"selectedIndex": 0},
                feedback={},
                learner_meta=None,
                verdict="CORRECT",
                created_at=m.utcnow(),
            ),
        )
    )
    return interaction_id


async def graded_answers(db: Database) -> list:
    return list(await db.run_write(lambda connection: interactions.list_graded(connection, "t1", "mc-1")))


async def test_rating_upsert_keeps_one_rating(db):
    await upsert(db, mc())
    interaction_id = await add_interaction(db)

    async def rate(kind: str) -> None:
        await db.run_write(
            lambda connection: interactions.put_rating(connection, interaction_id, kind, None, None)
        )

    await asyncio.gather(*(rate("GOOD" if i % 2 else "BAD") for i in range(10)))
    await rate("GOOD")
    found = await db.run_read(lambda connection: interactions.read_interaction(connection, interaction_id))
    assert found.rating.type == "GOOD"


async def test_delete_forgets_the_tasks_answers(db):
    await upsert(db, mc())
    interaction_id = await add_interaction(db)
    await db.run_write(
        lambda connection: interactions.put_rating(connection, interaction_id, "GOOD", None, None)
    )
    graded = [{"answer": {"selectedIndex": 0}, "correctness": "CORRECT"}]
    await db.run_write(lambda connection: interactions.add_graded_answers(connection, "t1", "mc-1", graded))
    assert await db.run_write(lambda connection: tasks.remove_task(connection, "t1", "mc-1"))
    assert (
        await db.run_read(lambda connection: interactions.read_interaction(connection, interaction_id))
        is None
    )
    ratings = await db.run_read(
        lambda connection: connection.execute(m.EndUserRating.__table__.select()).all()
    )
    assert ratings == []
    assert await graded_answers(db) == []


async def test_listing_counts_and_recent_verdicts(db):
    await upsert(db, mc("a"))
    await upsert(db, mc("b"))
    for _ in range(3):
        await add_interaction(db, "a")
    found = await db.run_read(lambda connection: tasks.list_tasks(connection, "t1", recent=2))
    listing = {item.task.task_id: item for item in found}
    assert listing["a"].interaction_count == 3
    assert listing["a"].last_verdicts == ["CORRECT", "CORRECT"]
    assert listing["b"].interaction_count == 0


async def test_tokens_are_stored_hashed_and_resolve_to_their_grants(db):
    token = new_token("fs")
    permissions = frozenset({Permission.ACCESS, Permission.WRITE})
    await db.run_write(
        lambda connection: principals.create_principal(connection, "author", "t1", permissions, token)
    )
    principal = await db.run_read(lambda connection: principals.principal_for_token(connection, token))
    assert (
        await db.run_read(lambda connection: principals.principal_for_token(connection, token + "x")) is None
    )
    rows = await db.run_read(lambda connection: connection.execute(m.ApiToken.__table__.select()).all())
    stored = [row.token_hash for row in rows]
    assert principal.name == "author"
    assert principal.can("t1", Permission.WRITE)
    assert not principal.can("t1", Permission.DELETE)
    assert token not in stored


async def test_grants_can_be_widened(db):
    token = new_token("fs")

    def create(connection: Connection) -> None:
        pid = principals.create_principal(connection, "admin", "t1", frozenset({Permission.ACCESS}), token)
        principals.grant(connection, pid, "t2", ALL_PERMISSIONS)

    await db.run_write(create)
    principal = await db.run_read(lambda connection: principals.principal_for_token(connection, token))
    assert principal.can("t2", Permission.DELETE)


async def test_webhook_tokens_and_events(db):
    token = new_token("wh")
    await db.run_write(lambda connection: principals.create_webhook_token(connection, "t1", token))
    assert (
        await db.run_read(lambda connection: principals.tenant_for_webhook_token(connection, token)) == "t1"
    )
    assert await db.run_read(lambda c: principals.tenant_for_webhook_token(c, "wh_other")) is None
    event_id = await db.run_write(lambda c: principals.record_webhook_event(c, "t1", "ping", {"n": 1}))
    events = m.WebhookEvent.__table__
    event = await db.run_read(lambda c: c.execute(events.select().where(events.c.id == event_id)).one())
    assert event.payload == {"event": "ping", "data": {"n": 1}}


async def test_graded_answers_are_counted_on_their_task(db):
    await upsert(db, mc())
    graded = [{"answer": {"selectedIndex": 0}, "correctness": "CORRECT"}]
    assert await db.run_write(lambda c: interactions.add_graded_answers(c, "t1", "mc-1", graded)) == 1
    assert await db.run_write(lambda c: interactions.add_graded_answers(c, "t1", "mc-1", graded * 2)) == 3
    await upsert(db, mc(title="Changed"))  # an update of the task keeps its graded answers
    assert (await db.run_read(lambda c: tasks.read_task(c, "t1", "mc-1"))).graded_count == 3
    assert len(await graded_answers(db)) == 3


def test_the_remembered_task_hash_is_the_canonical_one_for_every_demo_task():
    """task_hash keys its memory on pydantic's JSON of the task; each kind must round-trip through it."""
    from core.api import parse_task
    from core.assets import demo_tasks

    documents = demo_tasks()
    assert {parse_task(d).task_type for d in documents} == set(TaskType)
    for document in documents:
        task = parse_task(document)
        assert tasks.task_hash(task) == tasks.content_hash(tasks.canonical_json(task))
        assert tasks.task_hash(task) == tasks.task_hash(parse_task(document))
