"""Ask where task files are (import) or should go (export, in JSON or YAML)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from core.workspace.documents import Format
from tui.i18n import _


class FilesScreen(ModalScreen[tuple[Path, Format] | None]):
    """Dismisses with (path, format) or None; the format is only asked for an export (an import
    reads each file's format from its name)."""

    BINDINGS: ClassVar = [Binding("escape", "dismiss(None)", _("Cancel"))]

    def __init__(self, *, export: bool, default_path: str) -> None:
        super().__init__(classes="dialog-screen")
        self.export, self.default_path = export, default_path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            if self.export:
                question = _("Export every task of the tenant (and its test answers) into a folder.")
            else:
                question = _("Import task files (JSON or YAML, one task a file): a file or a folder of them.")
            yield Static(question, classes="dialog-question")
            yield Label(_("Folder") if self.export else _("File or folder"), classes="field-label")
            yield Input(self.default_path, id="files-path")
            if self.export:
                yield Select(
                    [("JSON", "json"), ("YAML", "yaml")], value="json", allow_blank=False, id="files-format"
                )
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(_("Export") if self.export else _("Import"), id="go", variant="primary")

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        path = self.query_one("#files-path", Input).value.strip()
        if not path:
            return
        chosen = self.query_one("#files-format", Select).value if self.export else None
        fmt: Format = "yaml" if chosen == "yaml" else "json"
        self.dismiss((Path(path).expanduser(), fmt))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)
