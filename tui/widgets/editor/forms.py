"""What the editor shows for each task type, as data: the field sets and item lists of its form."""

from __future__ import annotations

from core.api import AspectType, Language, Matching, TaskType
from tui.widgets.editor.fields import FieldSet, RowList, Spec

COMMON = (
    Spec(("id",), "Id", placeholder="letters, digits, dashes; unique in the tenant"),
    Spec(("title",), "Title", placeholder="shown in the library; the id when empty"),
    Spec(("language",), "Language", "select", choices=tuple(lang.value for lang in Language)),
    Spec(("problemStatement",), "Problem statement", "text"),
    Spec(("context",), "Context (optional)", placeholder="what the learner knows, the course, the level"),
)

ASPECTS = (
    Spec(("name",), "Aspect", placeholder="name"),
    Spec(("type",), "Type", "select", choices=tuple(t.value for t in AspectType)),
    Spec(("cues",), "Cues (a | b)", "list", placeholder="phrasings that show it"),
    Spec(("message",), "Message", "optional", placeholder="shown when missing / detected"),
    Spec(("points",), "Points", "number"),
)
OPTIONS = (
    Spec(("content",), "Option", placeholder="what the learner reads"),
    Spec(("correct",), "Correct", "check"),
    Spec(("feedback",), "Feedback", "optional", placeholder="shown when chosen"),
)
BLANKS = (
    Spec(("acceptedAnswers",), "Accepted answers (a | b)", "list"),
    Spec(("matching",), "Matching", "select", choices=tuple(m.value for m in Matching)),
    Spec(("tolerance",), "Tolerance", "number"),
    Spec(("feedback",), "Feedback", "optional", placeholder="hint when wrong"),
)
CHOICES = (
    Spec(("options",), "Options (a | b)", "list"),
    Spec(("correct",), "Correct option", placeholder="one of the options"),
    Spec(("feedback",), "Feedback", "optional", placeholder="hint when wrong"),
)
SIMULATION = (
    Spec(("scenarioDescription",), "Scenario", "text"),
    Spec(("persona", "name"), "Persona", placeholder="who the learner talks to"),
    Spec(("persona", "description"), "Persona description", placeholder="how they behave"),
    Spec(("initialMessage",), "First message of the persona"),
    Spec(("sampleSolution",), "Sample solution", "text"),
    Spec(("timeLimitInMinutes",), "Time limit (minutes)", "number"),
    Spec(("maxTurns",), "Maximum turns", "integer"),
)

GAP_HINT = "Mark each gap in the problem statement as {{1}}, {{2}} …; item n belongs to {{n}}."
NEW_ASPECT = {"name": "", "type": "CONCEPT", "cues": []}


def aspect_list(document: dict, title: str) -> RowList:
    return RowList("aspects", title, "aspect", ASPECTS, document.get("aspects", []), NEW_ASPECT)


def type_parts(task_type: TaskType, document: dict) -> list[FieldSet | RowList]:
    """The parts below the common fields for a task type, filled from ``document``."""
    if task_type in (TaskType.MULTIPLE_CHOICE, TaskType.MULTIPLE_RESPONSES):
        rule = "exactly one correct" if task_type is TaskType.MULTIPLE_CHOICE else "any number correct"
        return [
            RowList("options", f"Options ({rule})", "option", OPTIONS, document["options"], {"content": ""})
        ]
    if task_type is TaskType.IN_TEXT_FILL_IN_BLANKS:
        blank = {"acceptedAnswers": [], "matching": Matching.CASE_INSENSITIVE.value}
        return [RowList("blanks", f"Blanks. {GAP_HINT}", "blank", BLANKS, document["blanks"], blank)]
    if task_type is TaskType.IN_TEXT_CHOICES:
        point = {"options": [], "correct": ""}
        return [
            RowList(
                "choices", f"Choice points. {GAP_HINT}", "choice point", CHOICES, document["choices"], point
            )
        ]
    if task_type is TaskType.FREEFORM_TEXT:
        return [
            FieldSet((Spec(("maxPoints",), "Maximum points", "number"),), document, classes="narrow"),
            RowList(
                "sampleSolutions",
                "Sample solutions",
                "sample solution",
                (Spec(("content",), "Solution"),),
                document.get("sampleSolutions", []),
                {"content": ""},
            ),
            aspect_list(
                document,
                "Aspects: concepts to show, misconceptions to catch; cues are phrasings that show them",
            ),
        ]
    return [
        FieldSet(SIMULATION, document),
        aspect_list(document, "Aspects: what the learner should do in the conversation"),
    ]
