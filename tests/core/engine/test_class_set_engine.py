"""A class set's verdicts after a grade are those one answer's feedback gives (without judging the
answers again); alike answers are grouped within their verdict; the review order skips the graded."""

from __future__ import annotations

from core.api import AspectDefinition, Correctness, FreeformTextAnswer, FreeformTextTask
from core.assets import load_catalogue
from core.engine.base import EngineContext, GradedExample
from core.engine.freeform import compute
from core.engine.freeform.class_set import groups, judge_answers, review_order, verdicts

CATALOGUE = load_catalogue()
TASK = FreeformTextTask(
    id="magnet",
    problemStatement="Why does the nail stick to the magnet?",
    sampleSolutions=[{"content": "The nail is made of iron, which a magnet attracts."}],
    maxPoints=2,
)
ANSWERS = [
    "Because the nail contains iron and magnets attract iron.",
    "The nail is iron so the magnet pulls it.",
    "Because the nail is sticky.",
    "The magnet is glued to the nail.",
    "Magnets attract all metals like aluminium.",
    "The nail is made of metal.",
    "Because the nail is sticky.",
    "",
    "iron",
    "Magnets pull on metal things.",
]


def context(graded: tuple[GradedExample, ...], task: FreeformTextTask = TASK) -> EngineContext:
    return EngineContext(catalogue=CATALOGUE, graded=graded, cache_key=(task.id, len(graded)))


def one_by_one(task: FreeformTextTask, graded: tuple[GradedExample, ...]) -> list[tuple[Correctness, float]]:
    results = [compute(task, FreeformTextAnswer(content=a), context(graded, task)) for a in ANSWERS]
    return [(r.points.verdict, r.points.achievedPoints) for r in results]


def set_verdicts(
    task: FreeformTextTask, graded: tuple[GradedExample, ...]
) -> list[tuple[Correctness, float]]:
    kept = judge_answers(task, ANSWERS, context((), task))  # judged once, before any grade
    return [(v.verdict, v.points) for v in verdicts(task, context(graded, task), kept)]


GRADES = [
    (),
    (GradedExample({"content": ANSWERS[5]}, Correctness.CORRECT),),
    (
        GradedExample({"content": ANSWERS[5]}, Correctness.WRONG),
        GradedExample({"content": ANSWERS[4]}, Correctness.PARTIAL, points=1),
        GradedExample({"content": ANSWERS[1]}, Correctness.CORRECT),
    ),
]


def test_the_verdicts_after_grades_are_those_of_judging_each_answer_with_them() -> None:
    for graded in GRADES:
        assert set_verdicts(TASK, graded) == one_by_one(TASK, graded)


def test_on_a_task_with_aspects_the_aspects_decide_except_for_a_graded_answers_words() -> None:
    task = TASK.model_copy(
        update={
            "id": "magnet-aspects",
            "aspects": [AspectDefinition(name="Iron", description="The nail is iron", cues=["iron"])],
        }
    )
    for graded in GRADES:
        assert set_verdicts(task, graded) == one_by_one(task, graded)


def test_a_graded_answers_verdict_goes_to_its_duplicates() -> None:
    graded = (GradedExample({"content": ANSWERS[2]}, Correctness.PARTIAL, points=1),)
    kept = judge_answers(TASK, ANSWERS, context(()))
    found = verdicts(TASK, context(graded), kept)
    assert [found[i].verdict for i in (2, 6)] == [Correctness.PARTIAL, Correctness.PARTIAL]
    assert found[2].same_as_graded and found[6].same_as_graded and not found[0].same_as_graded


def test_alike_answers_share_a_group_within_their_verdict_and_the_largest_comes_first() -> None:
    kept = judge_answers(TASK, ANSWERS, context(()))
    found = verdicts(TASK, context(()), kept)
    numbers = groups(kept, [v.verdict for v in found])
    assert numbers[2] == numbers[6]  # the same words
    assert len(set(numbers)) < len(ANSWERS)
    assert numbers.count(0) == max(numbers.count(n) for n in set(numbers))
    assert numbers[7] not in {numbers[i] for i in range(len(ANSWERS)) if i != 7}  # no words: alone


def test_the_review_order_picks_among_the_ungraded_only_and_turns_to_other_answers() -> None:
    kept = judge_answers(TASK, ANSWERS, context(()))
    graded = (GradedExample({"content": ANSWERS[0]}, Correctness.CORRECT),)
    found = verdicts(TASK, context(graded), kept)
    order = review_order(kept, found, [0], 5)
    assert len(order) == 5 and len(set(order)) == 5 and 0 not in order
    # "The nail is iron so the magnet pulls it" says what the graded answer says: graded as good
    # as it is, it comes after answers that say something else
    assert order[0] != 1


def test_a_graded_answers_twins_are_not_picked() -> None:
    kept = judge_answers(TASK, ANSWERS, context(()))
    graded = (GradedExample({"content": ANSWERS[2]}, Correctness.WRONG),)
    found = verdicts(TASK, context(graded), kept)
    order = review_order(kept, found, [2], len(ANSWERS))
    assert 2 not in order and 6 not in order and len(order) == len(ANSWERS) - 2
