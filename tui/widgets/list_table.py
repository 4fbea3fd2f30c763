"""The table of every list in the app (tasks, history, retest): rows as the cursor, zebra stripes,
j/k to move and g/G to the first and last row as in vi, less and most terminal tools, besides
the arrow keys."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from tui.i18n import _


class ListTable(DataTable[object]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", _("Down"), show=False),
        Binding("k", "cursor_up", _("Up"), show=False),
        Binding("g", "scroll_top", _("First row"), show=False),
        Binding("G", "scroll_bottom", _("Last row"), show=False),
    ]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
