"""An answer with its evidence drawn as Rich text: what core.client.rendering computed, coloured.

The feedback items colour their pieces by correctness (background); detected aspects underline
theirs (green a concept, red a misconception); a speaker's name is bold.
"""

from __future__ import annotations

from rich.text import Text

from core.api import AspectType, Correctness
from core.client.rendering import Line, RenderedResult, Segment, gravest

EVIDENCE_STYLES: dict[str, str] = {
    Correctness.CORRECT: "on #1d4a31",
    Correctness.PARTIAL: "on #5a4a17",
    Correctness.WRONG: "on #5c2423",
    Correctness.UNKNOWN: "on #30363d",
}
ASPECT_STYLES: dict[AspectType, str] = {
    AspectType.CONCEPT: "underline bold #2fbf71",
    AspectType.MISCONCEPTION: "underline bold #e5534b",
}


def segment_style(segment: Segment) -> str:
    """The background of the gravest item's verdict, the underline of the gravest aspect."""
    if segment.speaker:
        return "bold"
    styles = []
    if (verdict := gravest(m.verdict for m in segment.marks if m.aspect is None)) is not None:
        styles.append(EVIDENCE_STYLES[verdict])
    aspects = {m.aspect for m in segment.marks if m.aspect is not None}
    if aspects:
        styles.append(
            ASPECT_STYLES[
                AspectType.MISCONCEPTION if AspectType.MISCONCEPTION in aspects else AspectType.CONCEPT
            ]
        )
    return " ".join(styles)


def line_text(line: Line) -> Text:
    return Text.assemble(*((segment.text, segment_style(segment)) for segment in line))


def answer_view(rendered: RenderedResult) -> Text:
    """The rendered answer, one line of text per line of it."""
    return Text("\n").join(line_text(line) for line in rendered.answer)
