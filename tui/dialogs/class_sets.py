"""Dialogs of class sets (docs/tui.md): the file of a class's answers to import and the set's name;
a path to export a set to; and the progress of judging, with Cancel.

The file dialog reads the file itself (core.client.class_sets.read_answers) and keeps what is wrong
with it in view, so the user can pick another without starting again; it dismisses only with
answers that can be imported. The progress dialog runs one job (an import, or judging what a
changed task left unjudged) in a worker; Cancel or escape stops it, and the job decides what is
kept (an import keeps nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, ProgressBar, Static
from textual.worker import Worker, WorkerState

from core.api.class_sets import ClassSet
from core.client.class_sets import ImportProblem, ReadAnswers, read_answers
from tui import i18n
from tui.i18n import _, number
from tui.service_calls import service_call

Job = Callable[[Callable[[ClassSet], None]], Awaitable[ClassSet]]
"""An import or a judging: told how to report progress, it gives the set once every answer is judged."""


class ClassSetFileScreen(ModalScreen[tuple[str, ReadAnswers] | None]):
    """Dismisses with (the set's name, the answers read) or None."""

    BINDINGS: ClassVar = [Binding("escape", "dismiss(None)", _("Cancel"))]

    class Read(Message):
        def __init__(self, name: str, answers: ReadAnswers) -> None:
            super().__init__()
            self.name, self.answers = name, answers

    class Refused(Message):
        def __init__(self, problem: str) -> None:
            super().__init__()
            self.problem = problem

    def __init__(self, default_path: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.default_path = default_path
        self._named = ""
        """The name last filled in from the file's name: replaced as the path changes, unless edited."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog", id="class-set-file"):
            yield Static(
                _(
                    "Import a class's answers to this task: a CSV file with a header row naming the "
                    "answer column, JSON Lines, or one answer per line (UTF-8, up to 5,000 answers)."
                ),
                classes="dialog-question",
            )
            yield Label(_("File"), classes="field-label")
            yield Input(self.default_path, id="class-set-path")
            yield Label(_("Name of the set"), classes="field-label")
            yield Input(id="class-set-name", placeholder=_("the file's name"))
            yield Static("", id="class-set-problem", classes="field-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(_("Import"), id="go", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#class-set-path", Input).focus()

    @on(Input.Changed, "#class-set-path")
    def _name_from_path(self, event: Input.Changed) -> None:
        name = self.query_one("#class-set-name", Input)
        if name.value.strip() in ("", self._named):
            self._named = Path(event.value.strip()).stem if event.value.strip() else ""
            name.value = self._named

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        path = self.query_one("#class-set-path", Input).value.strip()
        if path:
            name = self.query_one("#class-set-name", Input).value.strip() or Path(path).stem
            self.read(Path(path).expanduser(), name)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @work(exclusive=True, group="class-set-file")
    async def read(self, path: Path, name: str) -> None:
        problem = self.query_one("#class-set-problem", Static)
        problem.display = False
        try:
            data = await asyncio.to_thread(path.read_bytes)
            answers = await asyncio.to_thread(read_answers, path.name, data, i18n.LANGUAGE)
        except ImportProblem as exc:
            self.post_message(self.Refused(str(exc)))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.post_message(
                self.Refused(_("Could not read {path}: {reason}").format(path=path, reason=reason))
            )
        else:
            self.post_message(self.Read(name, answers))

    def on_class_set_file_screen_refused(self, message: Refused) -> None:
        problem = self.query_one("#class-set-problem", Static)
        problem.update(message.problem)
        problem.display = True

    def on_class_set_file_screen_read(self, message: Read) -> None:
        self.dismiss((message.name, message.answers))


class ClassSetPathScreen(ModalScreen[Path | None]):
    """Where to write a set as CSV; dismisses with the path or None."""

    BINDINGS: ClassVar = [Binding("escape", "dismiss(None)", _("Cancel"))]

    def __init__(self, name: str, default_path: str) -> None:
        super().__init__(classes="dialog-screen")
        self.set_name, self.default_path = name, default_path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                _(
                    "Export “{name}” as CSV: a row per answer with its verdict, points, feedback and "
                    "who graded it."
                ).format(name=self.set_name),
                classes="dialog-question",
                markup=False,
            )
            yield Label(_("File"), classes="field-label")
            yield Input(self.default_path, id="class-set-export-path")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel"), id="cancel")
                yield Button(_("Export"), id="go", variant="primary")

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        if path := self.query_one("#class-set-export-path", Input).value.strip():
            self.dismiss(Path(path).expanduser())

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)


class ClassSetProgressScreen(ModalScreen[ClassSet | None]):
    """Runs ``job`` with a progress bar; dismisses with the set once every answer is judged, None
    when it failed (notified) or was stopped (``stopped`` then says what was kept)."""

    BINDINGS: ClassVar = [Binding("escape", "stop", _("Cancel"))]

    class Progressed(Message):
        def __init__(self, current: ClassSet) -> None:
            super().__init__()
            self.current = current

    def __init__(self, title: str, summary: str, job: Job, *, stopped: str, doing: str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text, self.summary, self.job = title, summary, job
        self.stopped, self.doing = stopped, doing
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="class-set-progress"):
            yield Static(self.title_text, classes="dialog-question", markup=False)
            if self.summary:
                yield Static(self.summary, classes="hint", markup=False)
            yield ProgressBar(id="class-set-progress-bar", show_eta=False)
            yield Static(_("Starting…"), id="class-set-progress-count")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Cancel  esc"), id="cancel", variant="error")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()
        self._worker = self.run_job()

    @work(exclusive=True, group="class-set-progress")
    async def run_job(self) -> None:
        done: ClassSet | None = None
        async with service_call(self, self.doing):
            done = await self.job(self._progressed)
        if done is None:  # failed, and notified why: what was kept is said too
            self.notify(self.stopped, title=_("Stopped"), severity="warning", markup=False)
        self.dismiss(done)

    def _progressed(self, current: ClassSet) -> None:
        self.post_message(self.Progressed(current))

    def on_class_set_progress_screen_progressed(self, message: Progressed) -> None:
        current = message.current
        self.query_one(ProgressBar).update(total=max(current.answerCount, 1), progress=current.judgedCount)
        self.query_one("#class-set-progress-count", Static).update(
            _("{judged} of {count} answers judged").format(
                judged=number(current.judgedCount, 0), count=number(current.answerCount, 0)
            )
        )

    @on(Button.Pressed, "#cancel")
    def action_stop(self) -> None:
        """Stop the job; the dialog closes once it has undone what it undoes (an import its set)."""
        if self._worker is None or self._worker.is_finished:
            return
        self.query_one("#class-set-progress-count", Static).update(_("Stopping…"))
        self.query_one("#cancel", Button).disabled = True
        self._worker.cancel()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker and event.state is WorkerState.CANCELLED and self.is_attached:
            self.notify(self.stopped, title=_("Stopped"), severity="warning", markup=False)
            self.dismiss(None)
