"""The answer inputs. ``answer()`` raises IncompleteAnswer with what is missing, so the author is
told before anything is sent rather than receiving feedback on an accidental empty answer."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, RadioButton, RadioSet, Select, SelectionList, Static, TextArea

from core.api import (
    Answer,
    ContentPiece,
    FreeformTextAnswer,
    InTextChoicesAnswer,
    InTextChoicesTask,
    InTextFillInBlanksAnswer,
    InTextFillInBlanksTask,
    MultipleChoiceAnswer,
    MultipleChoiceTask,
    MultipleResponsesAnswer,
    MultipleResponsesTask,
    TaskBase,
)
from tui.i18n import _
from tui.widgets.statement import learner_view, numbered_gap


class IncompleteAnswer(ValueError):
    """The answer cannot be sent yet; the message says what to fill in."""


class AnswerForm(Vertical):
    DEFAULT_CLASSES = "answer-form"

    def __init__(self, task: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.definition: TaskBase = task

    def answer(self) -> Answer:
        raise NotImplementedError


class FreeformAnswerForm(AnswerForm):
    def compose(self) -> ComposeResult:
        yield TextArea(id="answer-text", soft_wrap=True, placeholder=_("Write an answer as a learner would"))

    def answer(self) -> Answer:
        text = self.query_one(TextArea).text
        if not text.strip():
            raise IncompleteAnswer(_("Write an answer first."))
        return FreeformTextAnswer(content=text)


class MultipleChoiceAnswerForm(AnswerForm):
    definition: MultipleChoiceTask

    def compose(self) -> ComposeResult:
        with RadioSet(id="answer-options"):
            for option in self.definition.options:
                yield RadioButton(option.content)

    def answer(self) -> Answer:
        index = self.query_one(RadioSet).pressed_index
        if index < 0:
            raise IncompleteAnswer(_("Choose an option first."))
        return MultipleChoiceAnswer(selectedIndex=index)


class MultipleResponsesAnswerForm(AnswerForm):
    definition: MultipleResponsesTask

    def compose(self) -> ComposeResult:
        yield SelectionList[int](
            *((o.content, i) for i, o in enumerate(self.definition.options)), id="answer-options"
        )

    def answer(self) -> Answer:
        chosen = set(self.query_one(SelectionList).selected)
        return MultipleResponsesAnswer(selected=[i in chosen for i in range(len(self.definition.options))])


class _GapForm(AnswerForm):
    """A statement with numbered gaps and one input per gap below it."""

    definition: InTextFillInBlanksTask | InTextChoicesTask

    def compose(self) -> ComposeResult:
        yield Static(learner_view(self.definition.problemStatement, numbered_gap), classes="answer-statement")
        for n in range(1, self.gap_count + 1):
            with Horizontal(classes="gap-input"):
                yield Label(f"{n}", classes="gap-number")
                yield self.gap_widget(n - 1)

    @property
    def gap_count(self) -> int:
        raise NotImplementedError

    def gap_widget(self, index: int) -> Input | Select[str]:
        raise NotImplementedError

    def pieces(self) -> list[ContentPiece]:
        values = [w.value for w in self.query(".gap-value").results() if isinstance(w, (Input, Select))]
        missing = [str(i + 1) for i, v in enumerate(values) if v is Select.NULL]
        if missing:
            raise IncompleteAnswer(_("Choose an option at {places} first.").format(places=", ".join(missing)))
        return [ContentPiece(content=str(v)) for v in values]


class BlanksAnswerForm(_GapForm):
    definition: InTextFillInBlanksTask

    @property
    def gap_count(self) -> int:
        return len(self.definition.blanks)

    def gap_widget(self, index: int) -> Input:
        return Input(
            placeholder=_("gap {number}").format(number=index + 1), classes="gap-value", compact=True
        )

    def answer(self) -> Answer:
        return InTextFillInBlanksAnswer(blanks=self.pieces())


class ChoicesAnswerForm(_GapForm):
    definition: InTextChoicesTask

    @property
    def gap_count(self) -> int:
        return len(self.definition.choices)

    def gap_widget(self, index: int) -> Select[str]:
        options = self.definition.choices[index].options
        return Select([(o, o) for o in options], prompt="choose", classes="gap-value", compact=True)

    def answer(self) -> Answer:
        return InTextChoicesAnswer(choices=self.pieces())
