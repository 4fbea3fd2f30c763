"""Graded answers move the sample-solution judge: from the first one on, by how near they are, the
sample solution staying evidence; the author's feedback on near answers; cache invalidation."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.api import Correctness, FreeformTextAnswer, FreeformTextTask
from core.assets import load_catalogue
from core.engine.base import EngineContext, GradedExample
from core.engine.freeform import compute
from core.engine.freeform.grading import Corrections, CorrectionWeights, CutPoints, Graded
from core.engine.freeform.review import order_by_value

CATALOGUE = load_catalogue()
TASK = FreeformTextTask(
    id="magnet",
    problemStatement="Why does the nail stick to the magnet?",
    sampleSolutions=[{"content": "The nail is made of iron, which a magnet attracts."}],
)
CORRECT = [
    "Because the nail contains iron and magnets attract iron.",
    "The nail is iron so the magnet pulls it.",
    "Iron is attracted by magnets and the nail is iron.",
    "Magnets attract iron, the nail is made of iron.",
]
WRONG = [
    "Because the nail is sticky.",
    "The magnet is glued to the nail.",
    "Because the nail is heavy.",
    "Magnets attract all metals like aluminium.",
]
GRADED = tuple(GradedExample({"content": a}, Correctness.CORRECT) for a in CORRECT) + tuple(
    GradedExample({"content": a}, Correctness.WRONG, feedback="Think about what the nail is made of.")
    for a in WRONG
)


def judge(content: str, graded: tuple[GradedExample, ...] = GRADED, key: object = ("magnet", 1)):
    ctx = EngineContext(catalogue=CATALOGUE, graded=graded, cache_key=key)
    return compute(TASK, FreeformTextAnswer(content=content), ctx)


def test_graded_neighbours_decide_the_verdict() -> None:
    assert (
        judge("The nail has iron in it and the magnet attracts iron.").points.verdict is Correctness.CORRECT
    )
    assert judge("Because the nail is very sticky.").points.verdict is Correctness.WRONG


def test_the_authors_feedback_on_a_near_answer_is_shown() -> None:
    result = judge("Because the nail is sticky!")
    messages = [item.message for item in result.feedback]
    assert any("Think about what the nail is made of." in m for m in messages)


def test_new_graded_answers_take_effect_under_the_same_cache_key() -> None:
    answer = "The nail is sticky."
    before = judge(answer).points.verdict
    flipped = tuple(
        GradedExample(
            g.answer, Correctness.CORRECT if g.correctness is Correctness.WRONG else Correctness.WRONG
        )
        for g in GRADED
    )
    after = judge(answer, graded=flipped).points.verdict
    assert before is Correctness.WRONG and after is not Correctness.WRONG


SKY = FreeformTextTask(
    id="himmel-blau-de",
    title="Warum ist der Himmel blau?",
    problemStatement="Warum ist der Himmel am Tag blau?",
    language="DE_DE",
    maxPoints=2,
    sampleSolutions=[
        {
            "content": "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Blaues, kurzwelliges Licht "
            "wird viel stärker gestreut als rotes, langwelliges Licht."
        }
    ],
)
SKY_GRADED = (
    GradedExample(
        {"content": "Das Licht der Sonne wird in der Luft gestreut, blaues stärker als rotes."}, "CORRECT"
    ),
    GradedExample({"content": "Weil sich das Meer im Himmel spiegelt."}, "WRONG"),
    GradedExample(
        {"content": "Blaues Licht ist kurzwellig und wird von der Luft stärker gestreut."}, "CORRECT"
    ),
    GradedExample({"content": "Die Luft ist blau gefärbt."}, "WRONG"),
    # the near miss: the solution's words, the colours the other way round
    GradedExample(
        {
            "content": "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Rotes Licht wird viel "
            "stärker gestreut als blaues Licht."
        },
        "WRONG",
    ),
)
WEIGHTS = CorrectionWeights(
    sharpness=4.0,
    shift_spread=0.5,
    prior_weight=0.5,
    closeness=5.0,
    prior_weight_stiffness=0.3,
    slope_stiffness=3.0,
    typical_quantile=0.5,
)
CUTS = CutPoints(correct_from=0.5, wrong_below=0.24)


def corrections(graded: list[Graded]) -> Corrections:
    """Graded answers far from each other and from the one sample solution (cosine 0.3)."""
    similarity = np.full((len(graded), len(graded) + 1), 0.3)
    similarity[np.arange(len(graded)), np.arange(len(graded))] = 1.0
    return Corrections(graded, similarity, 1, CUTS, WEIGHTS)


def sky(content: str, graded: tuple[GradedExample, ...]):
    ctx = EngineContext(catalogue=CATALOGUE, graded=graded, cache_key=("sky", len(graded)))
    return compute(SKY, FreeformTextAnswer(content=content), ctx)


def test_the_sample_solutions_words_stay_correct_after_a_near_miss_is_graded_wrong() -> None:
    """An author grades five answers, one a near miss marked WRONG; the sample solution's own
    wording is still CORRECT with full points and says why, as on a copy without graded answers."""
    solution = SKY.sampleSolutions[0].content
    for graded in ((), SKY_GRADED):
        result = sky(solution, graded)
        assert result.points.achievedPoints == 2.0
        assert [item.correctness for item in result.feedback][:1] == [Correctness.CORRECT]
    assert sky(SKY_GRADED[-1].answer["content"], SKY_GRADED).points.verdict is Correctness.WRONG


def test_the_first_graded_answer_counts() -> None:
    """One correction already gives the answer the author graded the author's verdict."""
    answer = "Weil der Himmel das blaue Meer spiegelt."
    assert sky(answer, ()).points.verdict is not Correctness.CORRECT
    graded = (GradedExample({"content": answer}, Correctness.CORRECT),)
    assert sky(answer, graded).points.verdict is Correctness.CORRECT


def test_a_graded_answer_weighs_by_how_near_it_is() -> None:
    one = corrections([Graded(Correctness.CORRECT, 1.0, 0.1)])
    near = one.judge(0.1, [0.97, 0.3])
    far = one.judge(0.1, [0.4, 0.3])
    alone = corrections([]).judge(0.1, [0.3])
    assert near.shares[0] > far.shares[0] > alone.shares[0]
    assert alone.verdict is Correctness.WRONG
    assert one.judge(0.1, [1.0, 0.3]).verdict is Correctness.CORRECT


def test_a_graded_answer_votes_only_when_nearer_than_the_tasks_answers_are_to_each_other() -> None:
    """Graded answers at cosine 0.7 from each other and from the sample solution: an answer at
    that distance from every one keeps the judge's verdict, one much nearer to a graded WRONG
    answer takes its grade."""
    graded = [Graded(Correctness.WRONG, 0.0, 0.6) for _ in range(4)]
    similarity = np.full((4, 5), 0.7)
    similarity[np.arange(4), np.arange(4)] = 1.0
    task = Corrections(graded, similarity, 1, CUTS, replace(WEIGHTS, shift_spread=0.0))
    typical = task.judge(0.8, [0.7, 0.7, 0.7, 0.7, 0.7])
    near = task.judge(0.8, [0.97, 0.7, 0.7, 0.7, 0.7])
    assert typical.shares == task.shares(0.8) and typical.verdict is Correctness.CORRECT
    assert near.verdict is not Correctness.CORRECT


def test_a_stricter_author_shifts_every_verdict_a_little() -> None:
    """Answers the judge thought correct, graded WRONG: the judge's chance shifts down for all
    answers, bounded by the prior, so one correction does not overturn a clear judgement."""
    strict = corrections([Graded(Correctness.WRONG, 0.0, 0.7)] * 3)
    once = corrections([Graded(Correctness.WRONG, 0.0, 0.7)])
    assert strict.shift < once.shift < 0
    assert strict.judge(0.55, [0.2, 0.2, 0.2, 0.2]).verdict is not Correctness.CORRECT
    assert once.judge(0.95, [0.2, 0.2]).verdict is Correctness.CORRECT


def test_a_single_label_and_partial_with_points_work() -> None:
    lenient = corrections([Graded(Correctness.CORRECT, 1.0, 0.3)] * 4)
    assert lenient.shift > 0
    partial = corrections([Graded(Correctness.PARTIAL, 0.25, 0.4)])
    judged = partial.judge(0.4, [1.0, 0.2])
    assert judged.verdict is Correctness.PARTIAL and 0 < judged.score < 1
    graded = (GradedExample({"content": "Die Luft streut das Licht."}, Correctness.PARTIAL, points=0.5),)
    result = sky("Die Luft streut das Licht.", graded)
    assert result.points.verdict is Correctness.PARTIAL and result.points.achievedPoints == 0.5


def test_the_review_order_takes_turns_among_verdicts_and_stands_for_most_first() -> None:
    """Three alike answers and one alone the judge calls correct, two alike it calls wrong: the
    group of three first, then the pair, then the lone answer, not a second of the three."""
    correct, wrong = (0.9, 0.05, 0.05), (0.05, 0.05, 0.9)
    shares = [correct, correct, correct, correct, wrong, wrong]
    similarity = np.full((6, 6), 0.2)
    similarity[:3, :3] = similarity[4:, 4:] = 0.95
    np.fill_diagonal(similarity, 1.0)
    order = order_by_value(shares, similarity, 4)
    assert order[0] in {0, 1, 2} and order[1] in {4, 5} and order[2] == 3
    assert len(set(order)) == 4


def test_labels_given_as_plain_strings_work_like_the_enum() -> None:
    """A store may return the correctness as a string; the verdicts must not change."""
    as_strings = tuple(GradedExample(g.answer, g.correctness.value, g.points, g.feedback) for g in GRADED)  # type: ignore[arg-type]
    for answer in ("The nail has iron in it and the magnet attracts iron.", "Because the nail is sticky!"):
        expected = judge(answer).points
        assert judge(answer, graded=as_strings, key=("strings",)).points == expected


def test_three_labels_get_three_verdicts() -> None:
    partial = ("Because of the iron.", "It is metal.", "The magnet pulls metal things.")
    graded = GRADED + tuple(GradedExample({"content": a}, Correctness.PARTIAL) for a in partial)
    verdicts = {judge(a, graded=graded, key=("three",)).points.verdict for a in (*CORRECT, *WRONG, *partial)}
    assert verdicts == {Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG}
