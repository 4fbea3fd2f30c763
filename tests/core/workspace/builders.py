"""One small task of each of the six types, and test answers for the multiple-choice one."""

from __future__ import annotations

from core.api import TASK_MODELS, TaskBase, TaskType, TestAnswer

MC_ID = "mc-capital"


def six_tasks() -> list[TaskBase]:
    documents = {
        TaskType.FREEFORM_TEXT: {
            "id": "freeform-photosynthesis",
            "title": "Photosynthesis",
            "problemStatement": "Explain what a plant needs for photosynthesis.",
            "sampleSolutions": [{"content": "Light, water and carbon dioxide."}],
            "aspects": [
                {"name": "Light", "cues": ["light", "sun"], "points": 1},
                {
                    "name": "Plants eat soil",
                    "type": "MISCONCEPTION",
                    "cues": ["soil"],
                    "message": "Plants do not eat soil: they build sugar from air and water.",
                },
            ],
            "maxPoints": 2,
        },
        TaskType.MULTIPLE_CHOICE: mc_task(correct=0),
        TaskType.MULTIPLE_RESPONSES: {
            "id": "mr-mammals",
            "problemStatement": "Which of these are mammals?",
            "options": [
                {"content": "Whale", "correct": True},
                {"content": "Shark", "feedback": "A shark is a fish."},
            ],
        },
        TaskType.IN_TEXT_FILL_IN_BLANKS: blanks_task(["100"]),
        TaskType.IN_TEXT_CHOICES: {
            "id": "choices-tenses",
            "language": "EN_UK",
            "problemStatement": "Yesterday we {{1}} football.",
            "choices": [{"options": ["play", "played"], "correct": "played"}],
        },
        TaskType.SIMULATION: {
            "id": "sim-customer",
            "title": "Fahrkarte kaufen – Übung",
            "language": "DE_CH",
            "problemStatement": "Kaufe eine Fahrkarte nach Bern.",
            "scenarioDescription": "Am Schalter des Bahnhofs Zürich.",
            "initialMessage": "Grüezi, wohin möchten Sie?",
            "persona": {"name": "Frau Meier", "description": "geduldig"},
            "sampleSolution": "Einmal Bern retour, bitte.",
            "maxTurns": 10,
            "aspects": [{"name": "Greets", "cues": ["grüezi", "hallo"]}],
        },
    }
    return [TASK_MODELS[kind].model_validate(doc) for kind, doc in documents.items()]


def mc_task(correct: int) -> dict:
    cities = ["Bern", "Zurich", "Geneva"]
    return {
        "id": MC_ID,
        "type": "MULTIPLE_CHOICE",
        "title": "Federal city",
        "problemStatement": "Which city is the federal city of Switzerland?",
        "options": [
            {
                "content": city,
                "correct": i == correct,
                "aspects": [{"name": f"Chooses {city}", "type": "CONCEPT" if i == 0 else "MISCONCEPTION"}],
            }
            for i, city in enumerate(cities)
        ],
    }


def blanks_task(accepted: list[str]) -> dict:
    return {
        "id": "blanks-water",
        "type": "InTextFillInBlanksTask",
        "problemStatement": "Water boils at {{1}} °C.",
        "blanks": [{"acceptedAnswers": accepted, "matching": "NUMERIC", "tolerance": 0.5}],
    }


def mc_test_answers() -> list[TestAnswer]:
    return [
        TestAnswer.model_validate(
            {
                "label": "bern",
                "answer": {"selectedIndex": 0},
                "expected": {"verdict": "CORRECT", "present": ["Chooses Bern"]},
            }
        ),
        TestAnswer.model_validate(
            {
                "label": "zurich",
                "answer": {"selectedIndex": 1},
                "expected": {"verdict": "WRONG", "present": ["Chooses Zurich"], "absent": ["Chooses Bern"]},
            }
        ),
    ]
