"""Declarative form parts: a field set edits some paths of a task document, a row list edits a
list of items. Each part reads its widgets back into the document and shows the validation
errors whose location falls under its fields, so one mapping serves all six task types."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, Literal

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static, TextArea

from tui.i18n import _
from tui.labels import choice_word

Loc = tuple[Any, ...]
Kind = Literal["line", "optional", "number", "integer", "list", "text", "select", "check"]
LIST_SEPARATOR = " | "


@dataclass(frozen=True)
class Spec:
    """One editable field: where it lives in the document, its label, and how it is typed in."""

    path: tuple[str, ...]
    label: str
    kind: Kind = "line"
    placeholder: str = ""
    choices: tuple[str, ...] = ()


def _get(document: dict[str, Any], path: Sequence[str]) -> Any:
    value: Any = document
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _set(document: dict[str, Any], path: Sequence[str], value: Any) -> None:
    for key in path[:-1]:
        if not isinstance(document.get(key), dict):
            document[key] = {}
        document = document[key]
    if value is None:
        document.pop(path[-1], None)
    else:
        document[path[-1]] = value


def _widget(spec: Spec, value: Any) -> Widget:
    if spec.kind == "text":
        return TextArea(str(value or ""), soft_wrap=True, show_line_numbers=False, compact=True)
    if spec.kind == "select":
        return Select(
            [(choice_word(c), c) for c in spec.choices],
            value=value or spec.choices[0],
            allow_blank=False,
            compact=True,
        )
    if spec.kind == "check":
        return Checkbox(spec.label, bool(value), compact=True)
    if spec.kind == "list":
        text = LIST_SEPARATOR.join(value or [])
    else:
        text = "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
    kinds: dict[str, Literal["integer", "number", "text"]] = {"number": "number", "integer": "integer"}
    kind = kinds.get(spec.kind, "text")
    return Input(text, placeholder=spec.placeholder, type=kind, compact=True)


def _read(spec: Spec, widget: Widget) -> Any:
    """The document value of a widget; a number field's text is read as a number when it is one."""
    if isinstance(widget, TextArea):
        return widget.text
    if isinstance(widget, Select | Checkbox):
        return widget.value
    assert isinstance(widget, Input), f"no reader for {type(widget).__name__}"
    text = widget.value
    if spec.kind == "list":
        return [part.strip() for part in text.split("|") if part.strip()]
    if spec.kind in ("number", "integer"):
        return _number(text.strip()) if text.strip() else None
    if spec.kind == "optional":
        return text.strip() or None
    return text


def _number(text: str) -> int | float | str:
    """The number typed in, as the wire models take it (they do not read numbers from strings);
    anything else stays text, for the model to refuse with its message."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class Problems(Static):
    """The problems of a field, a row or the whole form; hidden while there are none."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.message: str | None = None

    def show(self, message: str) -> None:
        """Show ``message`` (hidden when empty), touching the widget only on a change: validation
        runs on every keystroke, and restyling every field each time would make typing sluggish."""
        if message != self.message:
            self.message = message
            self.update(message)
            self.display = bool(message)


class FieldSet(Vertical):
    """Inputs for ``specs`` over ``document``, each with its label above and its error below;
    ``apply()`` writes the edits into a document, leaving the fields it does not show alone."""

    DEFAULT_CLASSES = "field-set"

    def __init__(self, specs: Sequence[Spec], document: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.specs = tuple(specs)
        self.document = deepcopy(document)
        self._widgets: dict[Spec, Widget] = {}
        self._errors: dict[Spec, Problems] = {}

    def compose(self) -> ComposeResult:
        for spec in self.specs:
            with Vertical(classes=f"field field-{spec.kind} field-{spec.path[-1]}"):
                if spec.kind != "check":
                    yield Label(spec.label, classes="field-label")
                yield self._field_widget(spec)
                self._errors[spec] = Problems(classes="field-error")
                yield self._errors[spec]

    def _field_widget(self, spec: Spec) -> Widget:
        widget = self._widgets[spec] = _widget(spec, _get(self.document, spec.path))
        widget.add_class(f"field-{spec.path[-1]}")
        return widget

    def apply(self, document: dict[str, Any]) -> None:
        for spec, widget in self._widgets.items():
            _set(document, spec.path, _read(spec, widget))

    def value(self) -> dict[str, Any]:
        """The document given at construction with the edits (an item keeps its unshown fields)."""
        document = deepcopy(self.document)
        self.apply(document)
        return document

    def _mark(self, errors: dict[Loc, str], base: Loc) -> dict[Spec, list[str]]:
        """Mark the widgets with errors at or below their location; the messages by field."""
        found: dict[Spec, list[str]] = {}
        for spec, widget in self._widgets.items():
            where = base + spec.path
            mine = [msg for loc, msg in errors.items() if loc[: len(where)] == where]
            widget.set_class(bool(mine), "-invalid")
            if mine:
                found[spec] = list(dict.fromkeys(mine))
        return found

    def show_errors(self, errors: dict[Loc, str], base: Loc = ()) -> set[Loc]:
        """Show the errors that fall under these fields; returns the locations shown."""
        found = self._mark(errors, base)
        for spec, label in self._errors.items():
            label.show("; ".join(found.get(spec, [])))
        return _covered(errors, base, self.specs)


def _covered(errors: dict[Loc, str], base: Loc, specs: Sequence[Spec]) -> set[Loc]:
    return {loc for loc in errors for spec in specs if loc[: len(base + spec.path)] == base + spec.path}


class ItemRow(FieldSet):
    """One item of a list (an option, a blank, an aspect) on one line, with a remove button and
    one error line; the column labels are the list's header, so each row is only its inputs."""

    DEFAULT_CLASSES = "item-row"

    def compose(self) -> ComposeResult:
        with Horizontal(classes="item-fields"):
            for spec in self.specs:
                yield self._field_widget(spec)
            yield Button("✕", classes="remove-item", tooltip=_("Remove this item"), compact=True)
        yield Problems(classes="field-error row-error")

    def show_errors(self, errors: dict[Loc, str], base: Loc = ()) -> set[Loc]:
        found = self._mark(errors, base)
        message = " · ".join(
            f"{spec.label.split(' (')[0]}: {'; '.join(msgs)}" for spec, msgs in found.items()
        )
        self.query_one(".row-error", Problems).show(message)
        return _covered(errors, base, self.specs)


class RowList(Vertical):
    """The items of one list field of the document: a header, a row each, and an add button."""

    DEFAULT_CLASSES = "row-list"

    class Changed(Message):
        """A row was added or removed (edits inside rows arrive as the inputs' own messages)."""

    def __init__(
        self,
        field: str,
        title: str,
        noun: str,
        specs: Sequence[Spec],
        items: Iterable[dict[str, Any]],
        blank: dict[str, Any],
    ) -> None:
        super().__init__(id=f"list-{field}")
        self.field, self.title, self.noun, self.specs, self.blank = field, title, noun, tuple(specs), blank
        self._items = list(items)

    def compose(self) -> ComposeResult:
        yield Static(self.title, classes="section-title")
        with Horizontal(classes="item-header"):
            for spec in self.specs:
                yield Label(
                    "" if spec.kind == "check" else spec.label, classes=f"field-label field-{spec.path[-1]}"
                )
            yield Label("", classes="remove-item")
        for item in self._items:
            yield ItemRow(self.specs, item)
        yield Problems(classes="field-error list-error")
        yield Button("+ " + _("Add {item}").format(item=self.noun), classes="add-item", compact=True)

    @property
    def rows(self) -> list[ItemRow]:
        return list(self.query_children(ItemRow))

    def apply(self, document: dict[str, Any]) -> None:
        document[self.field] = [row.value() for row in self.rows]

    def show_errors(self, errors: dict[Loc, str]) -> set[Loc]:
        shown = {loc for loc in errors if loc == (self.field,)}
        for index, row in enumerate(self.rows):
            shown |= row.show_errors(errors, (self.field, index))
        self.query_one(".list-error", Problems).show(errors.get((self.field,), ""))
        return shown

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.has_class("add-item"):
            row = ItemRow(self.specs, self.blank)
            await self.mount(row, before=self.query_one(".list-error"))
            row.query(Input).first().focus()
        elif event.button.has_class("remove-item"):
            await event.button.query_ancestor(ItemRow).remove()
        self.post_message(self.Changed())
