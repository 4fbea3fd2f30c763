"""One class set: how its answers were judged, grouped (verdict, then alike answers together), in
the review order, or as imported; the selected answer's feedback; grading with one key a verdict.

A grade is one call (``grade_class_set_answer``); the counts it returns are shown at once, then the
page is read again, since a grade moves other verdicts too: the notification says how many of the
answers in view changed. Keys typed while a grade is on its way wait for it (the app holds them),
so that c c w grades three answers, each the one selected after the previous grade.

The answers come a page at a time (``PAGE``; ``]`` and ``[`` turn pages). A set whose task changed
since it was judged offers to judge the rest first, with progress. A set whose task was deleted
(the set goes with it) says so and the screen closes: ``TASK_GONE`` tells the task screen to close
too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Header, Static

from core.api import Correctness, NotFound
from core.api.class_sets import ClassSet, ClassSetAnswer, ClassSetGrade, ClassSetOrder, ClassSetPage
from core.client.class_sets import GRADED_BY, judge_rest
from core.client.i18n import N_
from tui.dialogs.class_sets import ClassSetProgressScreen
from tui.i18n import _, number, plural
from tui.labels import VERDICT_MARKS, VERDICT_STYLES, verdict_text, verdict_word
from tui.service_calls import in_flight, service_call, studio
from tui.widgets.class_sets import ask_export, set_name
from tui.widgets.empty import EmptyState
from tui.widgets.footer import KeysFooter
from tui.widgets.list_table import ListTable, cut

PAGE = 100
"""Answers read at a time: a grade reads the page again, and a page of 100 is read in under a second."""
ORDERS = (ClassSetOrder.GROUPED, ClassSetOrder.REVIEW, ClassSetOrder.POSITION)
ORDER_NAMES = {
    ClassSetOrder.GROUPED: N_("Grouped"),
    ClassSetOrder.REVIEW: N_("Review order"),
    ClassSetOrder.POSITION: N_("As imported"),
}
SHOWN_VERDICTS = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG, Correctness.UNKNOWN)
BAR_WIDTH = 30
TASK_GONE = "task-gone"


def verdict_bar(counts: dict[str, int], width: int = BAR_WIDTH) -> Text:
    """The share of each verdict as a bar of ``width`` cells in the verdict colours."""
    total = sum(counts.values())
    bar = Text()
    if not total:
        return bar
    cells = {v: round(counts.get(v, 0) * width / total) for v in SHOWN_VERDICTS}
    cells[max(cells, key=lambda v: counts.get(v, 0))] += width - sum(cells.values())
    for verdict in SHOWN_VERDICTS:
        bar.append("█" * max(cells[verdict], 0), style=VERDICT_STYLES[verdict].replace("bold ", ""))
    return bar


def counts_text(current: ClassSet, before: ClassSet | None = None) -> Text:
    """A chip per verdict with its count (and its change since ``before``)."""
    counts = current.verdicts.model_dump() if current.verdicts else {}
    old = before.verdicts.model_dump() if before and before.verdicts else None
    chips: list[Text] = []
    for verdict in SHOWN_VERDICTS:
        count = counts.get(verdict, 0)
        if verdict is Correctness.UNKNOWN and not count:
            continue
        chip = Text(f" {VERDICT_MARKS[verdict]} {verdict_word(verdict)} {number(count, 0)} ")
        chip.stylize(VERDICT_STYLES[verdict])
        if old is not None and (delta := count - old.get(verdict, 0)):
            chip.append(f"({delta:+d}) ".replace("-", "−"), style="bold")
        chips.append(chip)
    return Text("  ").join(chips)


def tally(current: ClassSet) -> str:
    """How many answers the set holds and how many the teacher graded."""
    answers = plural("{count} answer", "{count} answers", current.answerCount)
    graded = plural("{count} graded by you", "{count} graded by you", current.gradedCount)
    return (
        answers.format(count=number(current.answerCount, 0))
        + " · "
        + graded.format(count=number(current.gradedCount, 0))
    )


class AnswersTable(ListTable):
    """The answers of a page: on its first answer the table shows the page's top, the verdict's
    header row above the answer with it (scrolled to the cursor alone, a table laid out while still
    small would hide it)."""

    first_answer = 0

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        if self.cursor_row <= self.first_answer:
            self.scroll_home(animate=False, immediate=True)
        else:
            super()._scroll_cursor_into_view(animate)


class ClassSetScreen(Screen[str | None]):
    DEFAULT_CSS = """
    ClassSetScreen #class-set-heading { padding: 0 1; height: auto; }
    ClassSetScreen #class-set-counts { padding: 0 1; height: auto; }
    ClassSetScreen #class-set-bar { padding: 0 1; height: 1; }
    ClassSetScreen #class-set-judge { height: auto; padding: 0 1; margin-top: 1; display: none; }
    ClassSetScreen #class-set-judge Static { width: 1fr; }
    ClassSetScreen #class-set-order { padding: 0 1; height: auto; margin-top: 1; }
    ClassSetScreen #class-set-columns { height: 1fr; }
    ClassSetScreen #class-set-answers { width: 3fr; height: 1fr; margin: 0 1; }
    ClassSetScreen #class-set-detail {
        width: 2fr; height: 1fr; padding: 0 1; border-left: tall $panel-lighten-2;
    }
    ClassSetScreen.-narrow #class-set-columns { layout: vertical; }
    ClassSetScreen.-narrow #class-set-order { margin-top: 0; }
    ClassSetScreen.-narrow #class-set-answers { width: 1fr; height: 2fr; }
    ClassSetScreen.-narrow #class-set-detail {
        width: 1fr; height: 1fr; border-left: none; border-top: tall $panel-lighten-2;
    }
    """
    BINDINGS: ClassVar = [
        Binding("c", "grade('CORRECT')", _("Correct")),
        Binding("p", "grade('PARTIAL')", _("Partly")),
        Binding("w", "grade('WRONG')", _("Wrong")),
        Binding("u", "grade('')", _("Take back")),
        Binding("o", "order", _("Order")),
        Binding("right_square_bracket", "page(1)", _("Next page"), key_display="]"),
        Binding("left_square_bracket", "page(-1)", _("Previous page"), key_display="["),
        Binding("j", "judge", _("Judge the rest")),
        Binding("e", "export", _("Export")),
        Binding("escape", "back", _("Class sets")),
    ]

    class Loaded(Message):
        def __init__(self, current: ClassSet, page: ClassSetPage | None, select: int | None) -> None:
            super().__init__()
            self.current, self.page, self.select = current, page, select
            """``select``: the row to put the cursor on; ``page`` None: not all judged yet."""

    class Graded(Message):
        def __init__(self, current: ClassSet, before: ClassSet | None) -> None:
            super().__init__()
            self.current, self.before = current, before

    class Gone(Message):
        def __init__(self, task_gone: bool) -> None:
            super().__init__()
            self.task_gone = task_gone

    def __init__(self, class_set: ClassSet, task_title: str) -> None:
        super().__init__()
        self.set_id, self.task_id = class_set.classSetId, class_set.taskId
        self.current = class_set
        self.task_title = task_title
        self.order = ClassSetOrder.GROUPED
        self.start = 0
        self.total = 0
        self.rows: list[ClassSetAnswer | None] = []
        """The answer of each row of the table (None: a group's header row)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(self._heading(), id="class-set-heading")
        yield Static(id="class-set-counts")
        yield Static(id="class-set-bar")
        with Horizontal(id="class-set-judge"):
            yield Static(id="class-set-judge-text")
            yield Button("", id="class-set-judge-button", variant="primary", compact=True)
        yield Static(id="class-set-order")
        with Horizontal(id="class-set-columns"):
            yield AnswersTable(id="class-set-answers", flexible="answer")
            with VerticalScroll(id="class-set-detail"):
                yield Static(id="class-set-feedback")
        yield EmptyState(id="class-set-empty")
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("", key="group")
        table.add_column("", key="verdict")
        table.add_column(_("Answer"), key="answer")
        table.add_column(_("Points"), key="points")
        table.add_column(_("By"), key="by")
        self.query_one(EmptyState).display = False
        self._show_counts(self.current)
        table.focus()
        self.load(first=True)

    def _heading(self) -> Text:
        return Text.assemble(
            (set_name(self.current), "bold"),
            "  ",
            (_("class set of “{task}”").format(task=self.task_title), "dim"),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "judge":
            return self.current.judgedCount < self.current.answerCount
        if action == "page":
            step = int(str(parameters[0])) if parameters else 0
            return 0 <= self.start + step * PAGE < self.total  # shown only where there is a page to turn to
        return True

    # --- reading ------------------------------------------------------------------------------

    @work(exclusive=True, group="class-set-read")
    async def load(self, select: int | None = None, *, first: bool = False) -> None:
        async with service_call(
            self, _("Reading the class set"), busy=self.query_one(DataTable), raising=(NotFound,)
        ):
            app = studio(self)
            service, tenant = await app.ready(), app.tenant_id
            try:
                if first or self.current.judgedCount < self.current.answerCount:
                    current = await service.get_class_set(tenant, self.set_id)
                    if current.judgedCount < current.answerCount:
                        self.post_message(self.Loaded(current, None, None))
                        return
                page = await service.class_set_answers(tenant, self.set_id, self.order, self.start, PAGE)
                if not page.answers and page.total and self.start:  # fewer answers now: the last page
                    self.start = (page.total - 1) // PAGE * PAGE
                    page = await service.class_set_answers(tenant, self.set_id, self.order, self.start, PAGE)
            except NotFound:
                await self._gone()
                return
            self.post_message(self.Loaded(page.classSet, page, select))

    async def _gone(self) -> None:
        """The set is gone: with its task (both close), or on its own (back to the task's sets)."""
        app = studio(self)
        library = await app.library()
        try:
            await library.open(self.task_id)
        except NotFound:
            library.changed()
            self.post_message(self.Gone(task_gone=True))
        else:
            self.post_message(self.Gone(task_gone=False))

    def on_class_set_screen_gone(self, message: Gone) -> None:
        if message.task_gone:
            text = _("The task “{task}” was deleted, and its class sets with it.").format(
                task=self.task_title
            )
        else:
            text = _("The class set “{name}” was deleted.").format(name=set_name(self.current))
        self.notify(text, title=_("Class set closed"), severity="warning", timeout=10, markup=False)
        self.dismiss(TASK_GONE if message.task_gone else None)

    def on_class_set_screen_loaded(self, message: Loaded) -> None:
        self.current = message.current
        self._show_counts(message.current)
        judge = self.query_one("#class-set-judge")
        table = self.query_one(AnswersTable)
        waiting = message.current.answerCount - message.current.judgedCount
        if message.page is None:
            self.query_one("#class-set-judge-text", Static).update(
                plural(
                    "The task changed since this set was judged: {count} answer is not judged for it yet.",
                    "The task changed since this set was judged: {count} answers are not judged for it yet.",
                    waiting,
                ).format(count=number(waiting, 0))
            )
            self.query_one("#class-set-judge-button", Button).label = plural(
                "Judge {count} answer  j", "Judge {count} answers  j", waiting
            ).format(count=number(waiting, 0))
            judge.display = True
            self.query_one("#class-set-columns").display = False
            self.query_one("#class-set-order").display = False
            self.query_one("#class-set-judge-button", Button).focus()
            self.refresh_bindings()
            return
        judge.display = False
        self.query_one("#class-set-columns").display = True
        self.query_one("#class-set-order").display = True
        self.total = message.page.total
        self._fill(message.page)
        empty = self.query_one(EmptyState)
        empty.display = not message.page.answers
        self.query_one("#class-set-columns").display = bool(message.page.answers)
        if not message.page.answers:
            empty.update(_("Every answer is graded. Press [b]o[/] for the grouped order."))
        rows = [i for i, answer in enumerate(self.rows) if answer is not None]
        if rows:
            wanted = message.select if message.select is not None else rows[0]
            row = next((i for i in rows if i >= wanted), rows[-1])
            table.first_answer = rows[0]
            table.move_cursor(row=row, animate=False)
            self.call_after_refresh(table.fit)  # again once laid out: the page may come before the width
            self._show_answer(self.rows[row])
            if self.focused is None or not self.focused.is_attached or not self.focused.display:
                table.focus()
        self.refresh_bindings()

    def _show_counts(self, current: ClassSet, before: ClassSet | None = None) -> None:
        self.query_one("#class-set-counts", Static).update(counts_text(current, before))
        counts = current.verdicts.model_dump() if current.verdicts else {}
        bar = verdict_bar(counts)
        bar.append("   " + tally(current), style="dim")
        self.query_one("#class-set-bar", Static).update(bar)

    def _fill(self, page: ClassSetPage) -> None:
        table = self.query_one(AnswersTable)
        table.clear()
        self.rows = []
        counts = self.current.verdicts.model_dump() if self.current.verdicts else {}
        previous: ClassSetAnswer | None = None
        answers = page.answers
        for index, answer in enumerate(answers):
            grouped = self.order is ClassSetOrder.GROUPED
            if grouped and answer.verdict and (previous is None or previous.verdict != answer.verdict):
                count = counts.get(answer.verdict, 0)
                header = Text.assemble(
                    (f"{verdict_word(answer.verdict)} · ", VERDICT_STYLES[answer.verdict]),
                    (
                        plural("{count} answer", "{count} answers", count).format(count=number(count, 0)),
                        "bold",
                    ),
                )
                table.add_row("", verdict_text(answer.verdict, word=False), header, "", "", key=f"h{index}")
                self.rows.append(None)
            mark = ""
            if grouped and answer.group is not None and (answer.groupSize or 0) > 1:
                before_same = previous is not None and previous.group == answer.group
                after = answers[index + 1] if index + 1 < len(answers) else None
                after_same = after is not None and after.group == answer.group
                mark = "│" if before_same and after_same else "╰" if before_same else f"╭{answer.groupSize}"
            verdict = verdict_text(answer.verdict, word=False) if answer.verdict else Text("·", style="dim")
            points = number(answer.points) if answer.points is not None else ""
            by = Text(_(GRADED_BY[answer.gradedBy]), style="bold" if answer.gradedBy == "AUTHOR" else "dim")
            table.add_row(
                Text(mark, style="dim"), verdict, cut(answer.text), points, by, key=f"a{answer.position}"
            )
            self.rows.append(answer)
            previous = answer
        table.fit()
        self.query_one("#class-set-order", Static).update(self._order_line(page))

    def _order_line(self, page: ClassSetPage) -> Text:
        line = Text("o ", style="bold")
        for i, order in enumerate(ORDERS):
            if i:
                line.append(" · ", style="dim")
            line.append(_(ORDER_NAMES[order]), style="bold reverse" if order is self.order else "")
        if page.total:
            line.append("   ")
            line.append(
                _("{first}–{last} of {total}").format(
                    first=number(page.offset + 1, 0),
                    last=number(page.offset + len(page.answers), 0),
                    total=number(page.total, 0),
                ),
                style="dim",
            )
            if page.total > PAGE:
                line.append(_("  ([ ] turn the page)"), style="dim")
        return line

    @on(DataTable.RowHighlighted, "#class-set-answers")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.rows):
            self._show_answer(self.rows[event.cursor_row])

    def _show_answer(self, answer: ClassSetAnswer | None) -> None:
        detail = self.query_one("#class-set-feedback", Static)
        if answer is None:
            detail.update(Text(_("Alike answers follow, each with its own verdict."), style="dim"))
            return
        text = Text()
        text.append(_("Answer {number}").format(number=answer.position + 1), style="bold")
        text.append("  ")
        text.append(_(GRADED_BY[answer.gradedBy]), style="dim")
        text.append("\n")
        text.append(answer.text)
        text.append("\n\n")
        if answer.verdict:
            text.append_text(verdict_text(answer.verdict))
            if answer.points is not None:
                text.append(
                    "  "
                    + _("{achieved} / {achievable} points").format(
                        achieved=number(answer.points), achievable=number(answer.achievablePoints)
                    ),
                    style="dim",
                )
            text.append("\n")
        if answer.feedback:
            text.append("\n" + _("Feedback") + "\n", style="bold")
            for item in answer.feedback:
                text.append(
                    f"{VERDICT_MARKS.get(item.correctness, '·')} ",
                    style=VERDICT_STYLES.get(item.correctness, ""),
                )
                text.append(item.message + "\n")
        detail.update(text)

    def selected(self) -> ClassSetAnswer | None:
        table = self.query_one(DataTable)
        if not table.display or not 0 <= table.cursor_row < len(self.rows):
            return None
        return self.rows[table.cursor_row]

    # --- actions ------------------------------------------------------------------------------

    def action_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self.start = 0
        self.load()

    def action_page(self, step: int) -> None:
        offset = self.start + step * PAGE
        if 0 <= offset < self.total:
            self.start = offset
            self.load()

    def action_grade(self, verdict: str) -> None:
        answer = self.selected()
        if answer is None:
            if self.rows:
                self.notify(_("Select an answer to grade it."), severity="warning", timeout=3)
            return
        if in_flight(self, "class-set-grade"):
            return
        studio(self).hold_keys()  # the next grade key is for the answer selected after this one
        self.grade(answer, Correctness(verdict) if verdict else None)

    @work(group="class-set-grade")
    async def grade(self, answer: ClassSetAnswer, correctness: Correctness | None) -> None:
        before = {a.position: (a.verdict, a.points) for a in self.rows if a is not None}
        table = self.query_one(DataTable)
        row = table.cursor_row
        try:
            async with service_call(self, _("Grading"), raising=(NotFound,)):
                app = studio(self)
                service, tenant = await app.ready(), app.tenant_id
                counted = self.current
                try:
                    current = await service.grade_class_set_answer(
                        tenant,
                        self.set_id,
                        answer.position,
                        ClassSetGrade(correctness=correctness) if correctness else None,
                    )
                    self.post_message(self.Graded(current, counted))
                    page = await service.class_set_answers(tenant, self.set_id, self.order, self.start, PAGE)
                    if not page.answers and page.total:
                        self.start = (page.total - 1) // PAGE * PAGE
                        page = await service.class_set_answers(
                            tenant, self.set_id, self.order, self.start, PAGE
                        )
                except NotFound:
                    await self._gone()
                    return
                changed = sum(
                    1
                    for a in page.answers
                    if a.position != answer.position
                    and a.text != answer.text
                    and a.position in before
                    and before[a.position] != (a.verdict, a.points)
                )
                # in the review order the graded answer left: the next one to grade is in its row
                select = (
                    row if self.order is ClassSetOrder.REVIEW else self._row_of(page, answer.position, row)
                )
                self.post_message(self.Loaded(page.classSet, page, select))
                title = (
                    _("Graded {verdict}").format(verdict=verdict_word(correctness))
                    if correctness
                    else _("Grade taken back")
                )
                self.notify(
                    plural(
                        "{count} other verdict in view changed.",
                        "{count} other verdicts in view changed.",
                        changed,
                    ).format(count=number(changed, 0)),
                    title=title,
                    timeout=4,
                )
        finally:  # after the page's message: the keys held meanwhile reach the screen as it then is
            studio(self).release_keys()

    def _row_of(self, page: ClassSetPage, position: int, fallback: int) -> int:
        """The row ``position`` will have in the table of ``page`` (headers counted), else ``fallback``."""
        row, previous = 0, None
        for answer in page.answers:
            if (
                self.order is ClassSetOrder.GROUPED
                and answer.verdict
                and (previous is None or previous != answer.verdict)
            ):
                row += 1
            if answer.position == position:
                return row
            previous = answer.verdict
            row += 1
        return fallback

    def on_class_set_screen_graded(self, message: Graded) -> None:
        self.current = message.current
        self._show_counts(message.current, message.before)

    @on(Button.Pressed, "#class-set-judge-button")
    def action_judge(self) -> None:
        waiting = self.current.answerCount - self.current.judgedCount
        if waiting <= 0:
            return
        app = studio(self)
        current = self.current

        async def job(progress: Callable[[ClassSet], None]) -> ClassSet:
            return await judge_rest(await app.ready(), app.tenant_id, current, progress)

        def judged(_done: ClassSet | None) -> None:
            self.load(first=True)

        self.app.push_screen(
            ClassSetProgressScreen(
                plural(
                    "Judging {count} answer of “{name}”", "Judging {count} answers of “{name}”", waiting
                ).format(count=number(waiting, 0), name=set_name(current)),
                "",
                job,
                stopped=_("Judging stopped: the answers judged so far are kept."),
                doing=_("Judging the class set"),
            ),
            judged,
        )

    def action_export(self) -> None:
        ask_export(self, self.current)

    def action_back(self) -> None:
        self.dismiss(None)
