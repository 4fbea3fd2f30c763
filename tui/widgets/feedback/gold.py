""" "This should be …": the author's verdict on a judged answer, kept as a test answer of the task
and retested at once (core.client.gold); on a free-text task optionally also as a graded answer,
which the judge blends into its judgement of answers close to it (the checkbox's words and tooltip
are core.client.gold's, as in the web app).
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Label, Select

from core.api import Correctness, Feedback
from core.client.gold import LEARN_HINT, LEARN_LABEL, gold_outcome, learns_from_graded, mark_gold
from core.client.vocabulary import VERDICTS
from tui.i18n import _
from tui.labels import verdict_word
from tui.service_calls import service_call, studio


class GoldBar(Vertical):
    DEFAULT_CLASSES = "gold-bar"

    def __init__(self, feedback: Feedback) -> None:
        super().__init__()
        self.feedback = feedback

    def compose(self) -> ComposeResult:
        yield Label(_("As the author, this answer should be:"), classes="rating-question")
        with Horizontal(classes="rating-row"):
            yield Select(
                [(verdict_word(v), v) for v in VERDICTS],
                value=self.feedback.result.verdict,
                allow_blank=False,
                id="gold-verdict",
                compact=True,
            )
            yield Button(_("Keep as test answer"), id="gold-keep", compact=True)
        if learns_from_graded(self.feedback.taskType):  # no other judge uses graded answers
            yield Checkbox(_(LEARN_LABEL), id="gold-learn", compact=True, tooltip=_(LEARN_HINT))
        yield Label("", id="gold-status")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "gold-keep":
            event.stop()
            learn = any(box.value for box in self.query("#gold-learn").results(Checkbox))  # free text only
            self.keep(self.query_one("#gold-verdict", Select).value, learn)

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
            status = self.query_one("#gold-status", Label)
            status.update(gold_outcome(line, _, learnt=learn))
            status.call_after_refresh(status.scroll_visible, animate=False)  # below the fold otherwise
