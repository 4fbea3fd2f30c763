"""The teacher's verdict on a stored interaction, in the history's answer dialog: the engine's
verdict and the teacher's side by side with who set it and when; set, changed or removed, and
optionally kept as a test answer that expects it (core.client.overrides).
"""

from __future__ import annotations

from collections.abc import Callable

from nicegui import ui

from core.api import Correctness, InteractionRecord
from core.client.gold import gold_outcome
from core.client.overrides import override_verdict
from core.client.vocabulary import VERDICTS
from webui.i18n import _, date_time
from webui.page_services import PageServices, reporting
from webui.theme import verdict_chip, verdict_word


def override_summary(record: InteractionRecord) -> None:
    """Engine: X · Teacher: Y, by whom and when, and the teacher's note."""
    with ui.row().classes("w-full items-center gap-2").mark("override-summary"):
        ui.label(_("Engine")).classes("text-sm opacity-70")
        verdict_chip(record.verdict.value)
        teacher = record.override
        if teacher is None:
            ui.label(_("No teacher's verdict")).classes("text-sm opacity-70")
            return
        ui.label(_("Teacher")).classes("text-sm opacity-70")
        verdict_chip(teacher.verdict.value)
        ui.label(
            _("by {name} on {time}").format(name=teacher.author or "—", time=date_time(teacher.updatedAt))
        ).classes("text-sm opacity-70")
        if teacher.note:
            ui.label(f"“{teacher.note}”").classes("text-sm italic")


def override_section(
    studio: PageServices, record: InteractionRecord, on_change: Callable[[InteractionRecord], None]
) -> None:
    """The teacher's verdict of ``record``; ``on_change`` gets the interaction as it now reads."""
    current = {"record": record}

    @ui.refreshable
    def summary() -> None:
        override_summary(current["record"])

    def changed(updated: InteractionRecord) -> None:
        current["record"] = updated
        summary.refresh()
        remove.set_visibility(updated.override is not None)
        on_change(updated)

    async def set_verdict() -> None:
        with reporting(_("Setting the teacher's verdict")):
            service = await studio.service()
            updated, gold = await override_verdict(
                service,
                record.tenantId,
                current["record"],
                Correctness(verdict.value),
                note.value or "",
                keep_as_test=bool(keep.value),
            )
            changed(updated)
            if gold:
                ui.notify(
                    gold_outcome(gold, _), type="positive" if gold.passed else "warning", multi_line=True
                )

    async def remove_override() -> None:
        with reporting(_("Removing the teacher's verdict")):
            changed(await (await studio.service()).remove_verdict_override(record.interactionId))

    teacher = record.override
    start = teacher.verdict if teacher else record.verdict
    with ui.card().classes("w-full gap-2").props("flat bordered"):
        ui.label(_("The teacher's verdict")).classes("text-base font-semibold text-primary")
        summary()
        with ui.row().classes("w-full items-center gap-2"):
            verdict = (
                ui.toggle(
                    {v.value: verdict_word(v) for v in VERDICTS},
                    value=(start if start in VERDICTS else Correctness.CORRECT).value,
                )
                .props("dense no-caps")
                .mark("override-verdict")
            )
            note = ui.input(_("Why (optional)"), value=teacher.note or "" if teacher else "").props("dense")
            note.classes("grow").mark("override-note")
        with ui.row().classes("w-full items-center gap-2"):
            keep = ui.checkbox(_("and keep the answer as a test answer expecting it")).props("dense")
            keep.mark("override-keep")
            ui.space()
            remove = ui.button(_("Remove"), icon="undo", on_click=remove_override).props("flat dense no-caps")
            remove.mark("override-remove").set_visibility(teacher is not None)
            ui.button(_("Set the teacher's verdict"), icon="gavel", on_click=set_verdict).props(
                "unelevated dense no-caps"
            ).mark("override-set")
