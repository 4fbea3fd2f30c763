"""Marking a judged answer as gold: it becomes a test answer with the expected verdict, is retested
at once, and (when asked) also a graded answer."""

from __future__ import annotations

from functools import partial

from core.api import Correctness
from core.client.gold import gold_outcome, label_for, mark_gold, remove_test_answer
from core.client.i18n import translate
from core.store import interactions
from tests.contract.builders import mc_task


async def stored_task(service):
    task = mc_task()
    await service.upsert_task("default", task)
    return task


async def test_a_gold_answer_is_kept_as_a_test_answer_and_retested_at_once(service):
    task = await stored_task(service)
    agreeing = await mark_gold(service, "default", task.id, {"selectedIndex": 0}, Correctness.CORRECT)
    assert agreeing.label == "option 0" and agreeing.after.verdict is Correctness.CORRECT
    assert agreeing.failures == []
    disagreeing = await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.PARTIAL)
    assert disagreeing.failures  # the engine says WRONG: the author sees it at once
    stored = (await service.list_test_answers("default", task.id)).answers
    assert [(t.label, t.expected.verdict) for t in stored] == [
        ("option 0", Correctness.CORRECT),
        ("option 1", Correctness.PARTIAL),
    ]


async def test_marking_the_same_answer_again_replaces_its_verdict(service):
    task = await stored_task(service)
    await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.PARTIAL)
    await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.WRONG)
    stored = (await service.list_test_answers("default", task.id)).answers
    assert [(t.label, t.expected.verdict) for t in stored] == [("option 1", Correctness.WRONG)]
    await remove_test_answer(service, "default", task.id, "option 1")
    assert (await service.list_test_answers("default", task.id)).answers == []


async def test_learn_also_stores_a_graded_answer(service):
    task = await stored_task(service)
    await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.WRONG, learn=True)
    async with service.runtime.db.read() as session:
        graded = await session.run_sync(
            lambda sync: interactions.list_graded(sync.connection(), "default", task.id)
        )
    assert [(g.answer, g.correctness) for g in graded] == [({"selectedIndex": 1}, "WRONG")]


async def test_the_outcome_is_said_in_the_apps_language(service):
    task = await stored_task(service)
    agreeing = await mark_gold(service, "default", task.id, {"selectedIndex": 0}, Correctness.CORRECT)
    disagreeing = await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.PARTIAL)
    assert gold_outcome(agreeing, partial(translate, "en")) == (
        "Kept as test answer “option 0”: the engine agrees (CORRECT)."
    )
    german = gold_outcome(disagreeing, partial(translate, "de"))
    assert (
        german.startswith("Als Testantwort „option 1“ behalten") and "PARTIAL" in german and "WRONG" in german
    )


def test_labels_are_short_unique_and_without_slashes():
    assert label_for({"content": "a/b  c"}, set()) == "a∕b c"
    assert label_for({"content": "x"}, {"x", "x (2)"}) == "x (3)"
    assert len(label_for({"content": "word " * 40}, set())) == 60
