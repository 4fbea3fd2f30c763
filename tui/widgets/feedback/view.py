"""A whole feedback: the verdict and points, the answer with its evidence, the feedback items,
the detected concepts and misconceptions, the sample solution, the end-user rating, and the
author's "this should be …" (a gold answer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from core.api import AspectType, ChatTurn, EndUserRating, Feedback, TaskBase
from core.client.rendering import render_result
from tui.i18n import _
from tui.labels import points_text, verdict_text
from tui.widgets.feedback.evidence import ASPECT_STYLES, EVIDENCE_STYLES, answer_view
from tui.widgets.feedback.gold import GoldBar
from tui.widgets.feedback.rating import RatingBar

LEGEND = Text.assemble(
    (_("correct"), EVIDENCE_STYLES["CORRECT"]),
    " ",
    (_("partly"), EVIDENCE_STYLES["PARTIAL"]),
    " ",
    (_("wrong"), EVIDENCE_STYLES["WRONG"]),
    " ",
    (_("no remark"), EVIDENCE_STYLES["UNKNOWN"]),
    "  " + _("evidence") + " · ",
    (_("concept"), ASPECT_STYLES[AspectType.CONCEPT]),
    " ",
    (_("misconception"), ASPECT_STYLES[AspectType.MISCONCEPTION]),
    " " + _("detected"),
    style="dim",
)


def items_text(feedback: Feedback) -> Text:
    lines = []
    for item in feedback.result.feedback:
        line = Text.assemble(verdict_text(item.correctness, word=False), f" {item.message}")
        line.append(f"  — {item.topic.name}", style="dim")
        if item.aspects:
            line.append(f"  [{', '.join(a.name for a in item.aspects)}]", style="italic dim")
        lines.append(line)
    return Text("\n").join(lines) if lines else Text(_("No feedback items."), style="dim")


def aspects_text(feedback: Feedback) -> Text:
    lines = []
    for found in feedback.result.allAspects:
        concept = found.aspect.type is AspectType.CONCEPT
        mark = (
            "✔ " + _("concept") if concept else "⚠ " + _("misconception"),
            ASPECT_STYLES[found.aspect.type],
        )
        lines.append(Text.assemble(mark, "        " if concept else "  ", found.aspect.name))
    return Text("\n").join(lines) if lines else Text(_("No concept or misconception detected."), style="dim")


class FeedbackView(Vertical):
    DEFAULT_CLASSES = "feedback-view"

    def __init__(
        self,
        feedback: Feedback,
        task: TaskBase | None,
        *,
        transcript: Sequence[ChatTurn] | None = None,
        rating: EndUserRating | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.feedback, self.definition, self.transcript, self.rating = feedback, task, transcript, rating

    def compose(self) -> ComposeResult:
        rendered = render_result(self.definition, self.feedback.result, _, self.transcript or ())
        result = rendered.result
        verdict = result.verdict
        points = points_text(result.points.achievedPoints, result.points.achievablePoints)
        banner = Text.assemble(verdict_text(verdict), f" · {points}")
        yield Static(banner, classes=f"verdict-banner verdict-{verdict.value.lower()}")
        yield Static(_("Answer"), classes="section-title")
        yield Static(answer_view(rendered), id="evidence")
        yield Static(LEGEND, classes="legend")
        yield Static(_("Feedback"), classes="section-title")
        yield Static(items_text(self.feedback), id="feedback-items")
        yield Static(_("Concepts and misconceptions"), classes="section-title")
        yield Static(aspects_text(self.feedback), id="detected-aspects")
        if rendered.sample_solution:
            yield Static(_("Sample solution"), classes="section-title")
            yield Static(rendered.sample_solution, id="sample-solution", markup=False)
        yield RatingBar(self.feedback.metaData.interactionId, self.rating)
        yield GoldBar(self.feedback)
