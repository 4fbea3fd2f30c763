"""The editor of a task definition: the common fields, a form per task type, and save.

Saving checks the draft as the API would (the wire models, then the rules that span fields) and
lists every problem beside the form before anything is sent; what the service still refuses is
reported in its own words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from core.api import (
    Language,
    Matching,
    TaskBase,
    TaskDefinition,
    TaskType,
    VersionConflict,
    parse_task_type,
)
from core.client.authoring import save_and_check
from core.client.validation import problem_lines, validate
from core.client.vocabulary import MATCHING_LABELS, language_name
from webui.components.editor_fields import (
    Item,
    aspects_editor,
    chips,
    cleaned,
    glossary_editor,
    list_editor,
    number,
    text,
)
from webui.components.task_types import action_word
from webui.i18n import N_, _, language
from webui.page_services import PageServices, reporting
from webui.theme import dialog, notify_on_next_page, section_title

Saved = Callable[[TaskBase], Awaitable[None]]


def task_editor(
    studio: PageServices, tenant: str, draft: Item, *, version: int | None, on_saved: Saved
) -> None:
    """``version``: the stored version being edited (0 for a new task); the save is conditional on
    it, so a second author's save in between, or a new task's id that is taken, is never
    overwritten without the author choosing to."""
    task_type = parse_task_type(draft["type"])
    is_new = version == 0
    with ui.column().classes("w-full gap-3") as editor:
        section_title(_("Task"))
        with ui.row().classes("w-full gap-2 no-wrap max-sm:flex-wrap"):
            text(draft, "id", _("Id")).props("" if is_new else "readonly").tooltip(
                _("The id names the task for good; duplicate the task to give it another")
            )
            ui.select(
                {lang.value: language_name(lang, language()) for lang in Language}, label=_("Language")
            ).props("outlined dense").classes("min-w-32").bind_value(draft, "language")
        text(draft, "title", _("Title"))
        statement_hint = _(GAP_HINT[task_type]) if task_type in GAP_HINT else None
        text(draft, "problemStatement", _("Problem statement"), area=True, hint=statement_hint)
        text(draft, "context", _("Context for the feedback (subject, level)"), area=True)
        FORMS[task_type](draft)
        glossary_editor(draft)
        problems = ui.column().classes("w-full gap-1")
        save_button = ui.button(_("Save task"), icon="save", on_click=lambda: save()).props("unelevated")
        save_button.classes("self-end")
    ui.run_javascript(UNSAVED_GUARD.replace("EDITOR_ID", f"c{editor.id}"))

    async def save(overwrite: bool = False) -> None:
        problems.clear()
        task = _checked(cleaned(draft), problems)
        if task is None:
            return
        save_button.props("loading")
        try:
            with reporting(_("Saving")):
                library = await studio.library(tenant)
                try:
                    saved = await save_and_check(library, task, None if overwrite else version)
                except VersionConflict as conflict:
                    _ask_to_overwrite(conflict.message, lambda: save(overwrite=True))
                    return
                ui.run_javascript("window.studioUnsaved = false")
                notify_on_next_page(
                    _("Task {action}").format(action=action_word(saved.response.action)), type="positive"
                )
                for line in saved.warnings(_):
                    notify_on_next_page(
                        line, type="warning", multi_line=True, close_button=True, timeout=20000
                    )
                await on_saved(task)
        finally:
            save_button.props(remove="loading")


UNSAVED_GUARD = """
(() => {
  window.studioUnsaved = false;
  if (window.studioUnsavedGuard) return;
  window.studioUnsavedGuard = true;
  const edited = (event) => {
    if (event.target.closest && event.target.closest("#EDITOR_ID")) window.studioUnsaved = true;
  };
  for (const kind of ["input", "change"]) document.addEventListener(kind, edited, true);
  window.addEventListener("beforeunload", (event) => {
    if (window.studioUnsaved) { event.preventDefault(); event.returnValue = ""; }
  });
})();
"""
"""Unsaved edits are not lost by leaving the page: typing in the editor marks it edited (listened
for on the document: a tab's editor is drawn only when its tab opens), a save clears the mark, and
while it is set the browser asks before it leaves (or reloads) the page."""


def _ask_to_overwrite(conflict: str, overwrite: Callable[[], Awaitable[None]]) -> None:
    """Another save came first, or the id is taken: the author decides; cancel keeps the edits."""

    async def confirmed() -> None:
        await overwrite()
        box.close()  # last: closing deletes the dialog, the context of this handler

    with dialog() as box:
        ui.label(_("Not saved yet")).classes("text-lg")
        ui.label(f"{conflict}.").classes("text-sm").mark("conflict")
        ui.label(_("Save your version over it? Cancel keeps your edits on this page, unsaved.")).classes(
            "text-sm opacity-70"
        )
        with ui.row().classes("w-full justify-end"):
            ui.button(_("Cancel"), on_click=box.close).props("flat")
            ui.button(_("Overwrite"), on_click=confirmed, color="negative").props("unelevated")


def _checked(document: Item, problems: ui.column) -> TaskDefinition | None:
    """The task the draft describes, or None with every problem listed in ``problems``."""
    task, found = validate(document, language())
    if task is not None:
        return task
    with problems:
        for message in problem_lines(found):
            with ui.row().classes("items-center gap-2 text-negative"):
                ui.icon("error")
                ui.label(message)
    return None


GAP_HINT = {
    TaskType.IN_TEXT_FILL_IN_BLANKS: N_(
        "Mark the gaps {{1}}, {{2}} … in order; gap n is answered by blank n"
    ),
    TaskType.IN_TEXT_CHOICES: N_("Mark the choice points {{1}}, {{2}} … in order; point n offers choice n"),
}


def _freeform(draft: Item) -> None:
    section_title(_("Sample solutions"))
    list_editor(
        draft.setdefault("sampleSolutions", []),
        lambda item, _index: text(item, "content", _("Sample solution"), area=True),
        lambda: {"content": ""},
        _("sample solution"),
    )
    number(draft, "maxPoints", _("Maximum points"), min=0.1)
    section_title(_("Aspects"))
    aspects_editor(draft)


def _options(single: bool) -> Callable[[Item], None]:
    def form(draft: Item) -> None:
        options = draft.setdefault("options", [])

        def only_one(checked: bool, index: int) -> None:
            """A multiple-choice task has one correct option: ticking one unticks the others."""
            if single and checked:
                for i, other in enumerate(options):
                    other["correct"] = i == index

        def render(option: Item, index: int) -> None:
            with ui.row().classes("w-full items-center gap-2 no-wrap"):
                text(option, "content", _("Option"))
                ui.checkbox(_("correct"), on_change=lambda e: only_one(e.value, index)).bind_value(
                    option, "correct"
                )
            text(
                option,
                "feedback",
                _("Feedback when chosen") if single else _("Feedback when answered wrongly"),
            )

        section_title(_("Options (exactly one correct)") if single else _("Options"))
        list_editor(options, render, lambda: {"content": "", "correct": False}, _("option"))

    return form


def _blanks(draft: Item) -> None:
    def render(blank: Item, _index: int) -> None:
        chips(blank, "acceptedAnswers", _("Accepted answers"))
        with ui.row().classes("w-full gap-2 items-center"):
            ui.select({m.value: _(MATCHING_LABELS[m]) for m in Matching}, label=_("Matching")).props(
                "outlined dense"
            ).classes("min-w-48").bind_value(blank, "matching")
            number(blank, "tolerance", _("Tolerance (numeric)"), min=0).bind_visibility_from(
                blank, "matching", value=Matching.NUMERIC.value
            )
        text(blank, "feedback", _("Feedback when the gap is wrong"))

    section_title(_("Blanks"))
    new = {"acceptedAnswers": [], "matching": Matching.CASE_INSENSITIVE.value}
    list_editor(draft.setdefault("blanks", []), render, lambda: dict(new, acceptedAnswers=[]), _("blank"))


def _choices(draft: Item) -> None:
    def render(point: Item, _index: int) -> None:
        def offer_options() -> None:
            kept = point.get("correct") if point.get("correct") in point["options"] else None
            correct.set_options(point["options"], value=kept)

        chips(point, "options", _("Options")).on_value_change(offer_options)
        correct = (
            ui.select(point["options"], label=_("Correct option")).props("outlined dense").classes("min-w-48")
        )
        correct.bind_value(point, "correct")
        text(point, "feedback", _("Feedback when the choice is wrong"))

    section_title(_("Choice points"))
    list_editor(
        draft.setdefault("choices", []), render, lambda: {"options": [], "correct": None}, _("choice point")
    )


def _simulation(draft: Item) -> None:
    persona: Any = draft.setdefault("persona", {"name": "", "description": ""})
    section_title(_("Scenario"))
    text(draft, "scenarioDescription", _("Scenario"), area=True)
    with ui.row().classes("w-full gap-2 no-wrap max-sm:flex-wrap"):
        text(persona, "name", _("Persona name"))
        number(draft, "timeLimitInMinutes", _("Time limit (minutes)"), min=1)
        number(draft, "maxTurns", _("Maximum turns"), min=1)
    text(persona, "description", _("Persona: who they are, how they behave"), area=True)
    text(draft, "initialMessage", _("The persona's first message"), area=True)
    text(draft, "sampleSolution", _("How a good learner handles it"), area=True)
    section_title(_("Aspects: what the learner should do"))
    aspects_editor(draft)


FORMS: dict[TaskType, Callable[[Item], None]] = {
    TaskType.FREEFORM_TEXT: _freeform,
    TaskType.MULTIPLE_CHOICE: _options(single=True),
    TaskType.MULTIPLE_RESPONSES: _options(single=False),
    TaskType.IN_TEXT_FILL_IN_BLANKS: _blanks,
    TaskType.IN_TEXT_CHOICES: _choices,
    TaskType.SIMULATION: _simulation,
}
