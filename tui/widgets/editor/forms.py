"""What the editor shows for each task type, as data: the field sets and item lists of its form."""

from __future__ import annotations

from typing import Any

from core.api import AspectType, Language, Matching, TaskType
from tui.i18n import _
from tui.widgets.editor.fields import FieldSet, RowList, Spec

COMMON = (
    Spec(("id",), _("Id"), placeholder=_("letters, digits, dashes; unique in the tenant")),
    Spec(("title",), _("Title"), placeholder=_("shown in the library; the id when empty")),
    Spec(("language",), _("Language"), "select", choices=tuple(lang.value for lang in Language)),
    Spec(("problemStatement",), _("Problem statement"), "text"),
    Spec(
        ("context",), _("Context (optional)"), placeholder=_("what the learner knows, the course, the level")
    ),
)

ASPECTS = (
    Spec(("name",), _("Aspect"), placeholder=_("name")),
    Spec(("type",), _("Type"), "select", choices=tuple(t.value for t in AspectType)),
    Spec(("cues",), _("Cues (a | b)"), "list", placeholder=_("phrasings that show it")),
    Spec(("message",), _("Message"), "optional", placeholder=_("shown when missing / detected")),
    Spec(("points",), _("Points"), "number"),
)
OPTIONS = (
    Spec(("content",), _("Option"), placeholder=_("what the learner reads")),
    Spec(("correct",), _("Correct"), "check"),
    Spec(("feedback",), _("Feedback"), "optional", placeholder=_("shown when chosen")),
)
BLANKS = (
    Spec(("acceptedAnswers",), _("Accepted answers (a | b)"), "list"),
    Spec(("matching",), _("Matching"), "select", choices=tuple(m.value for m in Matching)),
    Spec(("tolerance",), _("Tolerance"), "number"),
    Spec(("feedback",), _("Feedback"), "optional", placeholder=_("hint when wrong")),
)
CHOICES = (
    Spec(("options",), _("Options (a | b)"), "list"),
    Spec(("correct",), _("Correct option"), placeholder=_("one of the options")),
    Spec(("feedback",), _("Feedback"), "optional", placeholder=_("hint when wrong")),
)
SIMULATION = (
    Spec(("scenarioDescription",), _("Scenario"), "text"),
    Spec(("persona", "name"), _("Persona"), placeholder=_("who the learner talks to")),
    Spec(("persona", "description"), _("Persona description"), placeholder=_("how they behave")),
    Spec(("initialMessage",), _("First message of the persona")),
    Spec(("sampleSolution",), _("Sample solution"), "text"),
    Spec(("timeLimitInMinutes",), _("Time limit (minutes)"), "number"),
    Spec(("maxTurns",), _("Maximum turns"), "integer"),
)

GLOSSARY = (
    Spec(("term",), _("Term"), placeholder=_("a word of the task")),
    Spec(("explanation",), _("Explanation"), placeholder=_("what it means, for learners")),
)

GAP_HINT = _("Mark each gap in the problem statement as {{1}}, {{2}} …; item n belongs to {{n}}.")
NEW_ASPECT = {"name": "", "type": "CONCEPT", "cues": []}


def aspect_list(document: dict[str, Any], title: str) -> RowList:
    return RowList("aspects", title, _("aspect"), ASPECTS, document.get("aspects", []), NEW_ASPECT)


def glossary_list(document: dict[str, Any]) -> RowList:
    """The task's glossary: the tutor answers a question about a term with its explanation."""
    title = _("Glossary (optional): terms the tutor explains when a learner asks")
    entry = {"term": "", "explanation": ""}
    return RowList("glossary", title, _("term"), GLOSSARY, document.get("glossary") or [], entry)


def type_parts(task_type: TaskType, document: dict[str, Any]) -> list[FieldSet | RowList]:
    """The parts below the common fields for a task type, filled from ``document``; the glossary
    last, which every type has."""
    return [*_own_parts(task_type, document), glossary_list(document)]


def _own_parts(task_type: TaskType, document: dict[str, Any]) -> list[FieldSet | RowList]:
    if task_type in (TaskType.MULTIPLE_CHOICE, TaskType.MULTIPLE_RESPONSES):
        title = (
            _("Options (exactly one correct)")
            if task_type is TaskType.MULTIPLE_CHOICE
            else _("Options (any number correct)")
        )
        return [RowList("options", title, _("option"), OPTIONS, document["options"], {"content": ""})]
    if task_type is TaskType.IN_TEXT_FILL_IN_BLANKS:
        blank = {"acceptedAnswers": [], "matching": Matching.CASE_INSENSITIVE.value}
        return [
            RowList("blanks", f"{_('Blanks')}. {GAP_HINT}", _("blank"), BLANKS, document["blanks"], blank)
        ]
    if task_type is TaskType.IN_TEXT_CHOICES:
        point = {"options": [], "correct": ""}
        return [
            RowList(
                "choices",
                f"{_('Choice points')}. {GAP_HINT}",
                _("choice point"),
                CHOICES,
                document["choices"],
                point,
            )
        ]
    if task_type is TaskType.FREEFORM_TEXT:
        return [
            FieldSet((Spec(("maxPoints",), _("Maximum points"), "number"),), document, classes="narrow"),
            RowList(
                "sampleSolutions",
                _("Sample solutions"),
                _("sample solution"),
                (Spec(("content",), _("Solution")),),
                document.get("sampleSolutions", []),
                {"content": ""},
            ),
            aspect_list(
                document,
                _("Aspects: concepts to show, misconceptions to catch; cues are phrasings that show them"),
            ),
        ]
    return [
        FieldSet(SIMULATION, document),
        aspect_list(document, _("Aspects: what the learner should do in the conversation")),
    ]
