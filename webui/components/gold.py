""" "This should be …": the author's verdict on a judged answer, kept as a test answer of the task
(core.client.gold) and retested at once, so the author sees whether the engine agrees; optionally
also a graded answer, which the freeform engine learns from.
"""

from __future__ import annotations

from nicegui import ui

from core.api import Correctness, Feedback
from core.client.gold import gold_outcome, mark_gold
from webui.context import Studio, reporting
from webui.i18n import _

VERDICTS = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG)


def gold_bar(studio: Studio, feedback: Feedback) -> None:
    async def keep() -> None:
        keep_button.props("loading")
        try:
            with reporting(_("Keeping the gold answer")):
                service = await studio.service()
                line = await mark_gold(
                    service,
                    await studio.tenant(service),
                    feedback.taskId,
                    feedback.result.answer.model_dump(mode="json", exclude_none=True),
                    Correctness(verdict.value),
                    learn=bool(learn.value),
                )
                ui.notify(
                    gold_outcome(line, _), type="positive" if line.passed else "warning", multi_line=True
                )
        finally:
            keep_button.props(remove="loading")

    with ui.row().classes("w-full items-center gap-2"):
        ui.label(_("This should be")).classes("text-sm opacity-70")
        verdict = ui.toggle([v.value for v in VERDICTS], value=feedback.result.points.verdict.value).props(
            "dense no-caps"
        )
        learn = (
            ui.checkbox(_("and the engine learns from it"))
            .props("dense")
            .tooltip(
                _("Also store it as a graded answer: free-text answers like it are then judged the same way")
            )
        )
        keep_button = ui.button(_("Keep as test answer"), icon="verified", on_click=keep).props("flat dense")
