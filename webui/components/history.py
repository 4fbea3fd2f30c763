"""The history of a task: its verdicts over time, its most frequent misconceptions and missing
concepts (echarts), and the answers themselves, newest first, each opening its feedback.

A misconception counts when the engine detected it in an answer; a concept counts as missing when
a feedback item that is not CORRECT names it (that is how the engines report what was not shown).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from nicegui import ui

from core.api import AspectType, Correctness, InteractionRecord, TaskBase
from core.client.history import HistoryFilter, csv_bytes, day_of
from core.client.overrides import effective_verdict
from core.client.vocabulary import VERDICTS
from webui.components.answer_text import answer_excerpt
from webui.components.feedback_view import feedback_view
from webui.components.verdict_override import override_section
from webui.i18n import _, date_time, day, number
from webui.page_services import PageServices
from webui.theme import CHART_COLORS, dialog, empty_state, section_title, verdict_badge, verdict_word

SPLIT_LINE = {"lineStyle": {"color": "rgba(128, 128, 128, 0.25)"}}
"""Grid lines that read on a light and on a dark page alike."""


def verdicts_over_time(records: Sequence[InteractionRecord]) -> dict[str, Any]:
    """Stacked bars of the verdicts per day, a teacher's verdict in place of the engine's (as the
    filter counts it)."""
    days = sorted({r.createdAt.date() for r in records})
    counts = Counter((r.createdAt.date(), effective_verdict(r)) for r in records)
    return {
        "tooltip": {"trigger": "axis"},
        "legend": {"top": 0},
        "grid": {"left": 40, "right": 16, "bottom": 30, "top": 36},
        "xAxis": {"type": "category", "data": [day(d) for d in days]},
        "yAxis": {"type": "value", "minInterval": 1, "splitLine": SPLIT_LINE},
        "series": [
            {
                "name": verdict_word(v),
                "type": "bar",
                "stack": "verdicts",
                "barMaxWidth": 40,
                "itemStyle": {"color": CHART_COLORS[v.value]},
                "data": [counts[(d, v)] for d in days],
            }
            for v in VERDICTS
        ],
    }


def aspect_counts(records: Sequence[InteractionRecord]) -> tuple[Counter[str], Counter[str]]:
    """How often each misconception was detected and each concept was missing."""
    misconceptions: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    for record in records:
        result = record.feedback.result
        misconceptions.update(
            {d.aspect.name for d in result.allAspects if d.aspect.type is AspectType.MISCONCEPTION}
        )
        missing.update(
            {
                a.name
                for item in result.feedback
                if item.correctness is not Correctness.CORRECT
                for a in item.aspects
                if a.type is AspectType.CONCEPT
            }
        )
    return misconceptions, missing


def top_bars(counts: Counter[str], color: str, limit: int = 6) -> dict[str, Any]:
    """Horizontal bars of the most frequent names, the most frequent on top."""
    top = counts.most_common(limit)[::-1]
    return {
        "tooltip": {"trigger": "item"},
        "grid": {"left": 8, "right": 24, "bottom": 8, "top": 8, "containLabel": True},
        "xAxis": {"type": "value", "minInterval": 1, "splitLine": SPLIT_LINE},
        "yAxis": {"type": "category", "data": [_short(name) for name, _count in top]},
        "series": [
            {"type": "bar", "data": [n for _name, n in top], "itemStyle": {"color": color}, "barMaxWidth": 28}
        ],
    }


def _short(name: str, width: int = 34) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def history_view(studio: PageServices, task: TaskBase, records: Sequence[InteractionRecord]) -> None:
    if not records:
        empty_state(
            "timeline",
            _("No answers yet"),
            _("Try an answer in the Try tab: every answer and its feedback shows up here."),
        )
        return
    records = list(records)
    chosen: dict[str, Any] = {"user": "", "verdicts": [], "since": None, "until": None}

    def overridden(updated: InteractionRecord) -> None:
        """The teacher's verdict changed in an answer's dialog: its row (and the filters) follow."""
        records[:] = [updated if r.interactionId == updated.interactionId else r for r in records]
        answers.refresh()

    dialogs = ui.element("div")
    """The answers' dialogs live outside the list, which is rebuilt while one is open."""

    def shown() -> list[InteractionRecord]:
        return HistoryFilter(
            user=chosen["user"] or "",
            verdicts=frozenset(Correctness(v) for v in chosen["verdicts"] or []),
            since=day_of(chosen["since"]),
            until=day_of(chosen["until"]),
        ).apply(records)

    with ui.row().classes("w-full items-end gap-2"):
        for field, label, props in (
            ("user", _("Learner"), "clearable"),
            ("since", _("From"), 'type="date"'),
            ("until", _("To"), 'type="date"'),
        ):
            ui.input(label, value=chosen.get(field, "")).props(f"outlined dense {props}").classes(
                "min-w-36"
            ).bind_value(chosen, field).on_value_change(
                lambda: answers.refresh()
            )  # made with its value: see editor_fields.text
        ui.select({v.value: verdict_word(v) for v in VERDICTS}, multiple=True, label=_("Verdicts")).props(
            "outlined dense use-chips"
        ).classes("min-w-48").bind_value(chosen, "verdicts").on_value_change(lambda: answers.refresh())
        ui.space()
        ui.button(
            _("Export CSV"),
            icon="download",
            on_click=lambda: ui.download.content(
                csv_bytes(shown()), f"{task.id}-history.csv", media_type="text/csv"
            ),
        ).props("flat")

    @ui.refreshable
    def answers() -> None:
        matching = shown()
        if not matching:
            empty_state("filter_alt_off", _("No answer matches"), _("Clear a filter to see more answers."))
            return
        misconceptions, missing = aspect_counts(matching)
        with ui.element("div").classes("w-full grid grid-cols-1 lg:grid-cols-3 gap-3"):
            _chart_card(_("Verdicts over time"), verdicts_over_time(matching))
            _chart_card(
                _("Most frequent misconceptions"),
                top_bars(misconceptions, CHART_COLORS["WRONG"]),
                bool(misconceptions),
            )
            _chart_card(
                _("Most often missing concepts"), top_bars(missing, CHART_COLORS["PARTIAL"]), bool(missing)
            )
        section_title(
            _("Answers ({shown} of {count})").format(shown=len(matching), count=len(records))
            if len(matching) < len(records)
            else _("Answers ({count})").format(count=len(records))
        )
        with ui.list().props("bordered separator").classes("w-full rounded-borders"):
            for record in sorted(matching, key=lambda r: r.createdAt, reverse=True):
                _answer_row(studio, task, record, overridden, dialogs)

    answers()


def _chart_card(title: str, options: dict[str, Any], has_data: bool = True) -> None:
    with ui.card().classes("w-full gap-1").props("flat bordered"):
        ui.label(title).classes("text-sm font-medium")
        if has_data:
            ui.echart(options).classes("w-full h-56")
        else:
            ui.label(_("None so far.")).classes("text-sm opacity-70 h-56")


def _answer_row(
    studio: PageServices,
    task: TaskBase,
    record: InteractionRecord,
    overridden: Callable[[InteractionRecord], None],
    dialogs: ui.element,
) -> None:
    def show() -> None:
        with dialogs, dialog("w-full max-w-3xl") as box:
            override_section(studio, record, overridden)
            feedback_view(studio, task, record.feedback, rating=record.rating)
            ui.button(_("Close"), on_click=box.close).props("flat").classes("self-end")

    points = record.feedback.result.points
    with ui.item(on_click=show).props("clickable"):
        with ui.item_section().props("side"):
            verdict_badge(record.verdict.value).classes("w-16 justify-center")
            if record.override:
                verdict_badge(record.override.verdict.value).classes("w-16 justify-center").props(
                    "outline"
                ).tooltip(_("The teacher's verdict")).mark("teacher-verdict")
        with ui.item_section():
            ui.item_label(answer_excerpt(task, record.answer)).classes("truncate")
            ui.item_label(
                _("{time} · {learner} · version {version}").format(
                    time=date_time(record.createdAt), learner=record.userId, version=record.taskVersion
                )
            ).props("caption")
        with ui.item_section().props("side"):
            ui.label(f"{number(points.achievedPoints)}/{number(points.achievablePoints)}")
            if record.rating:
                ui.icon("thumb_up" if record.rating.type.value == "GOOD" else "thumb_down", size="1rem")
