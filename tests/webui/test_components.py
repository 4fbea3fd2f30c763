"""The pure parts of the components: marks at span offsets, answers as marked text, task files,
drafts, and the numbers behind the history charts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.api import (
    ChatTurn,
    Correctness,
    Feedback,
    InteractionRecord,
    InTextFillInBlanksTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskType,
    VerdictOverrideRecord,
)
from core.client.rendering import Mark, Span, fill_gaps, marked_text, render_result
from core.client.vocabulary import TYPE_LABELS
from webui.components.answer_text import answer_html, line_html
from webui.components.editor_fields import cleaned
from webui.components.history import aspect_counts, verdicts_over_time
from webui.components.task_files import task_file, task_from_upload

WRONG, CORRECT = Correctness.WRONG, Correctness.CORRECT


def marked(text: str, *spans: tuple[int, int, Correctness, str]) -> str:
    """``text`` with the spans (offset, length, verdict, note) as the web app draws them."""
    return line_html(marked_text(text, [Span(o, n, Mark(v, note)) for o, n, v, note in spans]))


def test_a_span_is_marked_at_its_offset_and_everything_is_escaped() -> None:
    html = marked('a <b> & "c" done', (2, 3, WRONG, 'say "no" <here>'))
    assert html == (
        'a <mark class="fs-mark fs-wrong" title="say &quot;no&quot; &lt;here&gt;">&lt;b&gt;</mark>'
        " &amp; &quot;c&quot; done"
    )


def test_overlapping_spans_are_cut_and_the_gravest_verdict_wins() -> None:
    html = marked("abcdef", (0, 4, CORRECT, "shown"), (2, 4, WRONG, "wrong"))
    assert html == (
        '<mark class="fs-mark fs-correct" title="shown">ab</mark>'
        '<mark class="fs-mark fs-wrong" title="shown · wrong">cd</mark>'
        '<mark class="fs-mark fs-wrong" title="wrong">ef</mark>'
    )


@pytest.mark.parametrize("span", [(10, 3, WRONG, ""), (-1, 2, WRONG, ""), (1, 0, WRONG, "")])
def test_spans_outside_the_text_are_ignored(span: tuple[int, int, Correctness, str]) -> None:
    assert marked("abc", span) == "abc"


def test_a_span_running_past_the_end_stops_at_the_end() -> None:
    assert marked("abc", (1, 10, WRONG, "")) == 'a<mark class="fs-mark fs-wrong">bc</mark>'


def test_gaps_are_filled_and_their_places_known() -> None:
    text, places = fill_gaps("A {{1}} and {{2}}.", ["cat", ""])
    assert text == "A cat and …."
    assert places == [(2, 3), (10, 1)]


BLANKS = InTextFillInBlanksTask(
    id="b",
    problemStatement="Water {{1}} at {{2}} °C.",
    blanks=[{"acceptedAnswers": ["boils"]}, {"acceptedAnswers": ["100"]}],
)


def feedback(task_id: str, task_type: str, result: dict) -> Feedback:
    """`result` in the envelope the service returns it in."""
    return Feedback.model_validate(
        {
            "userId": "u",
            "taskId": task_id,
            "taskType": task_type,
            "metaData": {"taskAction": "UNCHANGED", "tenantId": "t", "taskLink": "x", "interactionId": "i"},
            "result": result,
        }
    )


def blanks_feedback(first: str) -> Feedback:
    return feedback(
        "b",
        "IN_TEXT_FILL_IN_BLANKS",
        {
            "type": "InTextFillInBlanksFeedback",
            "points": {"achievedPoints": 1, "achievablePoints": 2},
            "answer": {"blanks": [{"content": first}, {"content": "100"}]},
            "feedback": [
                {
                    "message": "Think of a kettle",
                    "correctness": "WRONG",
                    "topic": {"name": "Water"},
                    "context": [{"content": first, "index": 0}],
                    "aspects": [{"name": "Boiling", "type": "CONCEPT"}],
                }
            ],
            "allAspects": [
                {
                    "aspect": {"name": "Ice is hot", "type": "MISCONCEPTION"},
                    "context": {"content": first, "index": 0},
                }
            ],
            "sampleSolution": {"blanks": [{"content": "boils"}, {"content": "100"}]},
        },
    )


def test_a_gap_answer_is_marked_in_the_statement() -> None:
    feedback = blanks_feedback("<freezes>")
    rendered = render_result(BLANKS, feedback.result, str)
    html = answer_html(rendered)
    assert html == (
        'Water <mark class="fs-mark fs-wrong" title="Think of a kettle">&lt;freezes&gt;</mark> at '
        '<mark class="fs-mark fs-correct">100</mark> °C.'
    )
    assert rendered.sample_solution == "Water boils at 100 °C."


def test_chosen_options_are_ticked_and_marked() -> None:
    task = MultipleResponsesTask(
        id="m",
        problemStatement="?",
        options=[{"content": "A", "correct": True}, {"content": "B"}, {"content": "C"}],
    )
    result = feedback(
        "m",
        "MULTIPLE_RESPONSES",
        {
            "type": "MultipleResponsesFeedback",
            "points": {"achievedPoints": 1, "achievablePoints": 3},
            "answer": {"selected": [True, True, False]},
            "feedback": [
                {
                    "message": "B is not",
                    "correctness": "WRONG",
                    "topic": {"name": "t"},
                    "context": [{"index": 1, "selected": True}],
                }
            ],
            "sampleSolution": {"selected": [True, False, False]},
        },
    ).result
    rendered = render_result(task, result, str)
    assert answer_html(rendered).split("\n") == [
        '☑ <mark class="fs-mark fs-correct">A</mark>',
        '☑ <mark class="fs-mark fs-wrong" title="B is not">B</mark>',
        "☐ C",
    ]
    assert rendered.sample_solution == "• A"


def record(feedback: Feedback, day: int, verdict: str) -> InteractionRecord:
    return InteractionRecord(
        interactionId=f"i{day}{verdict}",
        tenantId="t",
        taskId="b",
        userId="u",
        taskVersion=1,
        createdAt=datetime(2026, 11, day, 12, tzinfo=UTC),
        verdict=verdict,
        answer={},
        feedback=feedback,
    )


def test_the_history_counts_verdicts_per_day_and_the_frequent_aspects() -> None:
    feedback = blanks_feedback("freezes")
    records = [record(feedback, 20, "WRONG"), record(feedback, 20, "CORRECT"), record(feedback, 21, "WRONG")]
    chart = verdicts_over_time(records)
    assert chart["xAxis"]["data"] == ["11/20/26", "11/21/26"]  # the days as the language writes them
    assert {s["name"]: s["data"] for s in chart["series"]} == {
        "CORRECT": [1, 0],
        "PARTIAL": [0, 0],
        "WRONG": [1, 1],
    }
    moment = datetime(2026, 11, 22, tzinfo=UTC)
    records[2].override = VerdictOverrideRecord(
        verdict="PARTIAL", author="t", createdAt=moment, updatedAt=moment
    )
    chart = verdicts_over_time(records)  # the teacher's verdict counts, as in the filter
    assert {s["name"]: s["data"][1] for s in chart["series"]} == {"CORRECT": 0, "PARTIAL": 1, "WRONG": 0}
    misconceptions, missing = aspect_counts(records)
    assert misconceptions == {"Ice is hot": 3}
    assert missing == {"Boiling": 3}


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_task_files_round_trip_and_name_the_file_that_does_not_fit(fmt) -> None:
    name, content = task_file(BLANKS, fmt)
    assert name == f"b.{fmt}"
    assert task_from_upload(name, content) == BLANKS
    with pytest.raises(ValueError, match=r"^x\.json: not a task definition"):
        task_from_upload("x.json", b'{"id": "x", "type": "FreeformTextTask"}')
    with pytest.raises(ValueError, match=r"^x\.json: not valid JSON"):
        task_from_upload("x.json", b"{")


def test_a_draft_leaves_empty_optional_values_to_the_defaults() -> None:
    draft = {"id": "x", "title": "", "context": None, "options": [{"content": "A", "feedback": ""}]}
    assert cleaned(draft) == {"id": "x", "options": [{"content": "A"}]}


def test_every_task_type_has_a_label_an_icon_and_an_editor() -> None:
    from webui.components.task_editor import FORMS
    from webui.components.task_types import ICONS

    for task_type in TaskType:
        assert task_type in FORMS and task_type in ICONS and task_type in TYPE_LABELS


def test_a_conversation_is_shown_turn_by_turn_with_the_spans_in_the_learners_turns() -> None:
    task = SimulationTask(id="s", problemStatement="Sell.", persona={"name": "Maria"})
    result = feedback(
        "s",
        "SIMULATION",
        {
            "type": "SimulationFeedback",
            "points": {"achievedPoints": 1, "achievablePoints": 2},
            "answer": {"conversationId": "c"},
            "feedback": [
                {
                    "message": "Ask first",
                    "correctness": "PARTIAL",
                    "topic": {"name": "t"},
                    "context": [{"messageIndex": 1, "content": "Buy", "offset": 0, "length": 3}],
                }
            ],
        },
    ).result
    transcript = [
        ChatTurn(role="assistant", content="Hello <there>"),
        ChatTurn(role="user", content="Buy it"),
    ]
    assert answer_html(render_result(task, result, str, transcript)).split("\n") == [
        "<b>Maria:</b> Hello &lt;there&gt;",
        '<b>Learner:</b> <mark class="fs-mark fs-partial" title="Ask first">Buy</mark> it',
    ]
