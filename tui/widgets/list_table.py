"""The table of every list in the app (tasks, history, retest): rows as the cursor, zebra stripes,
one flexible column sized to what the others leave (so the id and the verdicts are always in view),
j/k to move and g/G to the first and last row as in vi, less and most terminal tools, besides
the arrow keys."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from tui.i18n import _


class ListTable(DataTable[object]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", _("Down"), show=False),
        Binding("k", "cursor_up", _("Up"), show=False),
        Binding("g", "scroll_top", _("First row"), show=False),
        Binding("G", "scroll_bottom", _("Last row"), show=False),
    ]

    FLEXIBLE_AT_LEAST = 12
    """The flexible column is never cut below this; narrower than that, the table scrolls."""

    def __init__(self, *, id: str, flexible: str | None = None) -> None:
        """``flexible``: the key of the column that takes what the others leave of the width
        (cut with an ellipsis), so that the other columns (the id, the verdicts) stay in view."""
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.flexible = flexible

    def fit(self) -> None:
        """Size the flexible column to the table's width; call after filling the table."""
        key = self.flexible
        if key is None or key not in self.columns or not self.size.width:
            return
        column = self.columns[ColumnKey(key)]
        others = sum(c.get_render_width(self) for k, c in self.columns.items() if k != key)
        room = self.size.width - self.styles.scrollbar_size_vertical - others - 2 * self.cell_padding
        width = max(self.FLEXIBLE_AT_LEAST, room)
        fitted = (True, column.width) if column.content_width <= width else (False, width)
        if (column.auto_width, column.width) == fitted:
            return
        column.auto_width, column.width = fitted
        self._clear_caches()
        self._require_update_dimensions = True
        self.refresh()

    def on_resize(self) -> None:
        self.fit()


def cut(text: str | Text, style: str = "") -> Text:
    """A cell of a flexible column: one line, an ellipsis where it is cut."""
    cell = text.copy() if isinstance(text, Text) else Text(text, style=style)
    cell.no_wrap, cell.overflow = True, "ellipsis"
    return cell
