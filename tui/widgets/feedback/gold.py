""" "This should be …": the author's verdict on a judged answer, kept as a test answer of the task
and retested at once (core.client.gold), optionally also as a graded answer the engine learns from.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Label, Select

from core.api import Correctness, Feedback
from core.client.gold import gold_outcome, mark_gold
from tui.calls import service_call, studio
from tui.i18n import _

VERDICTS = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)


class GoldBar(Vertical):
    DEFAULT_CLASSES = "gold-bar"

    def __init__(self, feedback: Feedback) -> None:
        super().__init__()
        self.feedback = feedback

    def compose(self) -> ComposeResult:
        yield Label(_("As the author, this answer should be:"), classes="rating-question")
        with Horizontal(classes="rating-row"):
            yield Select(
                [(v.value, v) for v in VERDICTS],
                value=self.feedback.result.verdict,
                allow_blank=False,
                id="gold-verdict",
                compact=True,
            )
            yield Button(_("Keep as test answer"), id="gold-keep", compact=True)
        yield Checkbox(_("and the engine learns from it (a graded answer)"), id="gold-learn", compact=True)
        yield Label("", id="gold-status")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "gold-keep":
            event.stop()
            self.keep(
                self.query_one("#gold-verdict", Select).value, self.query_one("#gold-learn", Checkbox).value
            )

    @work(exclusive=True, group="gold")
    async def keep(self, verdict: Correctness, learn: bool) -> None:
        async with service_call(self, _("Keeping the gold answer"), busy=self.query_one("#gold-keep")):
            app = studio(self)
            line = await mark_gold(
                await app.ready(),
                app.tenant_id,
                self.feedback.taskId,
                self.feedback.result.answer.model_dump(mode="json", exclude_none=True),
                verdict,
                learn=learn,
            )
            self.query_one("#gold-status", Label).update(gold_outcome(line, _))
