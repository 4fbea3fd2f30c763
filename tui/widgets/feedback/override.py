"""The teacher's verdict on a stored interaction (core.client.overrides): the engine's verdict and
the teacher's side by side, with who set it and when; set, changed or removed here, and optionally
kept as a test answer that expects it.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, Select

from core.api import Correctness, InteractionRecord
from core.client.gold import gold_outcome
from core.client.overrides import override_verdict
from core.client.vocabulary import VERDICTS
from tui.i18n import _, date_time
from tui.labels import verdict_text, verdict_word
from tui.service_calls import service_call, studio


def override_text(record: InteractionRecord) -> Text:
    """“Engine: WRONG · Teacher: CORRECT, by Ada on …, “note””, or the engine's alone."""
    text = Text.assemble(_("Engine: "), verdict_text(record.verdict))
    if (teacher := record.override) is None:
        return text.append(_(" · no teacher's verdict"), style="dim")
    text.append(" · ")
    text.append_text(Text.assemble(_("Teacher: "), verdict_text(teacher.verdict)))
    by = _(", by {name} on {time}").format(name=teacher.author or "—", time=date_time(teacher.updatedAt))
    text.append(by, style="dim")
    if teacher.note:
        text.append(f" · “{teacher.note}”", style="italic")
    return text


class OverrideBar(Vertical):
    DEFAULT_CSS = """
    OverrideBar { height: auto; padding-bottom: 1; border-bottom: solid $panel-lighten-2; }
    OverrideBar #override-note { width: 1fr; }
    """

    def __init__(self, record: InteractionRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        yield Label(_("The teacher's verdict"), classes="rating-question")
        yield Label(override_text(self.record), id="override-status")
        with Horizontal(classes="rating-row"):
            current = self.record.override.verdict if self.record.override else self.record.verdict
            yield Select(
                [(verdict_word(v), v) for v in VERDICTS],
                value=current if current in VERDICTS else Correctness.CORRECT,
                allow_blank=False,
                id="override-verdict",
                compact=True,
            )
            yield Input(
                self.record.override.note or "" if self.record.override else "",
                placeholder=_("why (optional)"),
                id="override-note",
                compact=True,
            )
        with Horizontal(classes="rating-row"):
            yield Button(_("Set the teacher's verdict"), id="override-set", compact=True)
            yield Button(_("Remove"), id="override-remove", compact=True, variant="warning")
        yield Checkbox(
            _("and keep the answer as a test answer expecting it"), id="override-keep", compact=True
        )
        yield Label("", id="override-gold")

    def on_mount(self) -> None:
        self._show(self.record)

    def _show(self, record: InteractionRecord) -> None:
        self.record = record
        self.query_one("#override-status", Label).update(override_text(record))
        self.query_one("#override-remove").display = record.override is not None

    @on(Button.Pressed, "#override-set")
    def _set_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.set_verdict(
            self.query_one("#override-verdict", Select).value,
            self.query_one("#override-note", Input).value,
            self.query_one("#override-keep", Checkbox).value,
        )

    @on(Button.Pressed, "#override-remove")
    def _remove_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.remove_override()

    @work(exclusive=True, group="override")
    async def set_verdict(self, verdict: Correctness, note: str, keep: bool) -> None:
        async with service_call(
            self, _("Setting the teacher's verdict"), busy=self.query_one("#override-set")
        ):
            app = studio(self)
            record, gold = await override_verdict(
                await app.ready(), app.tenant_id, self.record, verdict, note, keep_as_test=keep
            )
            self._show(record)
            self.query_one("#override-gold", Label).update(gold_outcome(gold, _) if gold else "")

    @work(exclusive=True, group="override")
    async def remove_override(self) -> None:
        async with service_call(
            self, _("Removing the teacher's verdict"), busy=self.query_one("#override-remove")
        ):
            record = await (await studio(self).ready()).remove_verdict_override(self.record.interactionId)
            self._show(record)
