"""The Retest tab: a task's test answers and earlier answers recomputed against its current
definition, what changed, which expectations fail, and accepting the new feedback (API.md 3).

What changed (verdict, points, aspects gained and lost) is derived by the report itself
(core.api.workspace), so this tab, the command line and the terminal app judge alike; here it is
only laid out to be read at a glance: a row per answer, colours where something moved or fails.
"""

from __future__ import annotations

from nicegui import ui

from core.api import AnswerRetest, AnswerSource, TaskBase, TaskRetest
from core.client.retest import reassign
from webui.components.answer_text import answer_excerpt
from webui.components.busy import sends
from webui.i18n import N_, _, number, plural
from webui.page_services import PageServices, reporting
from webui.theme import dialog, empty_state, verdict_chip

COLUMNS = [N_("Answer"), N_("Verdict before → after"), N_("Points"), N_("Aspects"), N_("Check")]
LONG = 150
"""Characters of an answer beyond which it may not fit its three lines."""


def _acceptable(task: TaskRetest) -> list[AnswerRetest]:
    """What reassign accepts by default: answers whose feedback changed and that fail nothing."""
    return [a for a in task.answers if a.after is not None and a.changed and a.passed]


class RetestPanel:
    """The retest of one task: run when the tab opens, again on demand, its report below."""

    def __init__(self, studio: PageServices, tenant: str, task: TaskBase) -> None:
        self.studio = studio
        self.tenant = tenant
        self.task = task
        self.report: TaskRetest | None = None

    async def build(self) -> None:
        with ui.row().classes("w-full items-center gap-2"):
            self.summary = ui.row().classes("items-center gap-1 mr-auto")
            self.again = ui.button(_("Retest again"), icon="refresh", on_click=self.run).props("outline")
            self.accept = ui.button(_("Accept new feedback"), icon="done_all", on_click=self._confirm)
            self.accept.props("unelevated").disable()
        self.body = ui.column().classes("w-full gap-3")
        await self.run()

    async def run(self) -> None:
        self.again.props("loading")
        try:
            with reporting(_("Retest")):
                service = await self.studio.service()
                [report] = (await service.retest(self.tenant, [self.task.id])).tasks
                self._show(report)
        finally:
            self.again.props(remove="loading")

    def _show(self, report: TaskRetest) -> None:
        self.report = report
        self.summary.clear()
        self.body.clear()
        ready = len(_acceptable(report))
        self.accept.set_text(
            _("Accept new feedback ({count})").format(count=ready) if ready else _("Accept new feedback")
        )
        self.accept.set_enabled(ready > 0)
        self.accept.set_visibility(bool(report.answers))
        with self.body:
            if not report.answers:
                empty_state(
                    "fact_check",
                    _("Nothing to retest yet"),
                    _(
                        "Give the task test answers with the feedback they must get (a .tests.yaml file "
                        "beside the task file, loaded with `feedback-studio tasks import`), or try it in "
                        "the Try tab: every answer is recomputed here after the task changes."
                    ),
                )
                return
        with self.summary:
            _summary(report)
        with self.body:
            against = (
                _("Recomputed against version {version} of the task as it is now")
                if report.version is not None
                else _("Recomputed against the task as it is now")
            ).format(version=report.version)
            compared = _(
                "test answers are checked against what they must get, earlier answers compared with "
                "the feedback they were given."
            )
            ui.label(f"{against}: {compared}").classes("text-sm opacity-70")
            _table(self.task, report.answers)

    def _confirm(self) -> None:
        assert self.report is not None
        report, count = self.report, len(_acceptable(self.report))

        async def accept() -> None:
            with reporting(_("Accepting the new feedback")):
                response = await reassign(await self.studio.service(), self.tenant, report)
                added = response.added if response else 0
                ui.notify(
                    plural("{count} graded answer added", "{count} graded answers added", added).format(
                        count=added
                    ),
                    type="positive",
                )
                self.accept.set_text(_("Accepted"))
                self.accept.disable()  # once per report: accepting twice would add the answers twice
                box.close()  # last: closing deletes the dialog, the context of this handler

        with dialog("max-w-lg") as box:
            ui.label(
                plural(
                    "Accept the new feedback of {count} answer?",
                    "Accept the new feedback of {count} answers?",
                    count,
                ).format(count=count)
            ).classes("text-lg")
            ui.label(
                _(
                    "Each changed answer that fails no expectation is added to the task's graded answers "
                    "with its new verdict, points and messages; the engines learn from graded answers. "
                    "The earlier interactions keep the feedback they were given."
                )
            ).classes("text-sm opacity-70")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Accept"), icon="done_all"), accept).props("unelevated").mark(
                    "confirm-accept"
                )


def _summary(report: TaskRetest) -> None:
    count = len(report.answers)
    ui.chip(
        plural("{count} answer", "{count} answers", count).format(count=count), icon="format_list_numbered"
    ).props("dense outline")
    changed = report.changedCount
    if changed:
        chip = ui.chip(
            _("{count} changed").format(count=changed),
            icon="published_with_changes",
            color="warning",
            text_color="black",
        )
    else:
        chip = ui.chip(_("{count} changed").format(count=0), icon="published_with_changes").props("outline")
    chip.props("dense").mark("retest-changed")
    if report.failed:
        ui.chip(
            _("{count} failed").format(count=report.failed),
            icon="error",
            color="negative",
            text_color="white",
        ).props("dense").mark("retest-failed")
    else:
        ui.chip(_("all expectations hold"), icon="check", color="positive", text_color="white").props("dense")


def _table(task: TaskBase, answers: list[AnswerRetest]) -> None:
    """A markup table: Quasar styles it for light and dark, and its cells stay NiceGUI elements
    (labels escape the learner's text; the `user` simulation can read them)."""
    with ui.element("q-markup-table").props("flat bordered wrap-cells").classes("w-full"):
        with ui.element("thead"), ui.element("tr"):
            for column in COLUMNS:
                with ui.element("th").classes("text-left"):
                    ui.label(_(column))
        with ui.element("tbody"):
            for answer in answers:
                _row(task, answer)


def _row(task: TaskBase, item: AnswerRetest) -> None:
    tint = "fs-retest-failed" if item.failures else "fs-retest-changed" if item.changed else ""
    with ui.element("tr").classes(tint).mark("retest-row"):
        with ui.element("td").classes("min-w-48"):
            _answer(answer_excerpt(task, item.answer))
            ui.label(_source(item)).classes("text-xs opacity-70")
        with ui.element("td"), ui.row().classes("items-center gap-1 no-wrap"):
            if item.before is not None:
                verdict_chip(item.before.verdict)
                ui.icon("arrow_forward", size="1rem").classes("opacity-60")
            if item.after is not None:
                verdict_chip(item.after.verdict)
            else:
                ui.label(_("no feedback")).classes("text-sm opacity-70")
        with ui.element("td"):
            _points(item)
        with ui.element("td").classes("min-w-40"):
            _aspects(item)
        with ui.element("td").classes("min-w-32"):
            _check(item)


def _answer(text: str) -> None:
    """The answer in at most three lines: a long free text would make a row of a screen; the
    whole of it is a hover away."""
    label = ui.label(text).classes("font-medium line-clamp-3")
    if len(text) > LONG:
        label.tooltip(text).classes("cursor-help")


def _source(item: AnswerRetest) -> str:
    if item.source is AnswerSource.TEST_ANSWER:
        return _("test answer “{label}”").format(label=item.label)
    if item.occurrences > 1:
        return _("earlier answer, given {count} times").format(count=item.occurrences)
    return _("earlier answer")


def _points(item: AnswerRetest) -> None:
    after, before = item.after, item.before
    if after is None:
        ui.label("—").classes("opacity-60")
        return
    if before is None:
        ui.label(
            _("{achieved} of {achievable}").format(
                achieved=number(after.achievedPoints), achievable=number(after.achievablePoints)
            )
        )
        return
    change = item.pointsChange
    color = "fs-good" if change > 0 else "fs-bad" if change < 0 else "opacity-60"
    sign = "+" if change > 0 else "−" if change < 0 else "±"
    ui.label(f"{sign}{abs(change):g}").classes(f"font-semibold {color}")
    ui.label(
        _("{before} → {after} of {achievable}").format(
            before=number(before.achievedPoints),
            after=number(after.achievedPoints),
            achievable=number(after.achievablePoints),
        )
    ).classes("text-xs opacity-70 whitespace-nowrap")


def _aspects(item: AnswerRetest) -> None:
    """Gained and lost for an earlier answer; for a test answer (nothing before) what it shows now."""
    if item.before is None:
        shown = item.after.aspects if item.after else []
        for name in shown:
            ui.label(name).classes("text-sm")
        if not shown:
            ui.label("—").classes("opacity-60")
        return
    for name in item.aspectsGained:
        ui.label(f"+\u00a0{name}").classes("text-sm fs-good")
    for name in item.aspectsLost:
        ui.label(f"−\u00a0{name}").classes("text-sm fs-bad")
    if not item.aspectsGained and not item.aspectsLost:
        ui.label(_("no change")).classes("text-sm opacity-60")


def _check(item: AnswerRetest) -> None:
    if item.failures:
        for failure in item.failures:
            with ui.row().classes("items-start gap-1 no-wrap fs-bad"):
                ui.icon("error", size="1rem").classes("mt-0.5")
                ui.label(failure).classes("text-sm")
    elif item.error:
        ui.label(_("no feedback: {error}").format(error=item.error)).classes("text-sm fs-bad")
    elif item.source is AnswerSource.TEST_ANSWER:
        with ui.row().classes("items-center gap-1 no-wrap fs-good"):
            ui.icon("check", size="1rem")
            ui.label(_("as expected")).classes("text-sm")
    else:
        ui.label(_("changed") if item.changed else _("unchanged")).classes(
            "text-sm " + ("fs-changed font-medium" if item.changed else "opacity-60")
        )
