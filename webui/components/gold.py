""" "This should be …": the author's verdict on a judged answer, kept as a test answer of the task
(core.client.gold) and retested at once, so the author sees whether the engine agrees; on a
free-text task optionally also a graded answer, which the judge blends into its judgement of
answers close to it (the checkbox's words and tooltip are core.client.gold's).
"""

from __future__ import annotations

from nicegui import ui

from core.api import Correctness, Feedback
from core.client.gold import LEARN_HINT, LEARN_LABEL, gold_outcome, learns_from_graded, mark_gold
from core.client.vocabulary import VERDICTS
from webui.i18n import _
from webui.page_services import PageServices, reporting
from webui.theme import verdict_word


def gold_bar(studio: PageServices, feedback: Feedback) -> None:
    async def keep() -> None:
        keep_button.props("loading")
        learnt = learn is not None and bool(learn.value)
        try:
            with reporting(_("Keeping the gold answer")):
                service = await studio.service()
                line = await mark_gold(
                    service,
                    await studio.tenant(service),
                    feedback.taskId,
                    feedback.result.answer.model_dump(mode="json", exclude_none=True),
                    Correctness(verdict.value),
                    learn=learnt,
                )
                ui.notify(
                    gold_outcome(line, _, learnt=learnt),
                    type="positive" if line.passed else "warning",
                    multi_line=True,
                )
        finally:
            keep_button.props(remove="loading")

    with ui.row().classes("w-full items-center gap-2"):
        ui.label(_("This should be")).classes("text-sm opacity-70")
        verdict = ui.toggle(
            {v.value: verdict_word(v) for v in VERDICTS}, value=feedback.result.points.verdict.value
        ).props("dense no-caps")
        learn: ui.checkbox | None = None
        if learns_from_graded(feedback.taskType):  # no other judge uses graded answers
            learn = ui.checkbox(_(LEARN_LABEL)).props("dense").mark("gold-learn")
            learn.tooltip(_(LEARN_HINT))
        keep_button = ui.button(_("Keep as test answer"), icon="verified", on_click=keep).props("flat dense")
