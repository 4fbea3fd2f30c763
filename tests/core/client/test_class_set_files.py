"""Reading a class's answers from a file: the three kinds, a BOM, and every bad input with a clear
message naming the file; an import stopped or failed leaves no set behind."""

from __future__ import annotations

import asyncio
import json

import pytest

from core.api import parse_task
from core.assets import demo_tasks
from core.client.class_sets import ImportProblem, import_set, read_answers
from tests.class_set_files import BAD_CLASS_FILES

ANSWERS = ["The circuit is closed.", "The bulb is magic.", "The bulb is magic."]


def test_csv_with_a_header_naming_the_answer_column_and_a_bom() -> None:
    data = "\ufeffname;Antwort\nAda;The circuit is closed.\nBo;The bulb is magic.\nCy;The bulb is magic.\n"
    read = read_answers("7b.csv", data.encode("utf-8"), "en")
    assert read.answers == ANSWERS and read.duplicates == 1
    assert read.summary("en") == "3 answers · 1 repeat an earlier answer (kept; a grade goes to all)"


def test_json_lines_and_plain_lines() -> None:
    jsonl = "\n".join(json.dumps(x) for x in [{"answer": ANSWERS[0]}, ANSWERS[1], {"text": ANSWERS[2]}])
    assert read_answers("7b.jsonl", jsonl.encode(), "en").answers == ANSWERS
    plain = read_answers("7b.txt", ("\n".join(ANSWERS) + "\n\n  \n").encode(), "en")
    assert plain.answers == ANSWERS and plain.blank == 2


@pytest.mark.parametrize(
    ("name", "data", "message"), BAD_CLASS_FILES, ids=[case[0] for case in BAD_CLASS_FILES]
)
def test_bad_files_say_what_is_wrong(name: str, data: bytes, message: str) -> None:
    with pytest.raises(ImportProblem) as raised:
        read_answers(name, data, "en")
    assert str(raised.value) == message


def test_the_message_is_in_the_users_language() -> None:
    with pytest.raises(ImportProblem) as raised:
        read_answers("leer.txt", b"", "de")
    assert str(raised.value).startswith("leer.txt") and "holds" not in str(raised.value)


async def test_a_stopped_import_leaves_no_set_behind(service) -> None:
    task = parse_task(next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en"))
    await service.upsert_task("default", task)
    started = asyncio.Event()

    def progress(current) -> None:
        started.set()

    importing = asyncio.create_task(
        import_set(service, "default", task.id, "7b", ["The circuit is closed."] * 400, progress)
    )
    await started.wait()
    importing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await importing
    assert await service.list_class_sets("default", task.id) == []


async def test_an_import_judges_every_answer_and_reports_progress(service) -> None:
    task = parse_task(next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en"))
    await service.upsert_task("default", task)
    seen: list[int] = []
    done = await import_set(
        service, "default", task.id, "7b", ANSWERS * 70, lambda s: seen.append(s.judgedCount)
    )
    assert done.judgedCount == done.answerCount == 210
    assert seen[0] == 0 and seen[-1] == 210 and seen == sorted(seen) and len(seen) >= 3


async def test_an_import_stopped_while_its_set_is_created_leaves_no_set_behind(service) -> None:
    task = parse_task(next(t for t in demo_tasks() if t["id"] == "ff-bulb-circuit-en"))
    await service.upsert_task("default", task)
    importing = asyncio.create_task(
        import_set(service, "default", task.id, "7b", ["The circuit is closed."] * 10, lambda s: None)
    )
    await asyncio.sleep(0)  # the creation is under way
    importing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await importing
    assert await service.list_class_sets("default", task.id) == []
