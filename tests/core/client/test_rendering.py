"""A result reads the same in both apps: core.client.rendering says what it says, the terminal app
draws it as Rich text, the web app as HTML. Every task type's feedback, computed by the engine on
the demo tasks, is drawn by both, and the texts shown and the pieces marked are compared."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from rich.text import Text

from core.api import (
    Correctness,
    FeedbackResult,
    MultipleChoiceResult,
    MultipleChoiceTask,
    TaskBase,
    TaskType,
    parse_task,
)
from core.assets import demo_tasks
from core.client.rendering import answer_excerpt, render_result
from core.service.local import LocalService
from tests.contract.builders import compute
from tui.widgets.feedback.evidence import EVIDENCE_STYLES, answer_view
from webui.components.answer_text import answer_html

ANSWERS: dict[TaskType, tuple[str, dict[str, Any]]] = {
    TaskType.FREEFORM_TEXT: (
        "ff-bulb-circuit-en",
        {"content": "The circuit must be closed with both poles, so the bulb glows."},
    ),
    TaskType.IN_TEXT_FILL_IN_BLANKS: (
        "blanks-water-cycle-en",
        {"blanks": [{"content": c} for c in ("evaporate", "", "rain", "90")]},
    ),
    TaskType.IN_TEXT_CHOICES: (
        "choices-english-tenses-en",
        {"choices": [{"content": c} for c in ("go", "played", "")]},
    ),
    TaskType.MULTIPLE_CHOICE: ("mc-photosynthesis-en", {"selectedIndex": 0}),
    TaskType.MULTIPLE_RESPONSES: ("mr-renewable-energy-en", {"selected": [True, False, True, False, False]}),
    TaskType.SIMULATION: (
        "sim-parent-teacher-en",
        {
            "messages": [
                {"role": "assistant", "content": "Good evening. You wanted to see me about Sam?"},
                {"role": "user", "content": "I have noticed that Sam <failed two tests> & seems lazy."},
            ]
        },
    ),
}
MARK = re.compile(r'<mark class="fs-mark fs-(\w+)"[^>]*>(.*?)</mark>')
TAG = re.compile(r"<[^>]+>")


def demo(task_id: str) -> TaskBase:
    return parse_task(next(d for d in demo_tasks() if d["id"] == task_id))


async def feedback_of(service: LocalService, task_type: TaskType) -> tuple[TaskBase, FeedbackResult]:
    task_id, answer = ANSWERS[task_type]
    task = demo(task_id)
    return task, (await service.compute_feedback(compute(task, answer))).result


def web_marks(drawn: str) -> list[tuple[str, str]]:
    """The pieces the web app marks, with their verdict, in order."""
    return [(html.unescape(TAG.sub("", text)), verdict.upper()) for verdict, text in MARK.findall(drawn)]


def terminal_marks(drawn: Text) -> list[tuple[str, str]]:
    """The pieces the terminal app colours by a verdict, with the verdict, in order."""
    verdicts = {style: verdict for verdict, style in EVIDENCE_STYLES.items()}
    return [
        (drawn.plain[span.start : span.end], verdicts[style])
        for span in sorted(drawn.spans, key=lambda s: s.start)
        for style in [next((v for v in verdicts if v in str(span.style)), None)]
        if style is not None
    ]


def terminal_evidence(drawn: Text) -> list[str]:
    """The pieces the terminal app colours or underlines as evidence, in order."""
    return [
        drawn.plain[span.start : span.end]
        for span in sorted(drawn.spans, key=lambda s: s.start)
        if str(span.style) not in ("", "bold")
    ]


@pytest.mark.parametrize("task_type", list(TaskType), ids=lambda t: t.value.lower())
async def test_both_apps_show_the_same_answer_marks_and_sample_solution(
    service: LocalService, task_type: TaskType
) -> None:
    task, result = await feedback_of(service, task_type)
    rendered = render_result(task, result, str)
    terminal, web = answer_view(rendered), answer_html(rendered)

    assert terminal.plain == html.unescape(TAG.sub("", web)) == rendered.answer_text
    assert rendered.answer_text.strip()
    item_marks = [
        (s.text, s.verdict.value) for line in rendered.answer for s in line if s.verdict is not None
    ]
    assert item_marks, "the answer shows evidence"
    assert terminal_evidence(terminal) == [text for text, _verdict in web_marks(web)]
    if not result.allAspects:  # aspects underline in the terminal, and colour by their verdict on the web
        assert terminal_marks(terminal) == web_marks(web) == item_marks
    assert rendered.sample_solution.strip()


async def test_gaps_are_filled_in_and_the_sample_solution_reads_as_the_statement(
    service: LocalService,
) -> None:
    task, result = await feedback_of(service, TaskType.IN_TEXT_FILL_IN_BLANKS)
    rendered = render_result(task, result, str)
    assert rendered.answer_text == (
        "The sun heats the sea and water evaporate into the air. High up, the water vapour cools and "
        "condenses into …. It falls back to the ground as rain. At sea level, pure water boils at 90 °C."
    )
    assert "{{" not in rendered.sample_solution and "evaporates" in rendered.sample_solution
    marks = {s.text: s.verdict for line in rendered.answer for s in line if s.verdict}
    assert marks["rain"] is Correctness.CORRECT  # a gap no item names was judged right
    assert marks["…"] is Correctness.WRONG and marks["90"] is Correctness.WRONG


async def test_an_option_the_task_no_longer_has_is_named_by_its_number(service: LocalService) -> None:
    task, result = await feedback_of(service, TaskType.MULTIPLE_CHOICE)
    assert isinstance(task, MultipleChoiceTask) and isinstance(result, MultipleChoiceResult)
    shortened = task.model_copy(update={"options": task.options[1:2]})
    chosen_first = result.model_copy(
        update={
            "answer": result.answer.model_copy(update={"selectedIndex": 3}),
            "sampleSolution": result.sampleSolution.model_copy(update={"selectedIndex": 2}),
        }
    )
    rendered = render_result(shortened, chosen_first, str)
    assert rendered.answer_text.splitlines()[-1] == "● option 4"
    assert rendered.sample_solution == "option 3"
    assert answer_excerpt(shortened, {"selectedIndex": 3}, str) == "option 4"


async def test_a_learner_reads_no_sample_solution(service: LocalService) -> None:
    for task_type in TaskType:
        task, result = await feedback_of(service, task_type)
        assert render_result(task, result, str, for_learner=True).sample_solution == ""


def test_without_the_task_the_gaps_follow_each_other() -> None:
    from tests.webui.test_components import blanks_feedback

    rendered = render_result(None, blanks_feedback("freezes").result, str)
    assert rendered.answer_text == "freezes · 100"
    assert rendered.sample_solution == "boils · 100"
