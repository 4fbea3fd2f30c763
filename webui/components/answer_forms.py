"""The form a learner would fill in, one per task type, returning the answer in its wire shape.

Gaps and choice points are shown where the problem statement has them, so an author tries the
task as a learner sees it. Each builder returns a function that reads the answer off the form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui

from core.api import (
    InTextChoicesTask,
    InTextFillInBlanksTask,
    MultipleChoiceTask,
    MultipleResponsesTask,
    TaskBase,
)
from core.api.validation import GAP
from webui.i18n import _

AnswerReader = Callable[[], dict[str, Any]]


def answer_form(task: TaskBase) -> AnswerReader:
    if isinstance(task, MultipleChoiceTask):
        return _single_choice(task)
    if isinstance(task, MultipleResponsesTask):
        return _multiple_choice(task)
    if isinstance(task, InTextFillInBlanksTask):
        return _in_text(
            task, lambda n: ui.input().props(f"dense outlined {_gap_name(n)}").classes("w-40").mark("gap")
        )
    if isinstance(task, InTextChoicesTask):
        return _in_text(
            task,
            lambda n: (
                ui.select(task.choices[n - 1].options)
                .props(f"dense outlined {_gap_name(n)}")
                .classes("min-w-32")
                .mark("gap")
            ),
        )
    return _free_text()


def _gap_name(n: int) -> str:
    """The gap's name for screen readers (and tests), as the field shows no label of its own."""
    return f'aria-label="{_("gap {number}").format(number=n)}"'


def _free_text() -> AnswerReader:
    area = ui.textarea(_("Answer"), placeholder=_("Type the answer a learner might give")).props(
        "outlined autogrow"
    )
    area.classes("w-full").mark("answer")
    return lambda: {"content": area.value or ""}


def _single_choice(task: MultipleChoiceTask) -> AnswerReader:
    radio = ui.radio({i: o.content for i, o in enumerate(task.options)}).props("dense")

    def read() -> dict[str, int]:
        if radio.value is None:
            raise ValueError(_("choose an option first"))
        return {"selectedIndex": radio.value}

    return read


def _multiple_choice(task: MultipleResponsesTask) -> AnswerReader:
    boxes = [ui.checkbox(o.content).props("dense") for o in task.options]
    return lambda: {"selected": [bool(b.value) for b in boxes]}


def _in_text(task: InTextFillInBlanksTask | InTextChoicesTask, field: Callable[[int], Any]) -> AnswerReader:
    """The statement with a field at each {{n}}; the answer lists the fields in gap order."""
    fields: dict[int, Any] = {}
    with ui.row().classes("w-full items-center gap-x-1 gap-y-2 text-base leading-loose"):
        last = 0
        for match in GAP.finditer(task.problemStatement):
            ui.label(task.problemStatement[last : match.start()])
            fields[int(match.group(1))] = field(int(match.group(1)))
            last = match.end()
        ui.label(task.problemStatement[last:])
    key = "blanks" if isinstance(task, InTextFillInBlanksTask) else "choices"
    return lambda: {key: [{"content": fields[n].value or ""} for n in sorted(fields)]}
