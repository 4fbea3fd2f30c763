"""The SQLite writer (group commit), and the compute path that runs as its jobs."""

from __future__ import annotations

import asyncio
import re
import sqlite3

import pytest
from sqlalchemy import Connection, event, text
from sqlalchemy.exc import IntegrityError

from core.api import ComputeFeedbackRequest, ComputeTaskFeedbackRequest, TaskAction, TaskType
from core.service.local import LocalService
from core.store import interactions, tasks
from core.store.db import Database, json_text
from core.store.writer import Prefetching, SqliteWriter, insert_at_commit, invalidate


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
    writer = SqliteWriter(str(path), asyncio.Lock(), json_serializer=json_text)
    yield writer, path
    await writer.aclose()


def stored_notes(path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [text for (text,) in connection.execute("SELECT text FROM notes ORDER BY id")]


def add_note(text: str | None):
    def job(connection: Connection) -> int:
        return connection.exec_driver_sql("INSERT INTO notes (text) VALUES (?)", (text,)).lastrowid

    return job


def add_then_fail(connection: Connection) -> None:
    connection.exec_driver_sql("INSERT INTO notes (text) VALUES ('half')")
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


async def test_a_failing_job_alone_in_its_transaction_leaves_nothing(writer):
    writer, path = writer
    with pytest.raises(ValueError):
        await writer.run(add_then_fail)
    await writer.run(add_note("after"))
    assert stored_notes(path) == ["after"]


async def test_a_failing_statement_spares_its_batch(writer):
    writer, path = writer
    results = await asyncio.gather(
        writer.run(add_note("before")),
        writer.run(add_note(None)),
        writer.run(add_note("after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], IntegrityError)
    assert stored_notes(path) == ["before", "after"]


def traced(writer: SqliteWriter) -> list[str]:
    """The statements the writer's connection runs from now on."""
    statements: list[str] = []
    writer._connect().connection.driver_connection.set_trace_callback(statements.append)
    return statements


def counted(job, calls: list[str], name: str):
    def run(connection: Connection):
        calls.append(name)
        return job(connection)

    return run


def refuse(connection: Connection) -> None:
    raise LookupError("refused before writing anything")


async def test_a_batch_whose_jobs_write_nothing_on_failure_runs_once_without_savepoints(writer):
    writer, path = writer
    statements, calls = traced(writer), []
    results = await asyncio.gather(
        writer.run(counted(add_note("before"), calls, "before")),
        writer.run(counted(refuse, calls, "refuse")),
        writer.run(counted(add_note("after"), calls, "after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], LookupError)
    assert calls == ["before", "refuse", "after"]
    assert [s for s in statements if "SAVEPOINT" in s or "ROLLBACK" in s] == ["SAVEPOINT batch"]
    assert stored_notes(path) == ["before", "after"]


async def test_a_job_failing_after_it_wrote_makes_its_batch_run_again_under_savepoints(writer):
    writer, path = writer
    statements, calls = traced(writer), []
    results = await asyncio.gather(
        writer.run(counted(add_note("before"), calls, "before")),
        writer.run(counted(add_then_fail, calls, "half")),
        writer.run(counted(add_note("after"), calls, "after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], ValueError)
    assert calls == ["before", "half", "before", "half", "after"]
    assert "ROLLBACK TO batch" in statements and statements.count("SAVEPOINT job") == 3
    assert results[0] == 1 and results[2] == 2  # the rows of the run that was committed
    assert stored_notes(path) == ["before", "after"]


def dangling_ref(connection: Connection) -> str:
    """Succeeds itself; its deferred foreign key fails the COMMIT of its whole batch."""
    connection.exec_driver_sql("INSERT INTO refs (note) VALUES (999)")
    return "done"


async def test_results_are_given_only_by_a_commit_that_succeeded(writer):
    """A job that ran without error still fails, with its whole batch, if the COMMIT does."""
    writer, path = writer
    results = await asyncio.gather(
        writer.run(add_note("batched")), writer.run(dangling_ref), return_exceptions=True
    )
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results)  # the COMMIT: the driver's error
    assert stored_notes(path) == []
    await writer.run(add_note("after"))  # the connection is usable again
    assert stored_notes(path) == ["after"]


INSERT_NOTE = text("INSERT INTO notes (text) VALUES (:text)")


def defer_note(note: str | None, *, then_fail: bool = False):
    def job(connection: Connection) -> str:
        insert_at_commit(connection, INSERT_NOTE, {"text": note})
        if then_fail:
            raise ValueError("failed after deferring its row")
        return "deferred"

    return job


def executions(writer: SqliteWriter) -> list[tuple[str, int]]:
    """(statement, how many rows of parameters) of every execution through SQLAlchemy from now on."""
    seen: list[tuple[str, int]] = []

    def record(_conn, _cursor, statement, parameters, _context, executemany) -> None:  # type: ignore[no-untyped-def]
        seen.append((statement, len(parameters) if executemany else 1))

    event.listen(writer._engine, "before_cursor_execute", record)
    return seen


async def test_a_batchs_deferred_rows_are_inserted_by_one_statement_before_its_commit(writer):
    writer, path = writer
    writer._connect()
    seen = executions(writer)
    results = await asyncio.gather(*(writer.run(defer_note(f"d{i}")) for i in range(20)))
    assert results == ["deferred"] * 20
    assert [n for s, n in seen if s.startswith("INSERT INTO notes")] == [20]
    assert sorted(stored_notes(path)) == sorted(f"d{i}" for i in range(20))


async def test_a_job_failing_after_it_deferred_a_row_inserts_none(writer):
    writer, path = writer
    results = await asyncio.gather(
        writer.run(defer_note("before")),
        writer.run(defer_note("lost", then_fail=True)),
        writer.run(defer_note("after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], ValueError)
    assert stored_notes(path) == ["before", "after"]
    with pytest.raises(ValueError):
        await writer.run(defer_note("alone", then_fail=True))
    assert stored_notes(path) == ["before", "after"]


async def test_a_refused_deferred_row_fails_only_the_job_that_deferred_it(writer):
    writer, path = writer
    results = await asyncio.gather(
        writer.run(defer_note("before")),
        writer.run(defer_note(None)),  # NOT NULL: refused when the batch inserts its rows
        writer.run(add_note("direct")),
        writer.run(defer_note("after")),
        return_exceptions=True,
    )
    assert isinstance(results[1], IntegrityError)
    assert results[0] == results[3] == "deferred" and results[2] == 2  # the id of the committed run
    assert stored_notes(path) == ["before", "direct", "after"]  # each job's rows right after it
    with pytest.raises(IntegrityError):
        await writer.run(defer_note(None))
    assert stored_notes(path) == ["before", "direct", "after"]


class NoteReads:
    """Prefetching jobs reading notes by id, counting the statements they make for whole batches."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    def many(self, connection: Connection, ids) -> dict:
        self.batches.append(sorted(ids))
        marks = ",".join("?" * len(ids))
        rows = connection.exec_driver_sql(f"SELECT id, text FROM notes WHERE id IN ({marks})", tuple(ids))
        return {**dict.fromkeys(ids), **dict(rows.all())}

    def job(self, note_id: int, *, rewrite: str | None = None) -> Prefetching:
        """The note's text as the job finds it; with `rewrite`, the text it changes it to."""

        def then(connection: Connection, found: str | None) -> str | None:
            if rewrite is None:
                return found
            connection.exec_driver_sql("UPDATE notes SET text = ? WHERE id = ?", (rewrite, note_id))
            invalidate(connection, self.many, note_id)
            return rewrite

        return Prefetching(self.many, note_id, then)


async def test_a_batchs_reads_are_made_by_one_statement_for_all_its_jobs(writer):
    writer, _ = writer
    await asyncio.gather(writer.run(add_note("one")), writer.run(add_note("two")))
    notes = NoteReads()
    texts = await asyncio.gather(*(writer.run(notes.job(i % 3 + 1)) for i in range(12)))
    assert texts == ["one", "two", None] * 4
    assert notes.batches == [[1, 2, 3]]
    assert await writer.run(notes.job(2)) == "two"  # alone: its own statement
    assert notes.batches == [[1, 2, 3], [2]]


async def test_a_value_a_job_changed_is_read_anew_by_the_jobs_after_it(writer):
    writer, _ = writer
    await writer.run(add_note("old"))
    notes = NoteReads()
    texts = await asyncio.gather(
        writer.run(notes.job(1)),
        writer.run(notes.job(1, rewrite="new")),
        writer.run(notes.job(1)),
    )
    assert texts == ["old", "new", "new"]
    assert notes.batches == [[1], [1]]  # the batch's read, then the last job's own


async def test_a_database_file_has_a_writer_and_an_in_memory_one_none(tmp_path):
    memory = Database("sqlite+aiosqlite:///:memory:")
    file = Database(f"sqlite+aiosqlite:///{tmp_path / 'f.sqlite3'}")
    try:
        assert memory.writer is None
        assert isinstance(file.writer, SqliteWriter)
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


async def test_computations_are_recorded_by_the_writer_and_read_back(service: LocalService, runtime):
    """A task created by its first computation and found unchanged by the next, and a computation
    by id: all three are the writer's jobs, and their rows read back as they were answered."""
    created = await service.compute_feedback(mc_request(1))
    unchanged = await service.compute_feedback(mc_request(0, metaData={"tryCount": 2, "sessionId": "s1"}))
    by_id = await service.compute_feedback_for_task(
        "capital",
        ComputeTaskFeedbackRequest.model_validate(
            {"userId": "learner", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": 0}}
        ),
    )
    assert [f.metaData.taskAction for f in (created, unchanged, by_id)] == [
        TaskAction.CREATED,
        TaskAction.UNCHANGED,
        TaskAction.UNCHANGED,
    ]
    records = await service.list_interactions("default", "capital")
    assert [r.interactionId for r in records] == [
        f.metaData.interactionId for f in (by_id, unchanged, created)
    ]
    assert [r.feedback for r in records] == [by_id, unchanged, created]
    assert records[1].answer == {"selectedIndex": 0} and records[1].learnerMetaData.to_wire() == {
        "tryCount": 2,
        "sessionId": "s1",
    }
    found = await runtime.db.run_read(
        lambda c: interactions.read_interaction(c, by_id.metaData.interactionId)
    )
    row = found.interaction
    assert (row.task_version, row.verdict, row.user_id) == (1, "CORRECT", "learner")

    # As stored: the timestamps in the text format SQL compares and orders, JSON as pydantic wrote it.
    def stored(connection: Connection) -> list[tuple[str, str]]:
        return connection.exec_driver_sql("SELECT created_at, learner_meta FROM interactions").all()

    rows = await runtime.db.run_write(stored)
    timestamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
    assert all(timestamp.fullmatch(created_at) for created_at, _ in rows)
    assert sorted(meta for _, meta in rows) == ["null", "null", '{"tryCount":2,"sessionId":"s1"}']


async def test_a_tasks_revision_is_read_by_its_key(runtime, service: LocalService):
    await service.compute_feedback(mc_request(1))
    revision = await runtime.db.run_write(lambda c: tasks.read_revision(c, "default", "capital"))
    assert (revision.type, revision.version, revision.graded_count) == (TaskType.MULTIPLE_CHOICE, 1, 0)
    assert await runtime.db.run_write(lambda c: tasks.read_revision(c, "default", "nope")) is None


async def test_computations_beside_a_change_of_their_task_are_recorded_as_judged(runtime, service):
    """Computations by id beside one that changes their task (sent along), all at once: each is
    recorded against the version it was judged against (the batch reads its tasks' revisions in
    one statement, and the change makes the jobs after it read the new one)."""
    await service.compute_feedback(mc_request(1))  # version 1: Bern is correct
    changed = mc_request(1).model_copy(deep=True)
    changed.taskDefinition.options[0].correct, changed.taskDefinition.options[1].correct = False, True
    seen = executions(runtime.db.writer)
    by_id = ComputeTaskFeedbackRequest.model_validate(
        {"userId": "learner", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": 1}}
    )
    before, updated, after = await asyncio.gather(
        service.compute_feedback_for_task("capital", by_id),
        service.compute_feedback(changed),
        service.compute_feedback_for_task("capital", by_id),
    )
    assert [s for s, _ in seen if "FROM tasks" in s and " IN (" in s]  # a batch's read
    assert updated.metaData.taskAction is TaskAction.UPDATED
    records = {r.interactionId: r for r in await service.list_interactions("default", "capital")}
    versions = [records[f.metaData.interactionId].taskVersion for f in (before, updated, after)]
    assert versions[1:] == [2, 2]  # the last was judged after the change was written
    for computed, version in zip((before, updated, after), versions, strict=True):
        assert computed.result.verdict.value == ("CORRECT" if version == 2 else "WRONG")


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
    monkeypatch.setattr("core.store.writer.CHECKPOINT_EVERY", 20)
    writer, _ = writer
    started = []
    monkeypatch.setattr(writer, "checkpoint", lambda: started.append(len(started)) or asyncio.sleep(0))
    for i in range(50):
        await writer.run(add_note(str(i)))
        await asyncio.sleep(0)  # the checkpoint of the previous round has finished
    assert len(started) == 2


async def test_a_long_log_starts_over_though_writes_keep_coming(writer, monkeypatch):
    """A passive checkpoint alone never lets the log start over while writes keep coming; past its
    limit a checkpoint holds them back until it has copied the log, and later writes reuse the
    file from its start instead of growing it."""
    monkeypatch.setattr("core.store.writer.CHECKPOINT_EVERY", 10**6)
    monkeypatch.setattr("core.store.writer.WAL_LIMIT_PAGES", 50)
    writer, path = writer
    for i in range(400):  # 1.6 MB of notes, one transaction each
        await writer.run(add_note(f"{i}{'x' * 4000}"))
    wal = path.with_name(path.name + "-wal")
    filled = wal.stat().st_size
    assert filled > 1_600_000
    checkpoint = asyncio.ensure_future(writer.checkpoint())
    written = 400
    while not checkpoint.done():  # writes keep coming while it runs
        await writer.run(add_note(f"{written}{'x' * 4000}"))
        written += 1
    await checkpoint
    grown = wal.stat().st_size
    for i in range(400):  # as much again as filled it at first
        await writer.run(add_note(f"{written + i}{'x' * 4000}"))
    assert wal.stat().st_size < 1.1 * max(filled, grown)  # no longer than it ever was
    assert len(stored_notes(path)) == written + 400


def test_a_locked_pragma_at_connect_is_tried_again():
    """Two processes creating the database at once: switching it to WAL may be refused at once."""
    import stamina

    from core.store.writer import PRAGMAS, apply_pragmas

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
