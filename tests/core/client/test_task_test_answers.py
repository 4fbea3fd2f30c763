"""Editing a task's test answers as the apps do: label, answer text and expected verdict."""

from __future__ import annotations

import pytest

from core.api import Correctness, Expectation, InvalidParameter, TestAnswer, TestAnswersRequest
from core.client.history import answer_text
from core.client.task_test_answers import answer_from_text, edit_test_answer
from tests.contract.builders import mc_task

KEPT = TestAnswer(label="first", answer={"selectedIndex": 2}, expected=Expectation(verdict=Correctness.WRONG))
EDITED = TestAnswer(
    label="venus",
    answer={"selectedIndex": 1},
    expected=Expectation(verdict=Correctness.WRONG, present=["a concept"]),
)


async def with_answers(service):
    await service.upsert_task("default", mc_task())
    await service.put_test_answers("default", "mc-1", TestAnswersRequest(answers=[KEPT, EDITED]))


async def test_an_edit_changes_label_answer_and_verdict_in_place_keeping_the_aspects(service):
    await with_answers(service)
    result = await edit_test_answer(
        service,
        "default",
        "mc-1",
        "venus",
        new_label=" Bern ",
        answer=answer_from_text(EDITED.answer, '{"selectedIndex": 0}'),
        verdict=Correctness.CORRECT,
    )
    assert result.answers == [
        KEPT,
        TestAnswer(
            label="Bern",
            answer={"selectedIndex": 0},
            expected=Expectation(verdict=Correctness.CORRECT, present=["a concept"]),
        ),
    ]
    assert (await service.list_test_answers("default", "mc-1")) == result


async def test_any_verdict_and_refusals(service):
    await with_answers(service)
    anything = await edit_test_answer(
        service, "default", "mc-1", "first", new_label="first", answer=KEPT.answer, verdict=None
    )
    assert anything.answers[0].expected.verdict is None
    with pytest.raises(InvalidParameter, match="label"):
        await edit_test_answer(
            service, "default", "mc-1", "first", new_label="venus", answer=KEPT.answer, verdict=None
        )
    with pytest.raises(InvalidParameter, match="/"):
        await edit_test_answer(
            service, "default", "mc-1", "first", new_label="a/b", answer=KEPT.answer, verdict=None
        )
    with pytest.raises(InvalidParameter, match="first"):
        await edit_test_answer(
            service, "default", "mc-1", "first", new_label="first", answer={"content": "Bern"}, verdict=None
        )


def test_a_free_text_answer_is_edited_as_text_and_any_other_as_json():
    assert answer_from_text({"content": "old"}, '{"not": "json read"}') == {"content": '{"not": "json read"}'}
    assert answer_from_text({"selectedIndex": 1}, answer_text({"selectedIndex": 2})) == {"selectedIndex": 2}
    with pytest.raises(InvalidParameter, match="JSON"):
        answer_from_text({"selectedIndex": 1}, "Bern")
    with pytest.raises(InvalidParameter, match="object"):
        answer_from_text({"selectedIndex": 1}, "[1]")
