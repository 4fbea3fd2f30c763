"""One feedback result as an author reads it: verdict and points, the answer with its evidence
marked, the feedback items, the detected aspects, the sample solution, and the end-user rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nicegui import ui

from core.api import AspectType, ChatTurn, Correctness, EndUserRating, Feedback, FeedbackItem, TaskBase
from core.client.interactions import interaction_label
from core.client.rendering import render_result
from core.client.vocabulary import ASPECT_TYPE_LABELS
from webui.components.answer_text import answer_html
from webui.components.gold import gold_bar
from webui.components.rating import rating_bar
from webui.i18n import _, language, number
from webui.page_services import PageServices
from webui.theme import VERDICT_ICONS, section_title, verdict_color, verdict_word


def feedback_view(
    studio: PageServices,
    task: TaskBase,
    feedback: Feedback,
    transcript: Sequence[ChatTurn] = (),
    *,
    for_learner: bool = False,
    rating: EndUserRating | None = None,
) -> None:
    """The feedback as an author reads it; ``for_learner`` leaves out what only authors need (the
    interaction id, the sample solution, the gold-answer bar)."""
    # for a learner: no missing concept named, no sample solution (core.client.learner)
    rendered = render_result(task, feedback.result, _, transcript, for_learner=for_learner)
    result = rendered.result
    verdict = result.points.verdict
    with ui.card().classes("w-full gap-3").props("flat bordered"):
        with ui.row().classes("w-full items-center gap-3"):
            ui.icon(VERDICT_ICONS[verdict], color=verdict_color(verdict), size="2rem")
            ui.label(verdict_word(verdict)).classes(f"text-xl font-bold text-{verdict_color(verdict)}")
            points = result.points
            ui.label(
                _("{achieved} / {achievable} points").format(
                    achieved=number(points.achievedPoints), achievable=number(points.achievablePoints)
                )
            ).classes("text-lg")
            ui.space()
            if not for_learner:  # its time and a distinct part: ids made in one minute begin alike
                interaction_id = feedback.metaData.interactionId
                label = _("interaction {id}").format(id=interaction_label(interaction_id, language()))
                ui.label(label).classes("text-xs opacity-70").tooltip(interaction_id).mark("interaction-id")

        section_title(_("Answer"))
        ui.html(answer_html(rendered), sanitize=False).classes("fs-answer w-full").mark("marked-answer")

        if result.feedback:
            section_title(_("Feedback"))
            for item in result.feedback:
                _item(item)

        if result.allAspects:
            section_title(_("Detected aspects"))
            with ui.row().classes("gap-2"):
                for aspect in {d.aspect.name: d.aspect for d in result.allAspects}.values():
                    misconception = aspect.type is AspectType.MISCONCEPTION
                    ui.chip(
                        aspect.name,
                        icon="report" if misconception else "lightbulb",
                        color="negative" if misconception else "positive",
                    ).props("outline dense").tooltip(aspect.description or _(ASPECT_TYPE_LABELS[aspect.type]))

        if rendered.sample_solution:
            with ui.expansion(_("Sample solution"), icon="school").classes("w-full").props("dense"):
                ui.label(rendered.sample_solution).classes("whitespace-pre-wrap").mark("sample-solution")

        rating_bar(studio, feedback.metaData.interactionId, rating)
        if not for_learner:
            gold_bar(studio, feedback)


def _item(item: FeedbackItem[Any]) -> None:
    color = verdict_color(item.correctness)
    with (
        ui.row()
        .classes("w-full no-wrap items-start gap-3 pl-3")
        .style(f"border-left: 4px solid var(--q-{color}, #9ca3af)")
    ):
        ui.icon(VERDICT_ICONS.get(item.correctness, VERDICT_ICONS[Correctness.UNKNOWN]), color=color)
        with ui.column().classes("gap-1"):
            ui.label(item.message)
            with ui.row().classes("gap-1 items-center"):
                ui.label(item.topic.name).classes("text-xs opacity-70")
                for aspect in item.aspects:
                    ui.badge(
                        aspect.name,
                        color="negative" if aspect.type is AspectType.MISCONCEPTION else "primary",
                    ).props("outline")
