"""The main journey for each of the six task types, on the embedded service: create the task in
the editor, answer it as a learner would, read the feedback with its evidence highlighted in the
answer, and rate the feedback."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Checkbox, DataTable, Input, RadioButton, Select, SelectionList, TextArea

from core.api import Correctness, RatingSubtype, RatingType, TaskType
from tests.tui.helpers import click, new_task_editor, notified, text_of, wait_until
from tui.screens.interaction import InteractionScreen
from tui.screens.task import TaskScreen
from tui.widgets.chat.view import Bubble, ChatView
from tui.widgets.feedback.evidence import ASPECT_STYLES, EVIDENCE_STYLES
from tui.widgets.feedback.rating import RatingBar
from tui.widgets.feedback.view import FeedbackView

CORRECT, WRONG = EVIDENCE_STYLES[Correctness.CORRECT], EVIDENCE_STYLES[Correctness.WRONG]
CONCEPT, MISCONCEPTION = ASPECT_STYLES["CONCEPT"], ASPECT_STYLES["MISCONCEPTION"]


def highlighted(text: Text, style: str) -> list[str]:
    """The pieces of ``text`` drawn with ``style`` (what the user sees coloured that way)."""
    return [text.plain[s.start : s.end].strip() for s in text.spans if style in str(s.style)]


async def create_and_open(pilot, task_type: TaskType, title: str) -> TaskScreen:
    app = pilot.app
    editor = await new_task_editor(pilot, task_type)
    editor.query_one(".field-title Input", Input).value = title
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen) and app.screen.definition is not None)
    assert app.screen.definition.title == title  # every part of the form reaches the saved task
    await pilot.pause()
    return app.screen


async def answer_freeform(screen, pilot):
    screen.query_one(
        "#answer-text", TextArea
    ).text = "The axis has a tilt. In summer we are closer to the sun."


async def answer_blanks(screen, pilot):
    first, second = screen.query(".gap-value").results(Input)
    first.value, second.value = "100", "5"


async def answer_choices(screen, pilot):
    screen.query_one(".gap-value", Select).value = "goes"


async def answer_multiple_choice(screen, pilot):
    venus = next(b for b in screen.query(RadioButton) if str(b.label) == "Venus")
    await click(pilot, venus)


async def answer_multiple_responses(screen, pilot):
    screen.query_one(SelectionList).select(0)  # Whale


JOURNEYS = {
    TaskType.FREEFORM_TEXT: (
        answer_freeform,
        "✘ WRONG · 0 / 1 points",
        {WRONG: ["closer to the sun"], CONCEPT: ["tilt"], MISCONCEPTION: ["closer to the sun"]},
    ),
    TaskType.IN_TEXT_FILL_IN_BLANKS: (
        answer_blanks,
        "◐ PARTIAL · 1 / 2 points",
        {CORRECT: ["100"], WRONG: ["5"]},
    ),
    TaskType.IN_TEXT_CHOICES: (answer_choices, "✔ CORRECT · 1 / 1 points", {CORRECT: ["goes"]}),
    TaskType.MULTIPLE_CHOICE: (answer_multiple_choice, "✘ WRONG · 0 / 1 points", {WRONG: ["Venus"]}),
    TaskType.MULTIPLE_RESPONSES: (
        answer_multiple_responses,
        "✔ CORRECT · 2 / 2 points",
        {CORRECT: ["Whale", "Shark"]},  # chosen rightly, left out rightly
    ),
}


async def rate(pilot, view: FeedbackView, kind: RatingType, subtype: RatingSubtype) -> None:
    bar = view.query_one(RatingBar)
    await click(pilot, bar.query_one("#rate-good" if kind is RatingType.GOOD else "#rate-bad"))
    await wait_until(pilot, lambda: bar.kind is kind)  # the reasons of that kind are offered now
    bar.query_one("#rate-subtype", Select).value = subtype
    await click(pilot, bar.query_one("#rate-send"))
    await wait_until(pilot, lambda: text_of(view.query_one("#rate-status")).startswith("✔ Rated"))


@pytest.mark.parametrize(
    "task_type",
    # the free-text journey checks the most on the way; the others are the same walk (journeys)
    [pytest.param(t, marks=() if t is TaskType.FREEFORM_TEXT else pytest.mark.journey) for t in JOURNEYS],
    ids=lambda t: t.value.lower(),
)
async def test_create_answer_read_feedback_and_rate(pilot, studio, task_type):
    answer, banner, evidence = JOURNEYS[task_type]
    screen = await create_and_open(pilot, task_type, f"My {task_type.value.lower()} task")
    await answer(screen, pilot)
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: screen.query(FeedbackView))
    view = screen.query_one(FeedbackView)

    assert text_of(view.query_one(".verdict-banner")) == banner
    shown = view.query_one("#evidence").content
    for style, pieces in evidence.items():
        assert highlighted(shown, style) == pieces
    assert text_of(view.query_one("#sample-solution"))
    if task_type is TaskType.FREEFORM_TEXT:  # the template's aspects: one concept, one misconception
        assert text_of(view.query_one("#detected-aspects")).splitlines() == [
            "✔ concept        Axial tilt",
            "⚠ misconception  Distance to the sun",
        ]
        assert "The distance to the sun hardly changes the seasons." in text_of(
            view.query_one("#feedback-items")
        )

    await rate(pilot, view, RatingType.GOOD, RatingSubtype.HELPFUL_HINT)
    assert text_of(view.query_one("#rate-status")) == "✔ Rated Good · Helpful hint"
    stored = await studio.get_interaction(view.feedback.metaData.interactionId)
    assert (stored.rating.type, stored.rating.subtype) == (RatingType.GOOD, RatingSubtype.HELPFUL_HINT)


async def test_an_incomplete_answer_is_not_sent(pilot):
    screen = await create_and_open(pilot, TaskType.MULTIPLE_CHOICE, "Planets")
    await pilot.press("ctrl+g")
    await notified(pilot, "Not sent", "Choose an option first.")
    assert not screen.query(FeedbackView)


@pytest.mark.journey
async def test_simulation_role_play_then_feedback_on_the_conversation(pilot, studio):
    screen = await create_and_open(pilot, TaskType.SIMULATION, "Late parcel")
    await click(pilot, screen.query_one("#sim-start"))
    chat = screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.tutor_id is not None)
    assert [b.source for b in chat.query(".bubble")] == [
        "Hello? My parcel is a week late and nobody answers my emails!"
    ]

    chat.query_one("#chat-input", Input).value = "I am so sorry. Let me look up your parcel right away."
    await pilot.press("enter")
    await wait_until(pilot, lambda: len(chat.messages) >= 3 and not chat.query_one("#chat-input").disabled)
    replies = [b for b in chat.query(Bubble) if b.role == "assistant"]
    assert len(replies) >= 2 and all(b.source for b in replies)

    await click(pilot, screen.query_one("#sim-finish"))
    await wait_until(pilot, lambda: screen.query(FeedbackView))
    view = screen.query_one(FeedbackView)
    shown = view.query_one("#evidence").content
    assert "Learner: I am so sorry. Let me look up your parcel right away." in shown.plain
    assert "sorry" in highlighted(shown, CONCEPT)
    assert "Apologises" in text_of(view.query_one("#detected-aspects"))
    await rate(pilot, view, RatingType.BAD, RatingSubtype.TOO_GENERIC)
    stored = await studio.get_interaction(view.feedback.metaData.interactionId)
    assert stored.rating.type is RatingType.BAD


async def test_history_lists_answers_and_opens_their_feedback(pilot):
    app = pilot.app
    screen = await create_and_open(pilot, TaskType.IN_TEXT_CHOICES, "Tenses")
    await answer_choices(screen, pilot)
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: screen.query(FeedbackView))

    await click(pilot, screen.query_one("#--content-tab-history-tab"))
    table = screen.query_one("#history-table", DataTable)
    await wait_until(pilot, lambda: table.row_count == 1)
    row = table.get_row_at(0)
    assert (row[1], str(row[2]), row[5].plain) == ("studio-author", "✔ CORRECT", "goes")
    table.focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, InteractionScreen))
    assert text_of(app.screen.query_one(".verdict-banner")) == "✔ CORRECT · 1 / 1 points"


@pytest.mark.journey
async def test_history_filters_by_verdict_and_learner_and_exports_what_it_shows(pilot, tmp_path, monkeypatch):
    monkeypatch.setattr("tui.widgets.history.user_downloads_path", lambda: tmp_path)
    screen = await create_and_open(pilot, TaskType.IN_TEXT_CHOICES, "Tenses")
    for choice, verdict in (("goes", "CORRECT"), ("go", "WRONG")):
        screen.query_one(".gap-value", Select).value = choice
        await pilot.press("ctrl+g")
        await wait_until(
            pilot, lambda v=verdict: any(v in text_of(b) for b in screen.query(".verdict-banner"))
        )
    await click(pilot, screen.query_one("#--content-tab-history-tab"))
    table = screen.query_one("#history-table", DataTable)
    await wait_until(pilot, lambda: table.row_count == 2)

    screen.query_one("#history-verdict", Select).value = "WRONG"
    await wait_until(pilot, lambda: table.row_count == 1)
    assert str(table.get_row_at(0)[2]) == "✘ WRONG"
    await click(pilot, screen.query_one("#history-export"))
    [csv_file] = tmp_path.glob("*-history.csv")
    assert csv_file.name == f"{screen.task_id}-history.csv"
    exported = csv_file.read_text(encoding="utf-8-sig").splitlines()
    assert len(exported) == 2 and ",WRONG," in exported[1]

    screen.query_one("#history-user", Input).value = "nobody"
    await wait_until(pilot, lambda: not table.display)
    assert "No answer matches" in text_of(screen.query_one("#history-empty"))


async def test_an_answer_kept_as_gold_becomes_a_test_answer_retested_at_once(pilot, studio):
    screen = await create_and_open(pilot, TaskType.IN_TEXT_CHOICES, "Tenses")
    screen.query_one(".gap-value", Select).value = "go"
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: screen.query("#gold-verdict"))
    screen.query_one("#gold-verdict", Select).value = Correctness.PARTIAL
    await click(pilot, screen.query_one("#gold-keep"))
    status = screen.query_one("#gold-status")
    await wait_until(pilot, lambda: "Kept as test answer" in text_of(status))
    assert "expecting PARTIAL; the engine says WRONG" in text_of(status)
    # the confirmation is in view and whole: scrolled to, wrapped rather than cut to one line
    area = screen.query_one("#feedback-area")
    await wait_until(pilot, lambda: area.region.contains_region(status.region))
    assert status.region.height >= -(-len(text_of(status)) // status.region.width)
    stored = await studio.list_test_answers("default", screen.task_id)
    assert [(t.label, t.expected.verdict) for t in stored.answers] == [("go", Correctness.PARTIAL)]
    assert not screen.query("#gold-learn")  # only the free-text judge uses graded answers


async def test_the_learn_checkbox_says_what_a_graded_answer_does(pilot, studio):
    """The issue: the checkbox promised that the engine learns from the answer; the judge blends a
    graded answer in, pulling answers close to it towards its verdict, the sample solution still
    counting. The label and its tooltip say so, as in the web app."""
    screen = await create_and_open(pilot, TaskType.FREEFORM_TEXT, "Seasons")
    await answer_freeform(screen, pilot)
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: screen.query("#gold-learn"))
    learn = screen.query_one("#gold-learn", Checkbox)
    assert str(learn.label) == "and the judge learns from it"
    assert learn.tooltip == (  # shown on hover (the tests run the app with tooltips off)
        "Also keep it as a graded answer: answers close to it lean towards this verdict, more so as "
        "graded answers agree; the sample solution still counts."
    )

    await click(pilot, learn)
    await click(pilot, screen.query_one("#gold-keep"))
    status = screen.query_one("#gold-status")
    await wait_until(pilot, lambda: "Kept as test answer" in text_of(status))
    assert "and as a graded answer" in text_of(status)


async def test_a_simulation_takes_no_message_after_its_last_turn(pilot, studio):
    from core.api import SimulationTask
    from tests.tui.helpers import open_task

    demo = (await studio.get_task("default", "sim-customer-objections-en")).definition
    assert isinstance(demo, SimulationTask)
    await studio.upsert_task("default", demo.model_copy(update={"id": "sim-one-turn", "maxTurns": 1}))
    await pilot.press("r")  # the library reloads and shows it
    await wait_until(
        pilot, lambda: "sim-one-turn" in [k.value for k in pilot.app.screen.query_one("#tasks").rows]
    )
    screen = await open_task(pilot, "sim-one-turn")
    await click(pilot, screen.query_one("#sim-start"))
    chat = screen.query_one(ChatView)
    await wait_until(pilot, lambda: chat.tutor_id is not None)
    chat.query_one("#chat-input", Input).value = "Good morning, how can I help?"
    await pilot.press("enter")
    await wait_until(pilot, lambda: any("last turn" in b.source for b in chat.query(Bubble)))
    await wait_until(pilot, lambda: chat.query_one("#chat-input", Input).disabled)
    assert chat.query_one("#chat-send").disabled and not screen.query_one("#sim-finish").disabled
