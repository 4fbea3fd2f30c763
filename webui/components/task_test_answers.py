"""The Test answers tab of the task page: every answer the retest checks, with the verdict it must
get, each to edit (label, answer, verdict) or delete after asking.

An answer is edited as text where it is free text, else as the JSON the service takes
(core.client.task_test_answers); a refused save leaves the dialog open with what was typed.
"""

from __future__ import annotations

from nicegui import ui

from core.api import Correctness, TaskBase, TestAnswer
from core.client.history import answer_text
from core.client.task_test_answers import answer_from_text, edit_test_answer
from core.client.vocabulary import VERDICTS
from webui.components.answer_text import answer_excerpt
from webui.i18n import N_, _
from webui.page_services import PageServices, reporting
from webui.theme import dialog, empty_state, verdict_chip, verdict_word

TAB = N_("Test answers")
ANY = "ANY"
"""The select's value for "any verdict" (None is the select's own 'nothing chosen')."""


class TaskTestAnswersPanel:
    def __init__(self, studio: PageServices, tenant: str, task: TaskBase) -> None:
        self.studio = studio
        self.tenant = tenant
        self.task = task
        self.answers: list[TestAnswer] = []

    async def build(self) -> None:
        self.dialogs = ui.element("div")
        """The dialogs' parent: outside the list, which is rebuilt while a dialog is still open."""
        self.body = ui.column().classes("w-full gap-2")
        await self.load()

    async def load(self) -> None:
        with reporting(_("Loading the test answers")):
            service = await self.studio.service()
            self.answers = (await service.list_test_answers(self.tenant, self.task.id)).answers
            self._show()

    def _show(self) -> None:
        self.body.clear()
        with self.body:
            if not self.answers:
                empty_state(
                    "verified",
                    _("No test answers yet"),
                    _(
                        "Keep an answer as a test answer from Try or History: under its feedback, choose "
                        "what it should be and press “Keep as test answer”. Every retest then checks it."
                    ),
                )
                return
            with ui.list().props("bordered separator").classes("w-full rounded-borders"):
                for index, test in enumerate(self.answers):
                    self._row(index, test)

    def _row(self, index: int, test: TestAnswer) -> None:
        verdict = test.expected.verdict
        with ui.item().mark(f"test-answer-{index}"):
            with ui.item_section().props("side"):
                if verdict:
                    verdict_chip(verdict.value)
                else:
                    ui.chip(_("any verdict")).props("dense square outline")
            with ui.item_section():
                ui.item_label(test.label).classes("font-medium")
                ui.item_label(answer_excerpt(self.task, test.answer)).props("caption").classes("truncate")
            with ui.item_section().props("side"), ui.row().classes("gap-1 no-wrap"):
                ui.button(icon="edit", on_click=lambda t=test: self._edit(t)).props(
                    f'flat dense round aria-label="{_("Edit")}"'
                ).tooltip(_("Edit")).mark("test-answer-edit")
                ui.button(icon="delete", on_click=lambda t=test: self._confirm_delete(t)).props(
                    f'flat dense round color=negative aria-label="{_("Delete")}"'
                ).tooltip(_("Delete")).mark("test-answer-delete")

    def _edit(self, test: TestAnswer) -> None:
        async def save() -> None:
            with reporting(_("Saving the test answer")):
                saved = await edit_test_answer(
                    await self.studio.service(),
                    self.tenant,
                    self.task.id,
                    test.label,
                    new_label=label.value or "",
                    answer=answer_from_text(test.answer, text.value or ""),
                    verdict=None if verdict.value == ANY else Correctness(verdict.value),
                )
                self.answers = saved.answers
                self._show()
                ui.notify(
                    _("Test answer “{label}” saved.").format(label=label.value.strip()), type="positive"
                )
                box.close()  # last: closing deletes the dialog, the context of this handler

        with self.dialogs, dialog("w-full max-w-xl") as box:
            ui.label(_("Test answer")).classes("text-lg")
            label = ui.input(_("Label"), value=test.label).props("outlined dense").classes("w-full")
            label.mark("test-answer-label")
            text = ui.textarea(_("Answer"), value=answer_text(test.answer)).props("outlined autogrow")
            text.classes("w-full").mark("test-answer-text")
            choices = {ANY: _("Any verdict")} | {v.value: verdict_word(v) for v in VERDICTS}
            verdict = (
                ui.select(
                    choices,
                    value=test.expected.verdict.value if test.expected.verdict else ANY,
                    label=_("It must get"),
                )
                .props("outlined dense")
                .classes("w-48")
                .mark("test-answer-verdict")
            )
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                ui.button(_("Save"), icon="save", on_click=save).props("unelevated").mark("test-answer-save")

    def _confirm_delete(self, test: TestAnswer) -> None:
        async def delete() -> None:
            with reporting(_("Deleting the test answer")):
                service = await self.studio.service()
                self.answers = (
                    await service.delete_test_answer(self.tenant, self.task.id, test.label)
                ).answers
                self._show()
                ui.notify(_("Test answer “{label}” deleted.").format(label=test.label))
                box.close()

        with self.dialogs, dialog("max-w-lg") as box:
            ui.label(_("Delete the test answer “{label}”?").format(label=test.label)).classes("text-lg")
            ui.label(_("Retests no longer check it. The answers in the history stay.")).classes(
                "text-sm opacity-70"
            )
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                ui.button(_("Delete"), icon="delete", on_click=delete).props(
                    "unelevated color=negative"
                ).mark("test-answer-delete-confirm")
