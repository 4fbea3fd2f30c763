"""The page of one class set, "/tasks/{tenantId}/{taskId}/class-sets/{setId}" (docs/webui.md,
"Class sets"): its verdicts counted and drawn as one bar, its answers grouped by verdict (alike
answers together), in the review order or as imported; grading from the review order, one click
or key per verdict; export and delete.

Every verdict of a set moves with each grade (core.service.class_sets), so after a grade the page
reads the set again: the counts and the answers shown are the set as it now is, and the page says
how many verdicts changed. The keys C, P and W grade the answer in the review card while the card
(or one of its buttons) has the focus: single letters act nowhere else (WCAG 2.1.4).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from functools import partial

from nicegui import ui

from core.api import Correctness, NotFound, ServiceError
from core.api.class_sets import (
    ClassSet,
    ClassSetAnswer,
    ClassSetGrade,
    ClassSetOrder,
    ClassSetPage,
    GradedBy,
)
from core.client.class_sets import GRADED_BY, judge_rest
from webui.components.busy import Sender, sends
from webui.components.class_sets import set_facts, tab_link
from webui.i18n import N_, _, number, plural
from webui.page_services import BUILD_SECONDS, PageServices, failure_text
from webui.theme import (
    CHART_COLORS,
    VERDICT_ICONS,
    dialog,
    empty_state,
    frame,
    notify_on_next_page,
    verdict_chip,
    verdict_color,
    verdict_word,
)

PAGE = 50
"""Answers read at a time (and added by Show more)."""
ORDERS = {
    ClassSetOrder.GROUPED: N_("Grouped"),
    ClassSetOrder.REVIEW: N_("Review order"),
    ClassSetOrder.POSITION: N_("As imported"),
}
GRADES = (
    # verdict, button, key, colour
    (Correctness.CORRECT, N_("Correct"), "c", "positive"),
    (Correctness.PARTIAL, N_("Partly"), "p", "warning"),
    (Correctness.WRONG, N_("Wrong"), "w", "negative"),
)
SHOWN_VERDICTS = (Correctness.CORRECT, Correctness.PARTIAL, Correctness.WRONG, Correctness.UNKNOWN)
EXCERPT = 60
LONG = 120
"""Characters of an answer beyond which its row's two lines may not hold it: opened, it shows whole."""


def register(studio: PageServices) -> None:
    @ui.page("/tasks/{tenant_id}/{task_id}/class-sets/{set_id}", response_timeout=BUILD_SECONDS)
    async def class_set_page(tenant_id: str, task_id: str, set_id: str) -> None:
        with frame(_("Class set")):
            await ClassSetView(studio, tenant_id, task_id, set_id).build()


def export_name(name: str) -> str:
    """The file name of a set's export: its name with what file names cannot hold left out."""
    stem = re.sub(r"[^\w.-]+", "-", name).strip("-.")
    return f"{stem or 'class-set'}.csv"


def grade_button(verdict: Correctness, text: str, color: str) -> ui.button:
    button = ui.button(_(text), icon=VERDICT_ICONS[verdict], color=color).props("unelevated no-caps")
    if color == "warning":
        button.props("text-color=black")  # white on amber is hard to read
    return button


def report(action: str, exc: Exception) -> None:
    """A failed call said as webui.page_services.reporting says it."""
    ui.notify(
        _("{action} failed: {reason}").format(action=action, reason=failure_text(exc)),
        type="negative",
        multi_line=True,
        close_button=True,
    )


def excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1].rstrip() + "…"


class ClassSetView:
    def __init__(self, studio: PageServices, tenant: str, task_id: str, set_id: str) -> None:
        self.studio = studio
        self.tenant = tenant
        self.task_id = task_id
        self.set_id = set_id
        self.order = ClassSetOrder.GROUPED
        self.shown = PAGE
        self.summary: ClassSet | None = None
        self.page: ClassSetPage | None = None
        self.known: dict[int, Correctness | None] = {}
        """Every answer's verdict as last read (by position): what a grade changed is told from it."""
        self.texts: dict[int, str] = {}
        self.moved: dict[str, int] = {}
        """How each verdict's count moved with the last grade."""
        self.grading = False
        """A grade on its way: a second one (another button, another key) waits for it."""
        self.current: ClassSetAnswer | None = None
        """The answer in the review card."""
        self.judging: asyncio.Task[ClassSet] | None = None

    # --- building -----------------------------------------------------------------------------

    async def build(self) -> None:
        self.root = ui.column().classes("w-full gap-3")
        try:
            service = await self.studio.service()
            task = (await service.get_task(self.tenant, self.task_id)).definition
            self.summary = await service.get_class_set(self.tenant, self.set_id)
        except ServiceError as exc:
            await self._gone(exc)
            return
        if self.summary.judgedCount < self.summary.answerCount:
            self.order = ClassSetOrder.POSITION  # grouping or reviewing would judge every answer first
        title = task.display_title
        ui.page_title(f"{self.summary.name or _('Class set')} · {title}")
        with self.root:
            self._header(title)
            self.counts = ui.column().classes("w-full gap-1").mark("class-set-counts")
            self.unjudged = ui.row().classes("w-full items-center gap-2").mark("class-set-unjudged")
            self._judging_bar()
            order_name = _("Order of the answers")  # outside the f-string: `make translations` finds it
            with ui.row().classes("w-full items-center gap-2"):
                self.toggle = (
                    ui.toggle(
                        {order: _(label) for order, label in ORDERS.items()},
                        value=self.order,
                        on_change=self._reorder,
                    )
                    .props(f'no-caps unelevated aria-label="{order_name}"')
                    .mark("class-set-order")
                )
                ui.space()
                self.status = ui.row().classes("items-center gap-2").props('aria-live="polite"')
                self.status.mark("class-set-status")
            self._review_card()
            self.answers = ui.column().classes("w-full gap-1").mark("class-set-answers")
            self.more = ui.button(on_click=self._more).props("flat no-caps").classes("self-center")
            self.more.mark("class-set-more")
        await self._read()

    def _header(self, task_title: str) -> None:
        assert self.summary is not None
        with ui.row().classes("w-full items-center gap-2"):
            ui.icon("groups", color="primary", size="md").props("aria-hidden=true")
            with ui.column().classes("gap-0"):
                self.title = ui.label(self.summary.name or _("(no name)")).classes("text-xl font-semibold")
                ui.link(
                    _("Class sets of “{task}”").format(task=task_title), tab_link(self.tenant, self.task_id)
                ).classes("text-sm text-primary").mark("class-set-task")
            ui.space()
            sends(ui.button(_("Export CSV"), icon="download"), self._export).props("outline no-caps").mark(
                "class-set-export"
            )
            ui.button(_("Delete"), icon="delete", on_click=self._confirm_delete).props(
                "flat no-caps color=negative"
            ).mark("class-set-delete")
        self.facts = ui.label().classes("text-sm opacity-70").mark("class-set-facts")

    def _judging_bar(self) -> None:
        with ui.column().classes("w-full gap-1") as self.judging_box:
            self.judging_progress = ui.linear_progress(value=0, show_value=False, size="10px").classes(
                "w-full"
            )
            progress_name = _("Judging progress")  # outside the f-string: `make translations` finds it
            self.judging_progress.props(f'aria-label="{progress_name}"')
            with ui.row().classes("w-full items-center gap-2"):
                self.judging_text = ui.label().classes("text-sm").props('aria-live="polite"')
                ui.space()
                ui.button(_("Stop"), icon="stop", on_click=self._stop_judging).props("outline").mark(
                    "class-set-stop"
                )
        self.judging_box.set_visibility(False)

    def _review_card(self) -> None:
        """The answer to grade next, with a button (and a key) per verdict. The card stays while
        answer after answer comes up in it, so the focus stays where the keys work."""
        label = _("Answer to grade: keys C correct, P partly, W wrong")
        with (
            ui.card()
            .classes("w-full gap-2")
            .props(f'flat bordered tabindex=0 role=group aria-label="{label}"') as self.card
        ):
            self.card.mark("class-set-review")
            self.card_body = ui.column().classes("w-full gap-2")
            with ui.row().classes("w-full items-center gap-2"):
                for verdict, text, key, color in GRADES:
                    button = grade_button(verdict, text, color).props(f'aria-keyshortcuts="{key}"')
                    button.tooltip(_("Key: {key}").format(key=key.upper())).mark(
                        f"grade-{verdict.value.lower()}"
                    )
                    # one key or click, one grade: the browser sends no second press within the
                    # double-click time, and a grade on its way makes every other wait (_grade)
                    Sender(button, self._grader(verdict)).keys(self.card, f"keydown.{key}.exact")
                ui.space()
                ui.label(_("Keys while this card has the focus: C, P, W")).classes("text-xs opacity-70")
        self.card.set_visibility(False)

    def _grader(self, verdict: Correctness) -> Callable[[], Awaitable[None]]:
        async def grade() -> None:
            if self.current is not None:
                await self._grade(self.current, verdict)

        return grade

    # --- reading ------------------------------------------------------------------------------

    async def _read(self) -> bool:
        """Read the set and the answers shown again; False (the page says why) if it is gone."""
        try:
            service = await self.studio.service()
            page = await service.class_set_answers(self.tenant, self.set_id, self.order, 0, self.shown)
        except NotFound as exc:
            await self._gone(exc)
            return False
        except ServiceError as exc:
            report(_("Reading the class set"), exc)
            return False
        self.page, self.summary = page, page.classSet
        for answer in page.answers:
            self.known[answer.position] = answer.verdict
            self.texts[answer.position] = answer.text
        self._show()
        return True

    def _show(self) -> None:
        assert self.page is not None and self.summary is not None
        summary = self.summary
        self.title.set_text(summary.name or _("(no name)"))
        self.facts.set_text(set_facts(summary))
        self._show_counts()
        self._show_unjudged()
        self.toggle.set_enabled(summary.judgedCount >= summary.answerCount and self.judging is None)
        answers = list(self.page.answers)
        review = self.order is ClassSetOrder.REVIEW
        self.current = answers[0] if review and answers else None
        self.card.set_visibility(self.current is not None)
        if self.current is not None:
            self._show_current(self.current)
        self.answers.clear()
        with self.answers:
            if review:
                if not answers:
                    empty_state(
                        "task_alt",
                        _("Nothing left to review"),
                        _("Every answer is graded by you, or has the words of an answer you graded."),
                    ).mark("class-set-reviewed")
                elif len(answers) > 1:
                    ui.label(_("Next in the review order")).classes("text-sm font-semibold mt-2")
                self._rows(answers[1:])
            else:
                self._rows(answers, grouped=self.order is ClassSetOrder.GROUPED)
        left = self.page.total - len(answers)
        self.more.set_text(_("Show {count} more").format(count=number(min(left, PAGE), 0)))
        self.more.set_visibility(left > 0)

    def _show_counts(self) -> None:
        assert self.summary is not None
        counts = self.summary.verdicts.model_dump() if self.summary.verdicts else {}
        not_judged = self.summary.answerCount - sum(counts.values())
        self.counts.clear()
        with self.counts:
            with ui.row().classes("items-center gap-2"):
                for verdict in SHOWN_VERDICTS:
                    count = counts.get(verdict.value, 0)
                    if verdict is Correctness.UNKNOWN and not count:
                        continue
                    moved = self.moved.get(verdict.value, 0)
                    text = f"{verdict_word(verdict)} {number(count, 0)}"
                    chip = verdict_chip(verdict)
                    chip.set_text(text + (f" ({moved:+d})" if moved else ""))
                    chip.mark(f"count-{verdict.value.lower()}")
                if not_judged > 0:
                    ui.chip(
                        _("not judged yet {count}").format(count=number(not_judged, 0)),
                        icon="hourglass_empty",
                    ).props("dense square outline").mark("count-not-judged")
            total = max(self.summary.answerCount, 1)
            parts = [(v, counts.get(v.value, 0)) for v in SHOWN_VERDICTS]
            described = ", ".join(f"{verdict_word(v)} {number(n, 0)}" for v, n in parts if n)
            # the counts as one bar: where most answers stand shows at a glance
            with (
                ui.element("div")
                .classes("flex w-full max-w-xl h-3 rounded overflow-hidden bg-grey-3")
                .props(f'role=img aria-label="{described}"')
                .mark("class-set-bar")
            ):
                for verdict, n in parts:
                    if n:
                        ui.element("div").style(
                            f"width: {100 * n / total:.2f}%; background: {CHART_COLORS[verdict.value]}"
                        )

    def _show_unjudged(self) -> None:
        assert self.summary is not None
        waiting = self.summary.answerCount - self.summary.judgedCount
        self.unjudged.clear()
        self.unjudged.set_visibility(waiting > 0 and self.judging is None)
        if waiting <= 0:
            return
        with self.unjudged:
            ui.icon("hourglass_empty", color="warning").props("aria-hidden=true")
            ui.label(
                plural(
                    "{count} answer is not judged yet (the task changed since, or judging was stopped). "
                    "Judge it to group and review the set.",
                    "{count} answers are not judged yet (the task changed since, or judging was stopped). "
                    "Judge them to group and review the set.",
                    waiting,
                ).format(count=number(waiting, 0))
            ).classes("text-sm")
            label = plural("Judge {count} answer", "Judge {count} answers", waiting).format(
                count=number(waiting, 0)
            )
            sends(ui.button(label, icon="gavel"), self._judge_rest).props("unelevated no-caps").mark(
                "class-set-judge"
            )

    def _show_current(self, answer: ClassSetAnswer) -> None:
        assert self.page is not None
        self.card_body.clear()
        with self.card_body:
            with ui.row().classes("w-full items-center gap-2"):
                ui.label(_("To review: {count} left").format(count=number(self.page.total, 0))).classes(
                    "text-sm font-semibold text-primary"
                )
                ui.space()
                self._verdict(answer)
            ui.label(answer.text).classes("text-base whitespace-pre-wrap").mark("review-answer")
            self._feedback(answer)

    def _rows(self, answers: list[ClassSetAnswer], grouped: bool = False) -> None:
        assert self.summary is not None
        counts = self.summary.verdicts.model_dump() if self.summary.verdicts else {}
        verdict: Correctness | None = None
        group: int | None = None
        alike: ui.column | None = None
        """The box of the alike answers being laid out (a line beside them holds them together)."""
        for index, answer in enumerate(answers):
            if grouped and (index == 0 or answer.verdict != verdict):
                verdict, alike = answer.verdict, None
                with ui.row().classes("items-center gap-2 mt-3").mark("verdict-header"):
                    if verdict is None:
                        ui.label(_("not judged yet")).classes("font-semibold")
                    else:
                        verdict_chip(verdict)
                        count = counts.get(verdict.value, 0)
                        ui.label(
                            plural("{count} answer", "{count} answers", count).format(count=number(count, 0))
                        ).classes("text-sm font-semibold")
            if grouped and answer.group != group:
                alike = None
                if answer.group is not None and (answer.groupSize or 0) > 1:
                    alike = (
                        ui.column().classes("w-full gap-0 pl-2 my-1").style("border-left: 4px solid #9e9e9e")
                    )
                    with alike:
                        ui.label(
                            _("{count} alike answers").format(count=number(answer.groupSize or 0, 0))
                        ).classes("text-xs opacity-70").mark("alike-header")
            group = answer.group
            if alike is not None:
                with alike:
                    self._row(answer)
            else:
                self._row(answer)

    def _row(self, answer: ClassSetAnswer) -> None:
        with ui.expansion().classes("w-full").props("dense dense-toggle switch-toggle-side") as row:
            row.mark(f"answer-{answer.position}")
            with row.add_slot("header"), ui.row().classes("w-full items-center no-wrap gap-2"):
                self._verdict(answer, compact=True)
                ui.label(answer.text).classes("line-clamp-2 grow min-w-0")
            with ui.column().classes("w-full gap-2 pl-2") as body:
                pass

        def opened(event: object) -> None:  # the feedback is built when first read
            if row.value and not list(body):
                with body:
                    if len(answer.text) > LONG:  # the header shows two lines of it
                        ui.label(answer.text).classes("whitespace-pre-wrap")
                    self._feedback(answer)
                    self._grade_buttons(answer)

        row.on_value_change(opened)

    def _verdict(self, answer: ClassSetAnswer, compact: bool = False) -> None:
        """An answer's verdict, points and who graded it."""
        with ui.row().classes("items-center gap-2 no-wrap shrink-0"):
            if answer.verdict is None:
                ui.chip(_(GRADED_BY[GradedBy.NOT_JUDGED]), icon="hourglass_empty").props(
                    "dense square outline"
                )
                return
            verdict_chip(answer.verdict)
            if answer.points is not None:
                ui.label(
                    _("{achieved} / {achievable} points").format(
                        achieved=number(answer.points), achievable=number(answer.achievablePoints)
                    )
                ).classes("text-sm whitespace-nowrap")
            by_author = answer.gradedBy is GradedBy.AUTHOR
            ui.label(_(GRADED_BY[answer.gradedBy])).classes(
                "text-xs whitespace-nowrap " + ("font-semibold text-primary" if by_author else "opacity-70")
            ).mark("graded-by")

    def _feedback(self, answer: ClassSetAnswer) -> None:
        if not answer.feedback:
            return
        for item in answer.feedback:
            color = verdict_color(item.correctness)
            with (
                ui.row()
                .classes("w-full no-wrap items-start gap-2 pl-3")
                .style(f"border-left: 4px solid var(--q-{color}, #9ca3af)")
            ):
                ui.icon(
                    VERDICT_ICONS.get(item.correctness, VERDICT_ICONS[Correctness.UNKNOWN]), color=color
                ).props("aria-hidden=true")
                ui.label(item.message).classes("text-sm")

    def _grade_buttons(self, answer: ClassSetAnswer) -> None:
        with ui.row().classes("items-center gap-2"):
            ui.label(_("Your grade:")).classes("text-sm")
            for verdict, text, _key, color in GRADES:
                sends(
                    grade_button(verdict, text, color).props("dense"), partial(self._grade, answer, verdict)
                )
            if answer.gradedBy is GradedBy.AUTHOR:
                sends(
                    ui.button(_("Take back the grade"), icon="undo"), lambda: self._grade(answer, None)
                ).props("flat dense no-caps").mark("take-back")

    # --- acting -------------------------------------------------------------------------------

    async def _reorder(self, event: object) -> None:
        self.order = ClassSetOrder(self.toggle.value)
        self.shown = PAGE
        if await self._read() and self.order is ClassSetOrder.REVIEW and self.current is not None:
            ui.run_javascript(f"getHtmlElement({self.card.id})?.focus()")  # the keys work at once

    async def _more(self) -> None:
        self.shown += PAGE
        await self._read()

    async def _grade(self, answer: ClassSetAnswer, verdict: Correctness | None) -> None:
        if self.grading:
            return
        self.grading = True
        before = self.summary.verdicts.model_dump() if self.summary and self.summary.verdicts else {}
        graded_before = self.summary.gradedCount if self.summary else 0
        known = dict(self.known)
        try:
            service = await self.studio.service()
            grade = None if verdict is None else ClassSetGrade(correctness=verdict)
            await service.grade_class_set_answer(self.tenant, self.set_id, answer.position, grade)
        except NotFound as exc:
            self.grading = False
            await self._gone(exc)
            return
        except Exception as exc:  # said in a notification, as every refused call is
            self.grading = False
            report(_("Grading"), exc)
            return
        try:
            if not await self._read():
                return
            after = self.summary.verdicts.model_dump() if self.summary and self.summary.verdicts else {}
            self.moved = {v: after.get(v, 0) - before.get(v, 0) for v in after}
            self._show_counts()
            self._said(answer, verdict, known, graded_before)
        finally:
            self.grading = False

    def _said(
        self,
        answer: ClassSetAnswer,
        verdict: Correctness | None,
        known: dict[int, Correctness | None],
        graded_before: int,
    ) -> None:
        """Say what the grade did: how many verdicts changed (among the answers read before and
        after it, and at least as many as the counts moved), with a button to take it back."""
        assert self.summary is not None
        if verdict is None and self.summary.gradedCount >= graded_before:
            message = _(
                "“{answer}” has the words of an answer you graded and takes its grade: take back that answer's grade."
            ).format(answer=excerpt(answer.text))
            self._status(message, None)
            return
        changed = {p for p, v in self.known.items() if p in known and known[p] != v}
        if verdict is not None:  # the answer and those with its words take the grade (if not read again)
            words = answer.text.strip()
            changed |= {
                p for p, t in self.texts.items() if t.strip() == words and known.get(p) not in (None, verdict)
            }
        count = max(len(changed), sum(m for m in self.moved.values() if m > 0))
        what = (
            _("The grade of “{answer}” taken back").format(answer=excerpt(answer.text))
            if verdict is None
            else _("“{answer}” graded {verdict}").format(
                answer=excerpt(answer.text), verdict=verdict_word(verdict)
            )
        )
        changes = plural("{count} verdict changed", "{count} verdicts changed", count).format(
            count=number(count, 0)
        )
        self._status(f"{what}: {changes}.", answer if verdict is not None else None)

    def _status(self, message: str, undo: ClassSetAnswer | None) -> None:
        self.status.clear()
        with self.status:
            ui.label(message).classes("text-sm").mark("grade-said")
            if undo is not None:
                sends(ui.button(_("Take back"), icon="undo"), lambda: self._grade(undo, None)).props(
                    "flat dense no-caps"
                ).mark("undo-grade")

    async def _judge_rest(self) -> None:
        assert self.summary is not None
        self.unjudged.set_visibility(False)
        self.toggle.disable()
        self.judging_progress.set_value(0)
        self.judging_box.set_visibility(True)

        def progress(current: ClassSet) -> None:
            if self.judging_progress.is_deleted:
                return
            self.judging_progress.set_value(current.judgedCount / max(current.answerCount, 1))
            self.judging_text.set_text(
                _("Judging: {judged} of {count} answers").format(
                    judged=number(current.judgedCount, 0), count=number(current.answerCount, 0)
                )
            )

        stopped = False
        try:
            service = await self.studio.service()
            self.judging = asyncio.create_task(judge_rest(service, self.tenant, self.summary, progress))
            await self.judging
        except asyncio.CancelledError:
            if (current := asyncio.current_task()) is not None and current.cancelling():
                raise
            stopped = True
        except NotFound as exc:
            self.judging = None
            await self._gone(exc)
            return
        except Exception as exc:  # said in a notification; what was judged is kept
            report(_("Judging"), exc)
        finally:
            self.judging = None
            if not self.judging_box.is_deleted:
                self.judging_box.set_visibility(False)
        if stopped:
            ui.notify(_("Judging stopped: what was judged is kept."))
        if await self._read() and self.summary.judgedCount >= self.summary.answerCount:
            self.order = ClassSetOrder.GROUPED
            self.toggle.set_value(self.order)  # reads the set in that order

    def _stop_judging(self) -> None:
        if self.judging is not None:
            self.judging.cancel()

    async def _export(self) -> None:
        assert self.summary is not None
        try:
            text = await (await self.studio.service()).export_class_set(self.tenant, self.set_id)
        except NotFound as exc:
            await self._gone(exc)
            return
        except Exception as exc:
            report(_("Export"), exc)
            return
        # with a byte-order mark, as the history's CSV: spreadsheets then read accents
        ui.download.content(text.encode("utf-8-sig"), export_name(self.summary.name), "text/csv")

    def _confirm_delete(self) -> None:
        assert self.summary is not None
        name = self.summary.name or _("(no name)")

        async def delete() -> None:
            try:
                await (await self.studio.service()).delete_class_set(self.tenant, self.set_id)
            except NotFound as exc:
                box.close()
                await self._gone(exc)
                return
            except Exception as exc:
                report(_("Deleting the class set"), exc)
                return
            notify_on_next_page(_("Class set “{name}” deleted.").format(name=name))
            ui.navigate.to(tab_link(self.tenant, self.task_id))

        with self.root, dialog("max-w-lg") as box:
            ui.label(_("Delete the class set “{name}”?").format(name=name)).classes("text-lg")
            ui.label(
                _("Its {count} answers and your grades are deleted. This cannot be undone.").format(
                    count=number(self.summary.answerCount, 0)
                )
            ).classes("text-sm opacity-70")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Delete"), icon="delete"), delete).props("unelevated color=negative").mark(
                    "class-set-delete-confirm"
                )

    async def _gone(self, exc: ServiceError) -> None:
        """The page of a set that is not there (any more): its task deleted, or the set; or the
        service that does not answer."""
        task_gone = False
        if isinstance(exc, NotFound):
            try:
                await (await self.studio.service()).get_task(self.tenant, self.task_id)
            except NotFound:
                task_gone = True
            except ServiceError:
                pass
        if self.root.is_deleted:
            return
        self.root.clear()
        with self.root:
            if task_gone:
                empty_state(
                    "search_off",
                    _("The task {id} was deleted").format(id=self.task_id),
                    _("Its class sets were deleted with it: this one has nothing left to grade or export."),
                ).mark("class-set-gone")
                ui.button(_("Back to the library"), icon="arrow_back", on_click=lambda: ui.navigate.to("/"))
            elif isinstance(exc, NotFound):
                empty_state(
                    "search_off",
                    _("This class set is not available"),
                    _("It was deleted. The task's other class sets are on its Class sets tab."),
                ).mark("class-set-gone")
                target = tab_link(self.tenant, self.task_id)
                ui.button(
                    _("Class sets of the task"), icon="arrow_back", on_click=lambda: ui.navigate.to(target)
                )
            else:
                empty_state("cloud_off", _("The service did not answer"), exc.message)
