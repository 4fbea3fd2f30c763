"""Task and request builders shared by the server tests."""

from __future__ import annotations

from typing import Any


def mc_task(task_id: str = "mc-1", correct: int = 0, title: str = "Capital of Switzerland") -> dict[str, Any]:
    options = ["Bern", "Zurich", "Geneva"]
    return {
        "id": task_id,
        "type": "MultipleChoiceTask",
        "title": title,
        "problemStatement": "Which city is the federal city of Switzerland?",
        "options": [{"content": o, "correct": i == correct} for i, o in enumerate(options)],
    }


def blanks_task(task_id: str = "blanks-1") -> dict[str, Any]:
    return {
        "id": task_id,
        "type": "InTextFillInBlanksTask",
        "title": "Water",
        "problemStatement": "Water boils at {{1}} °C and freezes at {{2}} °C.",
        "blanks": [
            {"acceptedAnswers": ["100"], "matching": "NUMERIC", "tolerance": 0.5},
            {"acceptedAnswers": ["0"], "matching": "NUMERIC"},
        ],
    }


def compute_body(task: dict[str, Any], answer: dict[str, Any], **extra: Any) -> dict[str, Any]:
    task_type = {
        "MultipleChoiceTask": "MULTIPLE_CHOICE",
        "InTextFillInBlanksTask": "IN_TEXT_FILL_IN_BLANKS",
        "InTextChoicesTask": "IN_TEXT_CHOICES",
        "MultipleResponsesTask": "MULTIPLE_RESPONSES",
        "FreeformTextTask": "FREEFORM_TEXT",
    }[task["type"]]
    return {"userId": "learner-1", "taskType": task_type, "taskDefinition": task, "answer": answer, **extra}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
