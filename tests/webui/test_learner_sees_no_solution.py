"""A learner never reads the solution: not in the sample solution, not in the name or description
of a concept the answer is missing (DESIGN.md). Every task type's feedback is drawn for a learner
and every text on the page (labels, chips, badges, tooltips, the marked answer's titles) is
searched for the words of the solution that the learner could not have read elsewhere."""

from __future__ import annotations

import re
from typing import Any

import pytest
from nicegui import ui
from nicegui.testing import User

from core.api import AspectType, ComputeFeedbackRequest, ComputeTaskFeedbackRequest, TaskBase, parse_task
from core.auth import local_principal
from core.client.learner import aspect_definitions, learner_result
from core.client.rendering import sample_solution
from core.config import Settings
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW
from webui.components.answer_text import answer_excerpt
from webui.components.feedback_view import feedback_view
from webui.page_services import PageServices

ANSWERS: list[tuple[str, dict[str, Any]]] = [
    ("ff-bulb-circuit-en", {"content": "You connect the bulb with a single wire to the battery."}),
    ("ff-bulb-circuit-en", {"content": "The circuit must be closed with both poles."}),
    ("mc-photosynthesis-en", {"selectedIndex": 0}),
    ("mr-renewable-energy-en", {"selected": [True, False, False, False, False]}),
    ("blanks-water-cycle-en", {"blanks": [{"content": c} for c in ("x", "", "rain", "90")]}),
    ("choices-english-tenses-en", {"choices": [{"content": c} for c in ("go", "played", "")]}),
    (
        "sim-parent-teacher-en",
        {
            "messages": [
                {"role": "assistant", "content": "Good evening. You wanted to see me about Sam?"},
                {"role": "user", "content": "Yes. Your child is doing fine, I think."},
            ]
        },
    ),
]
WORD = re.compile(r"[^\W\d_]{4,}")


def words(*texts: str | None) -> set[str]:
    return {w.casefold() for text in texts if text for w in WORD.findall(text)}


def readable_anyway(task: TaskBase, answer: dict[str, Any], result: Any) -> set[str]:
    """Words a learner reads without any feedback, or in what the author wrote for learners: the
    task as shown (title, statement, options, scenario), the answer, the hints of the aspects, and
    the feedback the author wrote for the parts the engine commented on."""
    parts: list[str | None] = [task.title, task.problemStatement, answer_excerpt(task, answer)]
    parts += [t.get("content") for t in answer.get("messages", [])]
    parts += [
        getattr(task, "scenarioDescription", None),
        getattr(getattr(task, "persona", None), "name", None),
    ]
    parts += [getattr(getattr(task, "persona", None), "description", None)]
    parts += [o.content for o in getattr(task, "options", [])]
    parts += [o for c in getattr(task, "choices", []) for o in c.options]
    parts += [a.message for a in aspect_definitions(task)]
    parts += [f"{d.aspect.name} {d.aspect.description}" for d in result.allAspects]  # in the answer
    commented = {getattr(c, "index", None) for item in result.feedback for c in item.context}
    for part_list in ("options", "blanks", "choices"):
        parts += [p.feedback for i, p in enumerate(getattr(task, part_list, [])) if i in commented]
    return words(*parts)


def solution_words(task: TaskBase, result: Any) -> set[str]:
    """The sample solution and the concepts the answer lacks, by name and description."""
    detected = {d.aspect.name for d in result.allAspects}
    missing = [a for a in aspect_definitions(task) if a.type is AspectType.CONCEPT and a.name not in detected]
    return words(sample_solution(task, result, str), *(f"{a.name} {a.description}" for a in missing))


def shown_text(user: User) -> str:
    texts = []
    for element in user.current_layout.descendants():
        texts += [str(getattr(element, "text", "") or ""), str(getattr(element, "content", "") or "")]
        texts += [str(v) for v in element.props.values() if isinstance(v, str)]
    return "\n".join(texts)


@pytest.mark.parametrize(("task_id", "answer"), ANSWERS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(ANSWERS)])
async def test_a_learner_reads_no_word_of_the_solution_the_answer_did_not_contain(
    user: User, task_id: str, answer: dict[str, Any]
) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    task = (await service.get_task("default", task_id)).definition
    request = ComputeTaskFeedbackRequest(
        userId="learner-x", tenantId="default", taskType=task.task_type, answer=answer
    )
    feedback = await service.compute_feedback_for_task(task_id, request)
    studio = PageServices(Settings(), lambda connection: None)  # type: ignore[arg-type,return-value]

    @ui.page("/test/learner-feedback")
    def page() -> None:
        feedback_view(studio, task, feedback, for_learner=True)

    await user.open("/test/learner-feedback")
    await user.should_see("Rate this feedback", retries=SLOW)
    shown = words(shown_text(user))
    leaked = (solution_words(task, feedback.result) - readable_anyway(task, answer, feedback.result)) & shown
    assert not leaked, f"a learner reads {sorted(leaked)}"
    assert feedback.result.feedback, "the answer gets feedback items to read"


def test_what_the_author_wrote_for_learners_is_kept_and_an_engines_naming_of_a_missing_concept_is_not() -> (
    None
):
    from core.api import InTextFillInBlanksResult, InTextFillInBlanksTask
    from core.client.learner import learner_result

    evaporation = {"name": "Evaporation", "description": "Heat turns water into vapour.", "type": "CONCEPT"}
    task = InTextFillInBlanksTask(
        id="b",
        problemStatement="Water {{1}} in the sun.",
        blanks=[
            {"acceptedAnswers": ["evaporates"], "feedback": "Think of evaporation.", "aspects": [evaporation]}
        ],
    )
    item = {"correctness": "WRONG", "topic": {"name": "Water"}, "aspects": [evaporation], "context": []}
    result = InTextFillInBlanksResult.model_validate(
        {
            "type": "InTextFillInBlanksFeedback",
            "answer": {"blanks": [{"content": "x"}]},
            "points": {"achievedPoints": 0, "achievablePoints": 1},
            "sampleSolution": {"blanks": [{"content": "evaporates"}]},
            "feedback": [
                {**item, "message": "Think of evaporation."},  # the gap's own feedback: the author's
                {**item, "message": "Evaporation: this was missing. Heat turns water into vapour."},
            ],
            "allAspects": [],
        }
    )
    kept, replaced = learner_result(task, result, "Something is missing.").feedback
    assert kept.message == "Think of evaporation." and kept.aspects == []
    assert replaced.message == "Something is missing." and replaced.aspects == []


async def test_a_learner_is_not_told_which_option_to_tick_as_well(user: User) -> None:
    """A right option left out of a multiple response whose option has no feedback of the
    author's: the engine's "Option 3 is right as well" would hand the learner the answer; the
    learner reads that something is still missing, and no option is pointed at."""
    task = parse_task(
        {
            "id": "mr-no-feedback",
            "type": "MultipleResponsesTask",
            "problemStatement": "Which of these are renewable?",
            "options": [
                {"content": "Solar power", "correct": True},
                {"content": "Coal", "correct": False},
                {"content": "Wind power", "correct": True},
            ],
        }
    )
    service = LocalService(harness.runtime, local_principal("default"))
    request = ComputeFeedbackRequest.model_validate(
        {
            "userId": "learner-x",
            "taskType": task.task_type.value,
            "taskDefinition": task,
            "answer": {"selected": [True, False, False]},
        }
    )
    result = (await service.compute_feedback(request)).result
    assert any("Option 3" in item.message for item in result.feedback)  # what the author reads
    shown = learner_result(task, result, "Something is still missing.")
    assert not any("Option 3" in item.message for item in shown.feedback)
    assert not any(getattr(c, "index", None) == 2 for item in shown.feedback for c in item.context)
    assert any(item.message == "Something is still missing." for item in shown.feedback)
