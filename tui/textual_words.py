"""Textual's own words in the author's language: the keys of its widgets (the help panel, F1,
lists them all), the command palette and its built-in commands.

Textual writes these in English. Each description and tooltip of a Textual binding the app can
show is marked here, so `make translations` extracts it, and :func:`translate_bindings` gives
every widget class the translated bindings before a screen shows them. The palette's own words
(its placeholder, "No matches found", the system commands) are the app's (tui.app).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from weakref import WeakSet

from rich.align import Align
from rich.text import Text
from textual.binding import Binding, BindingsMap
from textual.command import CommandList, CommandPalette
from textual.dom import DOMNode
from textual.widgets.option_list import Option

from core.client.i18n import N_
from tui.i18n import _

TEXTUAL_WORDS = frozenset(
    {
        N_("Bottom"),
        N_("Copy"),
        N_("Copy selected text"),
        N_("Cursor down"),
        N_("Cursor down select"),
        N_("Cursor left"),
        N_("Cursor left select"),
        N_("Cursor left word select"),
        N_("Cursor line end"),
        N_("Cursor line end select"),
        N_("Cursor line start"),
        N_("Cursor line start select"),
        N_("Cursor page down"),
        N_("Cursor page up"),
        N_("Cursor right"),
        N_("Cursor right select"),
        N_("Cursor right word select"),
        N_("Cursor up"),
        N_("Cursor up select"),
        N_("Cursor word left"),
        N_("Cursor word right"),
        N_("Cut"),
        N_("Cut selected text"),
        N_("Delete all to the left"),
        N_("Delete all to the right"),
        N_("Delete character left"),
        N_("Delete character right"),
        N_("Delete left to start of word"),
        N_("Delete line"),
        N_("Delete right to start of word"),
        N_("Delete to line end"),
        N_("Delete to line start"),
        N_("Dismiss menu"),
        N_("Down"),
        N_("End"),
        N_("Exit the command palette"),
        N_("First"),
        N_("Focus Next"),
        N_("Focus Previous"),
        N_("Go to bottom"),
        N_("Go to end"),
        N_("Go to start"),
        N_("Go to top"),
        N_("Home"),
        N_("Last"),
        N_("Move cursor left"),
        N_("Move cursor left a word"),
        N_("Move cursor left a word and select"),
        N_("Move cursor left and select"),
        N_("Move cursor right a word"),
        N_("Move cursor right a word and select"),
        N_("Move cursor right and select"),
        N_("Move cursor right or accept the completion suggestion"),
        N_("Next command"),
        N_("Next option"),
        N_("Next page"),
        N_("Next tab"),
        N_("Page Down"),
        N_("Page Left"),
        N_("Page Right"),
        N_("Page Up"),
        N_("Page down"),
        N_("Page up"),
        N_("Paste"),
        N_("Paste text from the clipboard"),
        N_("Press button"),
        N_("Previous command"),
        N_("Previous option"),
        N_("Previous page"),
        N_("Previous tab"),
        N_("Quit"),
        N_("Quit the app and return to the command prompt."),
        N_("Redo"),
        N_("Scroll Down"),
        N_("Scroll End"),
        N_("Scroll Home"),
        N_("Scroll Left"),
        N_("Scroll Right"),
        N_("Scroll Up"),
        N_("Select"),
        N_("Select all"),
        N_("Select line"),
        N_("Select line end"),
        N_("Select line start"),
        N_("Show menu"),
        N_("Submit"),
        N_("Toggle"),
        N_("Toggle option"),
        N_("Top"),
        N_("Undo"),
        N_("Up"),
    }
)
"""The descriptions and tooltips of Textual's bindings, as Textual writes them."""

_done: WeakSet[type[DOMNode]] = WeakSet()


def _word(text: str | None) -> str | None:
    return _(text) if text in TEXTUAL_WORDS else text


def _binding(binding: Binding) -> Binding:
    description, tooltip = _word(binding.description), _word(binding.tooltip)
    if (description, tooltip) == (binding.description, binding.tooltip):
        return binding
    return replace(binding, description=description or "", tooltip=tooltip or "")


def translated(bindings: BindingsMap) -> BindingsMap:
    """The same bindings with Textual's words in the app's language."""
    return BindingsMap.from_keys(
        {key: [_binding(b) for b in found] for key, found in bindings.key_to_bindings.items()}
    )


def _classes(root: type[DOMNode]) -> list[type[DOMNode]]:
    found, todo = [], [root]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def translate_bindings() -> None:
    """Every widget and screen class defined so far gets its bindings in the app's language: an
    instance copies its class's bindings when it is made, so this runs before a screen opens (a
    class defined since the last run is translated then; one done before is skipped)."""
    for cls in _classes(DOMNode):
        if cls in _done:
            continue
        merged = cls.__dict__.get("_merged_bindings")
        if merged is not None:
            cls._merged_bindings = translated(merged)
        _done.add(cls)


class Palette(CommandPalette):
    """Textual's command palette, its words in the app's language."""

    def __init__(self, placeholder: str | None = None, **kwargs: Any) -> None:
        super().__init__(placeholder=placeholder or _("Search for commands…"), **kwargs)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """As Textual's, saying "No matches found" in the app's language."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(
                        Align.center(Text(_("No matches found"), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
