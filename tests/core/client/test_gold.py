"""Marking a judged answer as gold: it becomes a test answer with the expected verdict, is retested
at once, and (when asked) also a graded answer."""

from __future__ import annotations

from functools import partial

from core.api import (
    AnswerRetest,
    AnswerSource,
    Correctness,
    Expectation,
    FeedbackSnapshot,
    TaskType,
    parse_task,
)
from core.client.gold import gold_outcome, label_for, learns_from_graded, mark_gold, remove_test_answer
from core.client.i18n import translate
from core.store import interactions
from tests.contract.builders import compute, mc_task


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


async def test_a_gold_answer_judged_wrong_before_and_after_fails_the_retest_rather_than_unchanged(service):
    """The issue: a learner's Zurich was judged WRONG; the author marks it "should be CORRECT". The
    engine still says WRONG, so the retest must say it fails that, not that it is unchanged."""
    task = await stored_task(service)
    await service.compute_feedback(compute(task, {"selectedIndex": 1}))

    line = await mark_gold(service, "default", task.id, {"selectedIndex": 1}, Correctness.CORRECT)

    assert line.failures == ["expected CORRECT, got WRONG"]
    [report] = (await service.retest("default", [task.id])).tasks
    assert [(a.source, a.failures) for a in report.answers] == [
        (AnswerSource.TEST_ANSWER, ["expected CORRECT, got WRONG"])
    ]
    assert (report.failed, report.changedCount) == (1, 0)


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
    graded = await service.runtime.db.run_read(lambda c: interactions.list_graded(c, "default", task.id))
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


def kept(got: Correctness, expected: Correctness = Correctness.CORRECT) -> AnswerRetest:
    failures = [] if got is expected else [f"expected {expected.value}, got {got.value}"]
    return AnswerRetest(
        source=AnswerSource.TEST_ANSWER,
        label="closed loop",
        answer={"content": "a closed loop"},
        after=FeedbackSnapshot(verdict=got, achievedPoints=0, achievablePoints=1),
        expected=Expectation(verdict=expected),
        failures=failures,
    )


def test_the_outcome_of_a_graded_answer_says_it_counted_and_that_the_rest_still_counts():
    english = partial(translate, "en")
    assert gold_outcome(kept(Correctness.CORRECT), english, learnt=True) == (
        "Kept as test answer “closed loop” and as a graded answer; counting it, the judge agrees (CORRECT)."
    )
    assert gold_outcome(kept(Correctness.WRONG), english, learnt=True) == (
        "Kept as test answer “closed loop” and as a graded answer, expecting CORRECT; even counting it the "
        "judge says WRONG (the sample solution and other graded answers count too), so retests flag it."
    )
    for language, start in [
        ("de", "Als Testantwort „closed loop“ und als bewertete Antwort behalten"),
        ("fr", "Gardée comme réponse de test « closed loop » et comme réponse notée"),
        ("it", "Tenuta come risposta di prova «closed loop» e come risposta valutata"),
    ]:
        said = gold_outcome(kept(Correctness.WRONG), partial(translate, language), learnt=True)
        assert said.startswith(start) and "CORRECT" in said and "WRONG" in said


def test_only_the_free_text_judge_learns_from_graded_answers():
    assert [t for t in TaskType if learns_from_graded(t)] == [TaskType.FREEFORM_TEXT]


def test_labels_are_short_unique_and_without_slashes():
    assert label_for({"content": "a/b  c"}, set()) == "a∕b c"
    assert label_for({"content": "x"}, {"x", "x (2)"}) == "x (3)"
    assert len(label_for({"content": "word " * 40}, set())) == 60


SKY_SOLUTION = (
    "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Blaues, kurzwelliges Licht wird viel "
    "stärker gestreut als rotes, langwelliges Licht."
)
SKY_GOLD = [
    ("Das Licht der Sonne wird in der Luft gestreut, blaues stärker als rotes.", Correctness.CORRECT),
    ("Weil sich das Meer im Himmel spiegelt.", Correctness.WRONG),
    ("Blaues Licht ist kurzwellig und wird von der Luft stärker gestreut.", Correctness.CORRECT),
    ("Die Luft ist blau gefärbt.", Correctness.WRONG),
    (
        "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Rotes Licht wird viel stärker gestreut "
        "als blaues Licht.",
        Correctness.WRONG,
    ),
]


async def test_an_author_who_teaches_the_judge_a_near_miss_keeps_the_solution_correct(service):
    """The issue's journey in the web app: a new task with a sample solution only, five answers kept
    as gold with "the judge learns from it", one of them a near miss marked WRONG. The sample
    solution's own wording stays CORRECT with full points and says why, and every gold answer is
    judged as the author expects."""
    task = parse_task(
        {
            "id": "himmel-blau-de",
            "type": "FreeformTextTask",
            "title": "Warum ist der Himmel blau?",
            "problemStatement": "Warum ist der Himmel am Tag blau?",
            "language": "DE_DE",
            "maxPoints": 2,
            "sampleSolutions": [{"content": SKY_SOLUTION}],
        }
    )
    await service.upsert_task("default", task)
    lines = [
        await mark_gold(service, "default", task.id, {"content": text}, verdict, learn=True)
        for text, verdict in SKY_GOLD
    ]
    assert [line.failures for line in lines] == [[]] * len(SKY_GOLD)

    result = (await service.compute_feedback(compute(task, {"content": SKY_SOLUTION}))).result
    assert (result.points.achievedPoints, result.points.achievablePoints) == (2, 2)
    assert result.feedback and result.feedback[0].correctness is Correctness.CORRECT
