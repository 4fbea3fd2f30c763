"""How the six task types are named and pictured everywhere in the web app."""

from __future__ import annotations

from core.api import TaskType, try_parse_task_type

LABELS = {
    TaskType.FREEFORM_TEXT: ("Free text", "notes"),
    TaskType.MULTIPLE_CHOICE: ("Multiple choice", "radio_button_checked"),
    TaskType.MULTIPLE_RESPONSES: ("Multiple responses", "checklist"),
    TaskType.IN_TEXT_FILL_IN_BLANKS: ("Fill in the blanks", "text_fields"),
    TaskType.IN_TEXT_CHOICES: ("Choices in text", "arrow_drop_down_circle"),
    TaskType.SIMULATION: ("Simulation", "theater_comedy"),
}


def type_label(task_type: str | TaskType) -> str:
    parsed = try_parse_task_type(task_type)
    return LABELS[parsed][0] if parsed else str(task_type)


def type_icon(task_type: str | TaskType) -> str:
    parsed = try_parse_task_type(task_type)
    return LABELS[parsed][1] if parsed else "help"
