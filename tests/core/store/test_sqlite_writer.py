"""The SQLite writer (group commit) and the feedback hot path that runs as its jobs."""

from __future__ import annotations

import asyncio
import re
import sqlite3

import pytest

from core.api import ComputeFeedbackRequest, TaskAction
from core.service.local import LocalService
from core.store import hot_path, interactions
from core.store.db import Database
from core.store.sqlite_writer import SqliteWriter


@pytest.fixture
async def writer(tmp_path):
    path = tmp_path / "w.sqlite3"
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")  # as migrations leave every database
    setup.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    setup.execute(
        "CREATE TABLE refs (id INTEGER PRIMARY KEY,"
        " note INTEGER REFERENCES notes(id) DEFERRABLE INITIALLY DEFERRED)"
    )
    setup.close()
    writer = SqliteWriter(str(path), asyncio.Lock())
    yield writer, path
    await writer.aclose()


def stored_notes(path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [text for (text,) in connection.execute("SELECT text FROM notes ORDER BY id")]


def add_note(text: str):
    def job(connection: sqlite3.Connection) -> int:
        return connection.execute("INSERT INTO notes (text) VALUES (?)", (text,)).lastrowid

    return job


def add_then_fail(connection: sqlite3.Connection) -> None:
    connection.execute("INSERT INTO notes (text) VALUES ('half')")
    raise ValueError("the job's second step failed")


async def test_concurrent_jobs_share_transactions_and_are_all_committed(writer):
    writer, path = writer
    ids = await asyncio.gather(*(writer.run(add_note(f"n{i}")) for i in range(50)))
    assert sorted(ids) == list(range(1, 51))
    assert sorted(stored_notes(path)) == sorted(f"n{i}" for i in range(50))


async def test_a_failing_job_leaves_nothing_and_spares_its_batch(writer):
    writer, path = writer
    results = await asyncio.gather(
        writer.run(add_note("before")),
        writer.run(add_then_fail),
        writer.run(add_note("after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], ValueError)
    assert stored_notes(path) == ["before", "after"]


def add_empty_note(connection: sqlite3.Connection) -> None:
    connection.execute("INSERT INTO notes (text) VALUES (NULL)")


async def test_a_failing_single_write_needs_no_savepoint_to_spare_its_batch(writer):
    """one_write jobs run without a savepoint: SQLite undoes the failed statement by itself."""
    writer, path = writer
    results = await asyncio.gather(
        writer.run(add_note("before"), one_write=True),
        writer.run(add_empty_note, one_write=True),
        writer.run(add_note("after"), one_write=True),
        return_exceptions=True,
    )
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert stored_notes(path) == ["before", "after"]


def dangling_ref(connection: sqlite3.Connection) -> str:
    """Succeeds itself; its deferred foreign key fails the COMMIT of its whole batch."""
    connection.execute("INSERT INTO refs (note) VALUES (999)")
    return "done"


async def test_results_are_given_only_by_a_commit_that_succeeded(writer):
    """A job that ran without error still fails, with its whole batch, if the COMMIT does."""
    writer, path = writer
    results = await asyncio.gather(
        writer.run(add_note("batched")), writer.run(dangling_ref), return_exceptions=True
    )
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results)
    assert stored_notes(path) == []
    await writer.run(add_note("after"))  # the connection is usable again
    assert stored_notes(path) == ["after"]


async def test_a_database_file_has_a_writer_and_an_in_memory_one_none(tmp_path):
    memory = Database("sqlite+aiosqlite:///:memory:")
    file = Database(f"sqlite+aiosqlite:///{tmp_path / 'f.sqlite3'}")
    try:
        assert memory.sqlite_writer is None
        assert file.sqlite_writer is not None
    finally:
        await memory.aclose()
        await file.aclose()


def mc_request(answer: int, **extra) -> ComputeFeedbackRequest:
    return ComputeFeedbackRequest.model_validate(
        {
            "userId": "learner",
            "taskType": "MULTIPLE_CHOICE",
            "taskDefinition": {
                "id": "capital",
                "type": "MultipleChoiceTask",
                "problemStatement": "Which city is the federal city of Switzerland?",
                "options": [{"content": "Bern", "correct": True}, {"content": "Zurich"}],
            },
            "answer": {"selectedIndex": answer},
            **extra,
        }
    )


async def test_the_hot_path_records_interactions_as_the_session_path_does(
    service: LocalService, runtime, monkeypatch
):
    """The first computation creates the task (Session path); the next one finds it unchanged
    and runs as one job of the SQLite writer. Both kinds of rows read back the same way."""
    hot_rows = []
    add = hot_path.add_interaction
    monkeypatch.setattr(
        hot_path, "add_interaction", lambda c, values: (hot_rows.append(values), add(c, values))
    )
    created = await service.compute_feedback(mc_request(1))
    assert hot_rows == []
    unchanged = await service.compute_feedback(mc_request(0, metaData={"tryCount": 2, "sessionId": "s1"}))
    assert [row["id"] for row in hot_rows] == [unchanged.metaData.interactionId]

    assert created.metaData.taskAction is TaskAction.CREATED
    assert unchanged.metaData.taskAction is TaskAction.UNCHANGED
    records = await service.list_interactions("default", "capital")
    assert [r.interactionId for r in records] == [
        unchanged.metaData.interactionId,
        created.metaData.interactionId,
    ]
    newest, oldest = records
    assert newest.feedback == unchanged and oldest.feedback == created
    assert newest.answer == {"selectedIndex": 0} and newest.learnerMetaData.to_wire() == {
        "tryCount": 2,
        "sessionId": "s1",
    }
    assert newest.createdAt.tzinfo is not None and newest.createdAt >= oldest.createdAt
    async with runtime.db.read() as session:
        row = await interactions.get_interaction(session, unchanged.metaData.interactionId)
    assert (row.task_version, row.verdict, row.user_id) == (1, "CORRECT", "learner")

    # As stored, the two rows hold the same text for the same kind of value (created_at is
    # compared and ordered as text by SQL).
    def stored(connection: sqlite3.Connection) -> list[tuple[str, str]]:
        return connection.execute("SELECT created_at, learner_meta FROM interactions").fetchall()

    rows = await runtime.db.sqlite_writer.run(stored)
    timestamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
    assert [bool(timestamp.fullmatch(created_at)) for created_at, _ in rows] == [True, True]
    assert sorted(meta for _, meta in rows) == ["null", '{"tryCount":2,"sessionId":"s1"}']


async def test_the_hot_path_reads_the_tasks_revision(runtime, service: LocalService):
    await service.compute_feedback(mc_request(1))
    revision = await runtime.db.sqlite_writer.run(lambda c: hot_path.read_revision(c, "default", "capital"))
    assert revision is not None and (revision.version, revision.graded_count) == (1, 0)
    missing = await runtime.db.sqlite_writer.run(lambda c: hot_path.read_revision(c, "default", "nope"))
    assert missing is None


async def test_another_processes_write_lock_is_waited_for_off_the_event_loop(writer):
    writer, path = writer
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO notes (text) VALUES ('other process')")
    write = asyncio.create_task(writer.run(add_note("ours")))
    ticks = 0
    for _ in range(20):  # the loop keeps serving while our batch waits for the lock
        await asyncio.sleep(0.01)
        ticks += 1
    assert ticks == 20 and not write.done()
    other.execute("COMMIT")
    other.close()
    await write
    assert stored_notes(path) == ["other process", "ours"]


async def test_a_checkpoint_starts_after_every_so_many_jobs(writer, monkeypatch):
    """Automatic checkpoints are off for the writer's connection; its own take their place."""
    monkeypatch.setattr("core.store.sqlite_writer.CHECKPOINT_EVERY", 20)
    writer, _ = writer
    started = []
    monkeypatch.setattr(writer, "checkpoint", lambda: started.append(len(started)) or asyncio.sleep(0))
    for i in range(50):
        await writer.run(add_note(str(i)))
        await asyncio.sleep(0)  # the checkpoint of the previous round has finished
    assert len(started) == 2


async def test_a_checkpoint_empties_a_long_log(writer, monkeypatch):
    """A passive checkpoint alone never lets the log start over while writes keep coming."""
    monkeypatch.setattr("core.store.sqlite_writer.CHECKPOINT_EVERY", 10**6)
    monkeypatch.setattr("core.store.sqlite_writer.WAL_LIMIT_PAGES", 50)
    writer, path = writer
    for i in range(400):  # 1.6 MB of notes, one transaction each
        await writer.run(add_note(f"{i}{'x' * 4000}"))
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 1_600_000
    await writer.checkpoint()
    assert wal.stat().st_size == 0
    assert len(stored_notes(path)) == 400


def test_a_locked_pragma_at_connect_is_tried_again():
    """Two processes creating the database at once: switching it to WAL may be refused at once."""
    import stamina

    from core.store.sqlite_writer import PRAGMAS, apply_pragmas

    class Cursor:
        def __init__(self) -> None:
            self.executed: list[str] = []
            self.refusals = 2

        def execute(self, sql: str) -> None:
            if "journal_mode" in sql and self.refusals:
                self.refusals -= 1
                raise sqlite3.OperationalError("database is locked")
            self.executed.append(sql)

        def close(self) -> None:
            pass

    cursor = Cursor()
    connection = type("Connection", (), {"cursor": lambda self: cursor})()
    with stamina.set_testing(True, attempts=5):
        apply_pragmas(connection)
    assert cursor.executed == [f"PRAGMA {pragma}" for pragma in PRAGMAS]
