"""Building blocks of the task editors: editable lists of items and the aspect definitions.

The editors edit a plain dict, the task's wire JSON, bound field by field; fields the forms do
not show (options' own aspects, say) ride along untouched, so editing never loses data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict, Unpack

from nicegui import ui

from core.api import AspectType
from core.client.vocabulary import ASPECT_TYPE_LABELS
from webui.i18n import _

Item = dict[str, Any]


def list_editor(
    items: list[Item], render: Callable[[Item, int], object], new: Callable[[], Item], noun: str
) -> None:
    """Each item in a bordered box with a remove button, then a button to add one more."""

    @ui.refreshable
    def rows() -> None:
        if not items:
            ui.label(_("None yet.")).classes("text-sm opacity-70")
        for index, item in enumerate(items):
            with ui.card().classes("w-full gap-2 p-3").props("flat bordered"):
                with ui.row().classes("w-full items-center"):
                    ui.label(f"{noun[:1].upper()}{noun[1:]} {index + 1}").classes(
                        "text-sm font-medium opacity-80"
                    )
                    ui.space()
                    remove_this = _("Remove this {item}").format(item=noun)
                    ui.button(icon="delete", on_click=lambda i=index: remove(i)).props(
                        "flat round dense"
                    ).tooltip(remove_this).props["aria-label"] = remove_this
                render(item, index)
        ui.button(_("Add {item}").format(item=noun), icon="add", on_click=add).props("flat dense no-caps")

    def add() -> None:
        items.append(new())
        rows.refresh()

    def remove(index: int) -> None:
        del items[index]
        rows.refresh()

    rows()


def text(owner: Item, key: str, label: str, *, area: bool = False, hint: str | None = None) -> ui.input:
    """A text field bound to ``owner[key]``.

    It is made with the value it shows: set afterwards by the binding, a value is sent again when
    the browser connects, and that overwrote what the author had typed in the moment before (the
    new task's id of the example, typed over as the page opened, was saved as the example's)."""
    value = owner.get(key, "")
    element = ui.textarea(label, value=value).props("autogrow") if area else ui.input(label, value=value)
    element.props("outlined dense").classes("w-full").bind_value(owner, key)
    if hint:
        element.props(f'hint="{hint}"')
    return element


class Limits(TypedDict, total=False):
    """The bounds a number field may be given (ui.number's own keywords)."""

    min: float
    max: float


def number(owner: Item, key: str, label: str, **limits: Unpack[Limits]) -> ui.number:
    return ui.number(label, **limits).props("outlined dense").classes("w-40").bind_value(owner, key)


def chips(owner: Item, key: str, label: str) -> ui.input_chips:
    owner.setdefault(key, [])
    hint = _("Enter after each")  # outside the f-string, where `make translations` finds it
    return (
        ui.input_chips(label, new_value_mode="add-unique")
        .props("outlined dense")
        .props(f'hint="{hint}"')
        .classes("w-full")
        .bind_value(owner, key)
    )


def new_aspect() -> Item:
    return {"name": "", "type": AspectType.CONCEPT.value, "description": "", "cues": [], "points": 1}


def aspects_editor(owner: Item) -> None:
    """The aspects an answer is checked for: concepts to show, misconceptions to avoid."""

    def render(aspect: Item, _index: int) -> None:
        with ui.row().classes("w-full gap-2 no-wrap max-sm:flex-wrap"):
            text(aspect, "name", _("Name"))
            ui.select({t.value: _(ASPECT_TYPE_LABELS[t]) for t in AspectType}, label=_("Kind")).props(
                "outlined dense"
            ).classes("min-w-40").bind_value(aspect, "type")
            number(aspect, "points", _("Points"), min=0)
        text(aspect, "description", _("Description"), area=True)
        chips(aspect, "cues", _("Cues: phrasings that show it"))
        text(aspect, "message", _("Message shown when it is missing (concept) or present (misconception)"))

    list_editor(owner.setdefault("aspects", []), render, new_aspect, _("aspect"))


def glossary_editor(owner: Item) -> None:
    """The task's glossary: terms and what they mean; the tutor answers a learner's question about
    one of them with its explanation (every task type has one)."""

    def render(entry: Item, _index: int) -> None:
        with ui.row().classes("w-full gap-2 no-wrap max-sm:flex-wrap"):
            text(entry, "term", _("Term")).classes("max-w-64").mark("glossary-term")
            text(entry, "explanation", _("Explanation for learners")).mark("glossary-explanation")

    section_title = _("Glossary (optional): terms the tutor explains when a learner asks")
    ui.label(section_title).classes("text-sm font-medium opacity-80").mark("glossary")
    list_editor(owner.setdefault("glossary", []), render, lambda: {"term": "", "explanation": ""}, _("term"))


def cleaned(value: Any) -> Any:
    """The draft without empty optional values, so that the wire defaults apply to them."""
    if isinstance(value, dict):
        return {k: cleaned(v) for k, v in value.items() if v is not None and v != ""}
    if isinstance(value, list):
        return [cleaned(v) for v in value]
    return value
