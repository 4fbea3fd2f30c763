"""Small tasks, tutors and the requests the contract tests send about them."""

from __future__ import annotations

from typing import Any

from core.api import (
    ChatMessage,
    ChatRequest,
    ComputeFeedbackRequest,
    ComputeTaskFeedbackRequest,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
    TutorUpsert,
)

USER = "learner-1"


def mc_task(task_id: str = "mc-1", title: str = "Federal city") -> MultipleChoiceTask:
    return MultipleChoiceTask.model_validate(
        {
            "id": task_id,
            "title": title,
            "problemStatement": "Which city is the federal city of Switzerland?",
            "options": [
                {"content": "Bern", "correct": True},
                {"content": "Zurich", "feedback": "Zurich is the largest city, not the federal city."},
                {"content": "Geneva"},
            ],
        }
    )


def mr_task(task_id: str = "mr-1") -> MultipleResponsesTask:
    return MultipleResponsesTask.model_validate(
        {
            "id": task_id,
            "title": "Mammals",
            "problemStatement": "Which of these are mammals?",
            "options": [
                {"content": "Whale", "correct": True},
                {"content": "Shark"},
                {"content": "Bat", "correct": True},
            ],
        }
    )


def blanks_task(task_id: str = "blanks-1") -> InTextFillInBlanksTask:
    return InTextFillInBlanksTask.model_validate(
        {
            "id": task_id,
            "title": "Water",
            "problemStatement": "Water boils at {{1}} °C and freezes at {{2}} °C.",
            "blanks": [
                {"acceptedAnswers": ["100"], "matching": "NUMERIC", "tolerance": 0.5},
                {"acceptedAnswers": ["0"], "matching": "NUMERIC"},
            ],
        }
    )


def choices_task(task_id: str = "choices-1") -> InTextChoicesTask:
    return InTextChoicesTask.model_validate(
        {
            "id": task_id,
            "title": "Tenses",
            "problemStatement": "My sister {{1}} to school. Yesterday we {{2}} football.",
            "choices": [
                {"options": ["go", "goes"], "correct": "goes"},
                {"options": ["play", "played"], "correct": "played"},
            ],
        }
    )


def compute(task: TaskBase, answer: dict[str, Any], **extra: Any) -> ComputeFeedbackRequest:
    """A POST /feedback/compute body; taskType goes in the enum spelling, the task in schema names."""
    return ComputeFeedbackRequest.model_validate(
        {"userId": USER, "taskType": task.task_type.value, "taskDefinition": task, "answer": answer, **extra}
    )


def compute_stored(task: TaskBase, answer: dict[str, Any]) -> ComputeTaskFeedbackRequest:
    return ComputeTaskFeedbackRequest.model_validate(
        {"userId": USER, "taskType": task.task_type.value, "answer": answer}
    )


def simulation_task(task_id: str = "sim-1") -> SimulationTask:
    return SimulationTask.model_validate(
        {
            "id": task_id,
            "title": "Calm an upset customer",
            "problemStatement": "A customer's parcel is late. Find out what happened and offer a solution.",
            "scenarioDescription": "You are the support agent of a web shop.",
            "initialMessage": "My parcel still has not arrived!",
            "persona": {"name": "Alex", "description": "an impatient customer"},
            "sampleSolution": "I am sorry. Let me check the tracking number and send a replacement.",
            "aspects": [{"name": "Apologises", "cues": ["sorry", "apologise"]}],
        }
    )


def tutor(task_id: str | None = "mc-1", name: str = "Geography tutor") -> TutorUpsert:
    return TutorUpsert(name=name, description="Helps with capitals", initial_messages=["Hi!"], taskId=task_id)


def chat(tutor_id: str, text: str = "I think it is Zurich.", **extra: Any) -> ChatRequest:
    return ChatRequest(tutorId=tutor_id, messages=[ChatMessage(role="user", content=text)], **extra)


CLASS_ANSWERS = [
    "The circuit is closed, so current flows through the bulb.",
    "The bulb is magic.",
    "Current flows in a closed loop from the battery through the filament and back.",
    "Because it is switched off.",
    "The bulb is magic.",
    "Electricity goes through the wire in a circle.",
    "I don't know.",
    "The filament gets hot because current flows through it in a closed circuit.",
    "The battery pushes electrons around the closed circuit.",
    "Light comes out of the battery.",
]
"""A class's answers to ff-bulb-circuit-en (a demo task) for class-set tests: right, wrong and
vague ones, and a twin (positions 1 and 4)."""
