"""Retest on the embedded service: edits of a task show up as changed verdicts and failing expectations."""

from __future__ import annotations

import pytest

from core.api import (
    AnswerSource,
    ComputeFeedbackRequest,
    InvalidParameter,
    NotFound,
    TestAnswer,
    TestAnswerSet,
    TestAnswersRequest,
    parse_task,
)
from core.client.retest import reassign, retest
from core.workspace.files import write_files
from core.workspace.retest import RETEST_USER
from tests.core.workspace.builders import MC_ID, blanks_task, mc_task, mc_test_answers

TENANT = "default"


async def answer(service, task: dict, given: dict, user: str = "learner") -> None:
    await service.compute_feedback(
        ComputeFeedbackRequest.model_validate(
            {"userId": user, "taskType": task["type"], "taskDefinition": task, "answer": given}
        )
    )


async def upsert(service, document: dict) -> None:
    await service.upsert_task(TENANT, parse_task(document))


@pytest.fixture
async def mc(service):
    """The multiple-choice task with its test answers (Bern, Zurich) and five earlier answers: Bern
    twice and Zurich once, which are test answers too, and Geneva twice, which is not."""
    task = mc_task(correct=0)
    for index in (0, 1, 0, 2, 2):
        await answer(service, task, {"selectedIndex": index})
    await service.put_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=mc_test_answers()))
    return service


async def test_an_unchanged_task_passes_and_nothing_changed(mc):
    report = await retest(mc, TENANT, [MC_ID])
    [task] = report.tasks
    assert report.passed and report.changedCount == 0
    assert [(a.source, a.label) for a in task.answers][:2] == [
        (AnswerSource.TEST_ANSWER, "bern"),
        (AnswerSource.TEST_ANSWER, "zurich"),
    ]
    earlier = [a for a in task.answers if a.source is AnswerSource.INTERACTION]
    # Bern and Zurich are the test answers' lines: what the author expects of them counts
    assert [(a.answer["selectedIndex"], a.occurrences) for a in earlier] == [(2, 2)]


async def test_changing_the_correct_option_fails_the_expectation_and_flips_earlier_verdicts(mc):
    await upsert(mc, mc_task(correct=2))

    report = await retest(mc, TENANT, [MC_ID])

    assert not report.passed
    by_label = {a.label: a for a in report.tasks[0].answers if a.source is AnswerSource.TEST_ANSWER}
    assert by_label["bern"].failures == ["expected CORRECT, got WRONG"]
    assert by_label["zurich"].passed
    [geneva] = [a for a in report.tasks[0].answers if a.source is AnswerSource.INTERACTION]
    assert (geneva.answer, geneva.occurrences) == ({"selectedIndex": 2}, 2)
    assert (geneva.before.verdict, geneva.after.verdict, geneva.pointsChange) == ("WRONG", "CORRECT", 1.0)
    assert geneva.verdictChanged and geneva.changed and geneva.passed
    assert report.tasks[0].version == 2 and report.changedCount == 1


async def test_an_answer_the_author_expects_correct_but_judged_wrong_fails_rather_than_unchanged(service):
    """The issue: Zurich was judged WRONG and is WRONG still; the author says it should be CORRECT.
    Against its newest feedback it is "unchanged"; against what the author expects it fails, and
    only the test answer's line says so."""
    task = mc_task(correct=0)
    for index in (0, 1, 1):
        await answer(service, task, {"selectedIndex": index})
    gold = TestAnswer(label="zurich is fine", answer={"selectedIndex": 1}, expected={"verdict": "CORRECT"})
    await service.put_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=[gold]))

    report = await retest(service, TENANT, [MC_ID])

    [task_report] = report.tasks
    zurich = [a for a in task_report.answers if a.answer == {"selectedIndex": 1}]
    assert [(a.source, a.label, a.failures) for a in zurich] == [
        (AnswerSource.TEST_ANSWER, "zurich is fine", ["expected CORRECT, got WRONG"])
    ]
    assert not report.passed and report.failed == 1
    [bern] = [a for a in task_report.answers if a.source is AnswerSource.INTERACTION]
    assert (bern.answer, bern.occurrences, bern.changed) == ({"selectedIndex": 0}, 1, False)


async def test_an_earlier_answer_that_is_a_test_answer_is_not_offered_for_reassigning(mc):
    """After the edit Zurich is CORRECT; the author's test answer says WRONG. Its earlier line would
    be "changed" and, failing nothing, accepted as a CORRECT graded answer against the author."""
    await upsert(mc, mc_task(correct=1))

    [task] = (await retest(mc, TENANT, [MC_ID])).tasks

    assert [(a.source, a.answer["selectedIndex"]) for a in task.answers] == [
        (AnswerSource.TEST_ANSWER, 0),
        (AnswerSource.TEST_ANSWER, 1),
        (AnswerSource.INTERACTION, 2),  # Geneva: WRONG before and after
    ]
    assert task.changedCount == 0 and task.failed == 2
    assert await reassign(mc, TENANT, task) is None


async def test_with_files_an_earlier_answer_the_service_keeps_as_gold_is_checked_against_it(
    service, tmp_path
):
    """The files hold the task but not the author's gold answer stored in the service: the earlier
    answer is checked against the verdict the author expects, not called unchanged."""
    task = mc_task(correct=0)
    await answer(service, task, {"selectedIndex": 1})
    gold = TestAnswer(label="zurich is fine", answer={"selectedIndex": 1}, expected={"verdict": "CORRECT"})
    await service.put_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=[gold]))
    write_files(tmp_path, [parse_task(task)], [], "yaml")

    report = await retest(service, TENANT, files=tmp_path)

    [earlier] = report.tasks[0].answers
    assert earlier.source is AnswerSource.INTERACTION
    assert (earlier.before.verdict, earlier.after.verdict) == ("WRONG", "WRONG")
    assert earlier.expected.verdict == "CORRECT"
    assert earlier.failures == ["expected CORRECT, got WRONG"] and not report.passed


async def test_retest_on_the_embedded_service_records_no_interactions(mc):
    before = len(await mc.list_interactions(TENANT, MC_ID))
    await retest(mc, TENANT, [MC_ID])
    assert len(await mc.list_interactions(TENANT, MC_ID)) == before


async def test_removing_an_accepted_answer_of_a_blank_is_caught(service):
    task = blanks_task(["100", "212"])
    await answer(service, task, {"blanks": [{"content": "212.3"}]})  # within the tolerance
    await service.put_test_answers(
        TENANT,
        task["id"],
        TestAnswersRequest(
            answers=[
                TestAnswer(
                    label="fahrenheit",
                    answer={"blanks": [{"content": "212"}]},
                    expected={"verdict": "CORRECT"},
                )
            ]
        ),
    )
    await upsert(service, blanks_task(["100"]))

    [task_report] = (await retest(service, TENANT, [task["id"]])).tasks

    test, earlier = task_report.answers
    assert test.failures == ["expected CORRECT, got WRONG"]
    assert (earlier.before.verdict, earlier.after.verdict) == ("CORRECT", "WRONG")


async def test_an_aspect_renamed_away_fails_expectations_that_name_it(mc):
    renamed = mc_task(correct=0)
    renamed["options"][0]["aspects"][0]["name"] = "Knows the federal city"
    await upsert(mc, renamed)

    bern = (await retest(mc, TENANT, [MC_ID])).tasks[0].answers[0]

    assert bern.failures == [
        "aspect 'Chooses Bern' was expected but not detected",
        "aspect 'Chooses Bern' is not defined by the task",
    ]


async def test_an_answer_that_no_longer_fits_the_task_fails_with_the_reason(service):
    task = mc_task(correct=0)
    await upsert(service, task)
    await service.put_test_answers(
        TENANT, MC_ID, TestAnswersRequest(answers=[TestAnswer(label="geneva", answer={"selectedIndex": 2})])
    )
    await upsert(service, {**task, "options": task["options"][:2]})

    [geneva] = (await retest(service, TENANT, [MC_ID])).tasks[0].answers

    assert geneva.after is None
    assert geneva.failures == ["no feedback: selectedIndex 2 is out of range: the task has options 0 to 1"]


async def test_reassign_accepts_the_changed_feedback_into_the_graded_answers(mc):
    await upsert(mc, mc_task(correct=2))
    [task] = (await retest(mc, TENANT, [MC_ID])).tasks

    accepted = await reassign(mc, TENANT, task)

    assert accepted is not None and accepted.added == 1  # Geneva, not the test answers
    assert await reassign(mc, TENANT, task, labels=["bern"]) is not None


async def test_naming_an_unknown_task_is_an_error(service):
    with pytest.raises(NotFound, match="nope"):
        await retest(service, TENANT, ["nope"])


async def test_test_answers_are_checked_against_the_task_and_replaced_by_label(service):
    await upsert(service, mc_task(correct=0))
    with pytest.raises(InvalidParameter, match="test answer 'x'"):
        await service.put_test_answers(
            TENANT, MC_ID, TestAnswersRequest(answers=[TestAnswer(label="x", answer={"content": "Bern"})])
        )
    with pytest.raises(InvalidParameter, match="repeated: x"):
        twice = TestAnswer(label="x", answer={"selectedIndex": 0})
        await service.put_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=[twice, twice]))

    await service.put_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=mc_test_answers()))
    moved = TestAnswer(label="bern", answer={"selectedIndex": 2})
    stored = await service.add_test_answers(TENANT, MC_ID, TestAnswersRequest(answers=[moved]))
    assert [(a.label, a.answer) for a in stored.answers] == [
        ("zurich", {"selectedIndex": 1}),
        ("bern", {"selectedIndex": 2}),
    ]

    left = await service.delete_test_answer(TENANT, MC_ID, "zurich")
    assert [a.label for a in left.answers] == ["bern"]
    with pytest.raises(NotFound):
        await service.delete_test_answer(TENANT, MC_ID, "zurich")


class PublicOnly:
    """A service reached only through the public API: no authoring extensions."""

    def __init__(self, service) -> None:
        self._service = service

    async def info(self):
        return (await self._service.info()).model_copy(update={"extensions": False})

    def __getattr__(self, name):
        if name in {"compute_feedback", "compute_feedback_for_task", "upsert_task"}:
            return getattr(self._service, name)
        raise AttributeError(f"{name} is an extension")


async def test_without_extensions_retest_reads_tasks_and_test_answers_from_files(service, tmp_path):
    task = parse_task(mc_task(correct=1))
    write_files(tmp_path, [task], [TestAnswerSet(taskId=MC_ID, answers=mc_test_answers())], "yaml")
    public = PublicOnly(service)

    report = await retest(public, TENANT, files=tmp_path)

    assert [a.failures for a in report.tasks[0].answers] == [
        ["expected CORRECT, got WRONG"],
        ["expected WRONG, got CORRECT"],
    ]
    recorded = await service.list_interactions(TENANT, MC_ID)
    assert {r.userId for r in recorded} == {RETEST_USER}  # public calls record; later retests skip them
    with pytest.raises(InvalidParameter, match="as files"):
        await retest(public, TENANT, [MC_ID])
