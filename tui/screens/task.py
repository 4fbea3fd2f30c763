"""One task: try answers and read the feedback, browse the history of its interactions, retest
its answers against the current definition (issue 9), edit its test answers, or compare and
restore its versions, and (a free-text task) import a class's answers as class sets.

Tabs are listed in ``TaskScreen.compose_tabs``; all but Try need the authoring extensions.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Header, Static, TabbedContent, TabPane

from core.api import (
    ChatTurn,
    ComputeTaskFeedbackRequest,
    Feedback,
    InteractionRecord,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    RetestReport,
    SimulationAnswer,
    SimulationTask,
    TaskBase,
    TaskRetest,
    TaskType,
)
from core.client.retest import reassign
from core.client.vocabulary import AUTHOR_ID
from tui.dialogs.confirm import ConfirmScreen
from tui.i18n import _, plural
from tui.labels import type_label
from tui.navigation import OpenChat
from tui.service_calls import service_call, studio
from tui.widgets.answer import answer_form
from tui.widgets.answer.forms import AnswerForm, IncompleteAnswer
from tui.widgets.class_sets import ClassSetsPanel
from tui.widgets.empty import EmptyState
from tui.widgets.feedback.view import FeedbackView
from tui.widgets.footer import KeysFooter
from tui.widgets.history import HistoryPanel
from tui.widgets.retest import RetestPanel
from tui.widgets.simulation import SimulationPanel
from tui.widgets.task_test_answers import TaskTestAnswersPanel
from tui.widgets.versions import VersionsPanel

TAB_KEYS = {
    "try": "f5",
    "history-tab": "f6",
    "retest-tab": "f7",
    "test-answers-tab": "f8",
    "versions-tab": "f9",
    "class-sets-tab": "f10",
}
"""A key for each tab, named on the tab: from any field, without a walk of shift+tab."""


class TaskScreen(Screen[None]):
    BINDINGS: ClassVar = [
        Binding("ctrl+g", "feedback", _("Get feedback")),
        Binding("ctrl+o", "edit", _("Edit task")),
        Binding("ctrl+t", "chat", _("Chat about it")),
        Binding("escape", "app.pop_screen", _("Library")),
        Binding("f5", "tab('try')", _("Try"), show=False, priority=True),
        Binding("f6", "tab('history-tab')", _("History"), show=False, priority=True),
        Binding("f7", "tab('retest-tab')", _("Retest"), show=False, priority=True),
        Binding("f8", "tab('test-answers-tab')", _("Test answers"), show=False, priority=True),
        Binding("f9", "tab('versions-tab')", _("Versions"), show=False, priority=True),
        Binding("f10", "tab('class-sets-tab')", _("Class sets"), show=False, priority=True),
    ]
    WAITS_FOR_FOCUS = True
    """Keys typed while the task loads wait for its answer field (FeedbackStudioApp.hold_keys)."""

    class Loaded(Message):
        def __init__(self, task: TaskBase) -> None:
            super().__init__()
            self.task = task

    class FeedbackReceived(Message):
        def __init__(self, feedback: Feedback, transcript: list[ChatTurn] | None = None) -> None:
            super().__init__()
            self.feedback, self.transcript = feedback, transcript

    class HistoryLoaded(Message):
        def __init__(self, records: list[InteractionRecord]) -> None:
            super().__init__()
            self.records = records

    class Retested(Message):
        def __init__(self, report: RetestReport, *, accepted: bool = False) -> None:
            super().__init__()
            self.report = report
            self.accepted = accepted
            """The new feedback of this report's answers was just accepted."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id = task_id
        self.definition: TaskBase | None = None
        self.version: int | None = None
        """The stored version shown: the editor saves on top of it."""
        self.taken: frozenset[str] = frozenset()
        """The library's ids when the task was read: the editor warns a rename off them."""
        self.reopen_tab: str | None = None
        """The tab to show again once the task is read anew (after a restore in Versions)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(self.task_id, id="task-heading")
        yield Vertical(id="task-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.load()

    @work(exclusive=True, group="task")
    async def load(self) -> None:
        async with service_call(self, _("Opening the task"), busy=self.query_one("#task-body")):
            library = await studio(self).library()
            opened = await library.open(self.task_id)
            self.version, self.taken = opened.version, library.taken
            self.post_message(self.Loaded(opened.task))
            return
        studio(self).release_keys()  # nothing to type into: escape and the app's keys still work

    async def on_task_screen_loaded(self, message: Loaded) -> None:
        task = self.definition = message.task
        heading = Text.assemble(
            (task.display_title, "bold"),
            "  ",
            (f"{type_label(task.type)} · {task.language.value} · {task.id}", "dim"),
        )
        self.query_one("#task-heading", Static).update(heading)
        body = self.query_one("#task-body")
        await body.remove_children()
        # all panes at once: added one by one, the tabs' underline could be placed before the
        # tabs had their widths (drawn collapsed, depending on timing)
        tabs = TabbedContent(id="task-tabs")
        for pane in self.compose_tabs(task):
            tabs.compose_add_child(pane)  # as ``with TabbedContent(): yield pane`` would
        await body.mount(tabs)
        if self.reopen_tab:
            tabs.active, self.reopen_tab = self.reopen_tab, None
        else:
            self._focus_the_answer()
        studio(self).release_keys()  # what was typed meanwhile goes to the answer

    def _focus_the_answer(self) -> None:
        """An author opens a task to try an answer: the cursor waits in the first input of it."""
        for form in self.query(AnswerForm):
            inputs = [w for w in form.query("*") if w.focusable]
            if inputs:
                self.set_focus(inputs[0])
                return

    def action_tab(self, tab: str) -> None:
        """Show ``tab`` and put the focus in it (its table, or the answer in Try)."""
        tabs = self.query("#task-tabs").results(TabbedContent)
        tabbed = next(tabs, None)
        if tabbed is None or not self.query(f"#{tab}"):
            return
        tabbed.active = tab
        if tab == "try":
            self._focus_the_answer()
            return
        studio(self).hold_keys()  # what is typed next belongs to the tab, not the answer left behind
        self.call_after_refresh(self._focus_first, tabbed.get_pane(tab))

    def _focus_first(self, pane: Widget) -> None:
        """The pane's table if it shows one, else its first field."""
        focusable = [w for w in pane.query("*") if w.focusable]
        tables = [w for w in focusable if isinstance(w, DataTable)]
        self.set_focus((tables or focusable or [None])[0])
        studio(self).release_keys()

    def compose_tabs(self, task: TaskBase) -> list[TabPane]:
        tabs = [_tab(_("Try"), self._try_pane(task), "try")]
        if studio(self).extensions:
            tabs.append(_tab(_("History"), HistoryPanel(self.task_id, id="history"), "history-tab"))
            tabs.append(_tab(_("Retest"), RetestPanel(id="retest"), "retest-tab"))
            tabs.append(
                _tab(
                    _("Test answers"),
                    TaskTestAnswersPanel(self.task_id, id="test-answers"),
                    "test-answers-tab",
                )
            )
            tabs.append(_tab(_("Versions"), VersionsPanel(self.task_id, id="versions"), "versions-tab"))
            if task.task_type is TaskType.FREEFORM_TEXT:
                panel = ClassSetsPanel(self.task_id, id="class-sets")
                tabs.append(_tab(_("Class sets"), panel, "class-sets-tab"))
        return tabs

    def _try_pane(self, task: TaskBase) -> Horizontal:
        if isinstance(task, SimulationTask):
            left = VerticalScroll(SimulationPanel(task), id="try-left")
        else:
            statement = (
                []
                if isinstance(task, InTextFillInBlanksTask | InTextChoicesTask)
                else [Static(task.problemStatement, id="problem-statement", markup=False)]
            )
            left = VerticalScroll(
                *statement,
                answer_form(task),
                Button(_("Get feedback  ctrl+g"), id="get-feedback", variant="primary"),
                id="try-left",
            )
        hint = _("Answer as a learner would, then press ctrl+g: the feedback appears here.")
        if isinstance(task, SimulationTask):
            hint = _("Role-play the session on the left, then press “Finish and get feedback”.")
        return Horizontal(left, VerticalScroll(EmptyState(hint), id="feedback-area"), id="try-columns")

    # --- trying answers -----------------------------------------------------------------------

    @on(Button.Pressed, "#get-feedback")
    def action_feedback(self) -> None:
        """Send the answer; in a simulation, finish the session (the conversation is the answer)."""
        if simulations := self.query(SimulationPanel):
            simulations.first().finish()
            return
        forms = self.query(AnswerForm)
        if self.definition is None or not forms:
            return
        try:
            answer = forms.first().answer()
        except IncompleteAnswer as exc:
            self.notify(str(exc), title=_("Not sent"), severity="warning")
            return
        self.compute(
            ComputeTaskFeedbackRequest(userId=AUTHOR_ID, taskType=self.definition.task_type, answer=answer)
        )

    @on(SimulationPanel.FeedbackWanted)
    def _simulation_done(self, message: SimulationPanel.FeedbackWanted) -> None:
        assert self.definition is not None
        answer = SimulationAnswer(conversationId=message.conversation_id)
        request = ComputeTaskFeedbackRequest(
            userId=AUTHOR_ID, taskType=self.definition.task_type, answer=answer
        )
        self.compute(request, self.query_one(SimulationPanel).transcript)

    @work(exclusive=True, group="feedback")
    async def compute(
        self, request: ComputeTaskFeedbackRequest, transcript: list[ChatTurn] | None = None
    ) -> None:
        async with service_call(self, _("Feedback"), busy=self.query_one("#feedback-area")):
            library = await studio(self).library()
            feedback = await library.service.compute_feedback_for_task(self.task_id, request)
            library.changed()  # a new verdict for the library's trail
            self.post_message(self.FeedbackReceived(feedback, transcript))

    async def on_task_screen_feedback_received(self, message: FeedbackReceived) -> None:
        area = self.query_one("#feedback-area")
        await area.remove_children()
        await area.mount(FeedbackView(message.feedback, self.definition, transcript=message.transcript))
        area.scroll_home(animate=False)

    # --- history ------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated, pane="#history-tab")
    @work(exclusive=True, group="history")
    async def load_history(self) -> None:
        async with service_call(self, _("Loading the history"), busy=self.query_one(HistoryPanel)):
            service = await studio(self).ready()
            self.post_message(
                self.HistoryLoaded(await service.list_interactions(studio(self).tenant_id, self.task_id))
            )

    def on_task_screen_history_loaded(self, message: HistoryLoaded) -> None:
        self.query_one(HistoryPanel).show(message.records)

    @on(HistoryPanel.Opened)
    def _open_interaction(self, message: HistoryPanel.Opened) -> None:
        from tui.screens.interaction import InteractionScreen

        def closed(_result: None) -> None:
            self.load_history()

        self.app.push_screen(InteractionScreen(message.record, self.definition), closed)

    # --- retest --------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated, pane="#retest-tab")
    @work(exclusive=True, group="retest")
    async def retest(self) -> None:
        """Recompute every answer on opening the tab: the task may have been edited meanwhile."""
        async with service_call(self, _("Retest"), busy=self.query_one(RetestPanel)):
            service = await studio(self).ready()
            self.post_message(self.Retested(await service.retest(studio(self).tenant_id, [self.task_id])))

    def on_task_screen_retested(self, message: Retested) -> None:
        self.query_one(RetestPanel).show(message.report.tasks[0], self.definition, accepted=message.accepted)

    @on(RetestPanel.AcceptWanted)
    def _confirm_accept(self, message: RetestPanel.AcceptWanted) -> None:
        count = sum(a.changed and a.passed for a in message.report.answers)
        question = plural(
            "Accept the new feedback of {count} changed answer as a graded answer of this task?",
            "Accept the new feedback of {count} changed answers as graded answers of this task?",
            count,
        ).format(count=count)
        panel = self.query_one(RetestPanel)

        def answered(yes: bool | None) -> None:
            if yes:
                self.accept(message.report)
            else:
                panel.show(message.report, self.definition)

        self.app.push_screen(ConfirmScreen(question, _("Accept")), answered)

    @work(exclusive=True, group="retest")
    async def accept(self, report: TaskRetest) -> None:
        async with service_call(self, _("Accepting the new feedback"), busy=self.query_one(RetestPanel)):
            service, tenant = await studio(self).ready(), studio(self).tenant_id
            response = await reassign(service, tenant, report)
            added = response.added if response else 0
            self.notify(
                plural("{count} graded answer added", "{count} graded answers added", added).format(
                    count=added
                ),
                title=_("New feedback accepted"),
            )
            retested = await service.retest(tenant, [self.task_id])
            self.post_message(self.Retested(retested, accepted=True))

    @on(TabbedContent.TabActivated, pane="#test-answers-tab")
    def _test_answers_opened(self) -> None:
        """Read on every opening: a gold answer may have been kept meanwhile."""
        self.query_one(TaskTestAnswersPanel).load()

    # --- versions ------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated, pane="#versions-tab")
    def _versions_opened(self) -> None:
        """Read on every opening: a save in the Edit screen is a new version."""
        self.query_one(VersionsPanel).load()

    @on(VersionsPanel.Restored)
    async def _restored(self) -> None:
        (await studio(self).library()).changed()
        self.reopen_tab = "versions-tab"
        self.load()

    # --- class sets ---------------------------------------------------------------------------

    @on(TabbedContent.TabActivated, pane="#class-sets-tab")
    def _class_sets_opened(self) -> None:
        self.query_one(ClassSetsPanel).load()

    @on(ClassSetsPanel.Opened)
    def _open_class_set(self, message: ClassSetsPanel.Opened) -> None:
        from tui.screens.class_set import TASK_GONE, ClassSetScreen

        def closed(result: str | None) -> None:
            if result == TASK_GONE:  # the task is gone too: back to the library
                self.app.pop_screen()
            else:
                self.query_one(ClassSetsPanel).load(select=message.class_set.classSetId)

        title = self.definition.display_title if self.definition else self.task_id
        self.app.push_screen(ClassSetScreen(message.class_set, title), closed)

    # --- elsewhere ----------------------------------------------------------------------------

    def action_edit(self) -> None:
        if self.definition is None:
            return
        from tui.screens.editor import EditorScreen

        def edited(saved: str | None) -> None:
            if saved:
                self.load()

        self.app.push_screen(EditorScreen(self.definition, version=self.version, taken=self.taken), edited)

    def action_chat(self) -> None:
        self.post_message(OpenChat(self.task_id, self.definition.display_title if self.definition else None))


def _tab(title: str, content: Widget, tab_id: str) -> TabPane:
    """A tab titled with its key (F5 …), so the key is read where it is needed."""
    return TabPane(
        Content.from_markup("$title [dim]$key[/]", title=title, key=TAB_KEYS[tab_id].upper()),
        content,
        id=tab_id,
    )
