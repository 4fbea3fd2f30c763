"""PostgreSQL's writer: the jobs that arrive together share one transaction, all or nothing.

Runs where FEEDBACK_STUDIO_TEST_POSTGRES_URL names a server (tests/conftest.py).
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import Connection, event, text
from sqlalchemy.exc import IntegrityError

from core.store.db import Database
from core.store.writer import Prefetching, ServerWriter, insert_at_commit, invalidate

INSERT_NOTE = text("INSERT INTO notes (text) VALUES (:text)")


@pytest.fixture
async def database(postgres_url):
    """A Database of a fresh PostgreSQL database with a table of notes, and the transactions it
    begins from then on."""
    database = Database(postgres_url)
    async with database.engine.begin() as connection:
        await connection.execute(text("CREATE TABLE notes (id SERIAL PRIMARY KEY, text TEXT NOT NULL)"))
    transactions: list[int] = []
    event.listen(database.engine.sync_engine, "begin", lambda _connection: transactions.append(1))
    yield database, transactions
    await database.aclose()


async def stored_notes(database: Database) -> list[str]:
    async with database.engine.connect() as connection:
        return list((await connection.execute(text("SELECT text FROM notes ORDER BY id"))).scalars())


def add_note(note: str | None, *, then_fail: bool = False, deferred: bool = False):
    def job(connection: Connection) -> str:
        if deferred:
            insert_at_commit(connection, INSERT_NOTE, {"text": note})
        else:
            connection.execute(INSERT_NOTE, {"text": note})
        if then_fail:
            raise ValueError("failed after writing")
        return f"added {note}"

    return job


async def test_a_server_database_writes_through_its_writer(database):
    database, _ = database
    assert isinstance(database.writer, ServerWriter)


async def test_jobs_that_arrive_together_share_a_transaction_and_insert_their_rows_together(database):
    database, transactions = database
    statements: list[tuple[str, bool]] = []
    event.listen(
        database.engine.sync_engine,
        "before_cursor_execute",
        lambda _c, _cur, statement, _p, _ctx, many: statements.append((statement, many)),
    )
    results = await asyncio.gather(*(database.run_write(add_note(f"n{i}", deferred=True)) for i in range(20)))
    assert results == [f"added n{i}" for i in range(20)]
    assert len(transactions) < 20
    assert sum(1 for statement, _ in statements if statement.startswith("INSERT INTO notes")) == len(
        transactions
    )
    assert sorted(await stored_notes(database)) == sorted(f"n{i}" for i in range(20))


async def test_a_job_that_fails_after_writing_leaves_nothing_and_spares_its_batch(database):
    database, _ = database
    results = await asyncio.gather(
        database.run_write(add_note("before")),
        database.run_write(add_note("half", then_fail=True)),
        database.run_write(add_note("deferred, then failed", then_fail=True, deferred=True)),
        database.run_write(add_note("after", deferred=True)),
        return_exceptions=True,
    )
    assert isinstance(results[1], ValueError) and isinstance(results[2], ValueError)
    assert results[0] == "added before" and results[3] == "added after"
    assert sorted(await stored_notes(database)) == ["after", "before"]


async def test_a_refused_row_fails_only_the_job_that_wrote_it(database):
    database, _ = database
    results = await asyncio.gather(
        database.run_write(add_note("before")),
        database.run_write(add_note(None)),  # NOT NULL: aborts the batch's transaction
        database.run_write(add_note(None, deferred=True)),  # refused by the batch's executemany
        database.run_write(add_note("after", deferred=True)),
        return_exceptions=True,
    )
    assert isinstance(results[1], IntegrityError) and isinstance(results[2], IntegrityError)
    assert sorted(await stored_notes(database)) == ["after", "before"]
    with pytest.raises(IntegrityError):
        await database.run_write(add_note(None, deferred=True))  # alone in its batch
    assert sorted(await stored_notes(database)) == ["after", "before"]


class NoteReads:
    """Prefetching jobs reading notes by id, counting the statements they make for whole batches."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    def many(self, connection: Connection, ids) -> dict:
        self.batches.append(sorted(ids))
        rows = connection.execute(text("SELECT id, text FROM notes WHERE id = ANY(:ids)"), {"ids": list(ids)})
        return {**dict.fromkeys(ids), **dict(rows.all())}

    def job(self, note_id: int, *, rewrite: str | None = None) -> Prefetching:
        """The note's text as the job finds it; with `rewrite`, the text it changes it to."""

        def then(connection: Connection, found: str | None) -> str | None:
            if rewrite is None:
                return found
            connection.execute(
                text("UPDATE notes SET text = :text WHERE id = :id"), {"text": rewrite, "id": note_id}
            )
            invalidate(connection, self.many, note_id)
            return rewrite

        return Prefetching(self.many, note_id, then)


async def test_a_batchs_reads_are_made_by_one_statement_for_all_its_jobs(database):
    database, _ = database
    await asyncio.gather(database.run_write(add_note("one")), database.run_write(add_note("two")))
    notes = NoteReads()
    texts = await asyncio.gather(*(database.run_write(notes.job(i % 3 + 1)) for i in range(12)))
    assert texts == ["one", "two", None] * 4
    assert len(notes.batches) < 12 and {n for batch in notes.batches for n in batch} == {1, 2, 3}


async def test_a_value_a_job_changed_is_read_anew_by_the_jobs_after_it(database):
    database, _ = database
    await database.run_write(add_note("old"))
    notes = NoteReads()
    texts = await asyncio.gather(
        database.run_write(notes.job(1)),
        database.run_write(notes.job(1, rewrite="new")),
        database.run_write(notes.job(1)),
    )
    assert texts == ["old", "new", "new"]
    assert notes.batches == [[1], [1]]  # the batch's read, then the last job's own
