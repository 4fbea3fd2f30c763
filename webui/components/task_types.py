"""How the six task types are named and pictured everywhere in the web app."""

from __future__ import annotations

from core.api import TaskAction, TaskType, try_parse_task_type
from webui.i18n import N_, _

LABELS = {
    TaskType.FREEFORM_TEXT: (N_("Free text"), "notes"),
    TaskType.MULTIPLE_CHOICE: (N_("Multiple choice"), "radio_button_checked"),
    TaskType.MULTIPLE_RESPONSES: (N_("Multiple responses"), "checklist"),
    TaskType.IN_TEXT_FILL_IN_BLANKS: (N_("Fill in the blanks"), "text_fields"),
    TaskType.IN_TEXT_CHOICES: (N_("Choices in text"), "arrow_drop_down_circle"),
    TaskType.SIMULATION: (N_("Simulation"), "theater_comedy"),
}


ACTION_WORDS = {
    TaskAction.CREATED: N_("created"),
    TaskAction.UPDATED: N_("updated"),
    TaskAction.UNCHANGED: N_("unchanged"),
}


def action_word(action: TaskAction) -> str:
    """What an upsert did, as a word of a sentence ("Task updated")."""
    return _(ACTION_WORDS[action])


def type_label(task_type: str | TaskType) -> str:
    parsed = try_parse_task_type(task_type)
    return _(LABELS[parsed][0]) if parsed else str(task_type)


def type_icon(task_type: str | TaskType) -> str:
    parsed = try_parse_task_type(task_type)
    return LABELS[parsed][1] if parsed else "help"
