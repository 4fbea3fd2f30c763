"""Answer inputs, one per task type: each turns what the author typed or picked into an Answer."""

from __future__ import annotations

from core.api import (
    FreeformTextTask,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    MultipleChoiceTask,
    MultipleResponsesTask,
    TaskBase,
)
from tui.widgets.answer.forms import (
    AnswerForm,
    BlanksAnswerForm,
    ChoicesAnswerForm,
    FreeformAnswerForm,
    MultipleChoiceAnswerForm,
    MultipleResponsesAnswerForm,
)

_FORMS: dict[type[TaskBase], type[AnswerForm]] = {
    FreeformTextTask: FreeformAnswerForm,
    InTextFillInBlanksTask: BlanksAnswerForm,
    InTextChoicesTask: ChoicesAnswerForm,
    MultipleChoiceTask: MultipleChoiceAnswerForm,
    MultipleResponsesTask: MultipleResponsesAnswerForm,
}


def answer_form(task: TaskBase) -> AnswerForm:
    """The input that fits the task (simulation tasks are answered by a conversation instead)."""
    return _FORMS[type(task)](task, id="answer-form")


__all__ = ["AnswerForm", "answer_form"]
