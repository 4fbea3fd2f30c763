"""Answer a task and read its feedback: the Try tab of the task page and the learner's page.

One click records one interaction: a click while the first is on its way is ignored.
"""

from __future__ import annotations

from nicegui import ui

from core.api import ComputeTaskFeedbackRequest, TaskBase
from webui.components.answer_forms import AnswerReader, answer_form
from webui.components.busy import Sender
from webui.components.feedback_view import feedback_view
from webui.i18n import _
from webui.page_services import PageServices, reporting


class TryAnswer:
    def __init__(
        self, studio: PageServices, tenant: str, task: TaskBase, user_id: str, *, for_learner: bool
    ) -> None:
        self.studio, self.tenant, self.task = studio, tenant, task
        self.user_id, self.for_learner = user_id, for_learner
        with ui.card().classes("w-full gap-3").props("flat bordered") as card:
            read_answer = answer_form(task)
            button = ui.button(_("Get feedback"), icon="rate_review")
            button.props("unelevated").classes("self-end").tooltip(_("Ctrl+Enter in the answer"))
            # One answer, one interaction: a second click (or key) while the first is on its way,
            # or the second click of a double click, would record the answer twice.
            sender = Sender(button, lambda: self._compute(read_answer))
        # Enter makes a new line in a free-text answer; Ctrl+Enter (Cmd+Enter) sends it, as in chats.
        sender.keys(card.mark("answer-card"), "keydown.ctrl.enter", "keydown.meta.enter")
        self.results = ui.column().classes("w-full gap-3")

    async def _compute(self, read_answer: AnswerReader) -> None:
        try:
            # The form's raw answer is validated here, against the task type's answer shape.
            request = ComputeTaskFeedbackRequest.model_validate(
                {
                    "userId": self.user_id,
                    "tenantId": self.tenant,
                    "taskType": self.task.task_type,
                    "answer": read_answer(),
                }
            )
        except ValueError as exc:
            ui.notify(
                _("The answer is incomplete: {reason}").format(reason=exc), type="warning", multi_line=True
            )
            return
        with reporting(_("Feedback")):
            feedback = await (await self.studio.service()).compute_feedback_for_task(self.task.id, request)
            self.results.clear()
            with self.results:
                feedback_view(self.studio, self.task, feedback, for_learner=self.for_learner)
