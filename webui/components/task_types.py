"""How the six task types are named and pictured everywhere in the web app."""

from __future__ import annotations

from core.api import TaskAction, TaskType, try_parse_task_type
from core.client.vocabulary import type_label_source
from webui.i18n import N_, _

ICONS = {
    TaskType.FREEFORM_TEXT: "notes",
    TaskType.MULTIPLE_CHOICE: "radio_button_checked",
    TaskType.MULTIPLE_RESPONSES: "checklist",
    TaskType.IN_TEXT_FILL_IN_BLANKS: "text_fields",
    TaskType.IN_TEXT_CHOICES: "arrow_drop_down_circle",
    TaskType.SIMULATION: "theater_comedy",
}
"""The web app's picture of each task type; the names are the product's (core.client.vocabulary)."""


ACTION_WORDS = {
    TaskAction.CREATED: N_("created"),
    TaskAction.UPDATED: N_("updated"),
    TaskAction.UNCHANGED: N_("unchanged"),
}


def action_word(action: TaskAction) -> str:
    """What an upsert did, as a word of a sentence ("Task updated")."""
    return _(ACTION_WORDS[action])


def type_label(task_type: str | TaskType) -> str:
    return _(type_label_source(task_type))


def type_icon(task_type: str | TaskType) -> str:
    parsed = try_parse_task_type(task_type)
    return ICONS[parsed] if parsed else "help"
