"""An answer with its evidence drawn as HTML: what core.client.rendering computed, marked up.

Every piece of text is escaped, since the answer is the learner's; only our own tags are HTML. A
marked piece is a <mark class="fs-mark fs-{verdict}"> of its gravest verdict, its tooltip listing
every message that points there; a speaker's name is bold.
"""

from __future__ import annotations

import html
from typing import Any

from core.api import TaskBase
from core.client import rendering
from core.client.rendering import Line, RenderedResult
from webui.i18n import _


def answer_html(rendered: RenderedResult) -> str:
    """The rendered answer as HTML lines (all text escaped)."""
    return "\n".join(line_html(line) for line in rendered.answer)


def line_html(line: Line) -> str:
    pieces = []
    for segment in line:
        text = html.escape(segment.text)
        if segment.speaker:
            pieces.append(f"<b>{text}</b>")
        elif (verdict := segment.verdict) is not None:
            notes = html.escape(segment.notes, quote=True)
            title = f' title="{notes}"' if notes else ""
            pieces.append(f'<mark class="fs-mark fs-{verdict.value.lower()}"{title}>{text}</mark>')
        else:
            pieces.append(text)
    return "".join(pieces)


def answer_excerpt(task: TaskBase, answer: dict[str, Any]) -> str:
    """An answer as one line of plain text in the page's language (core.client.rendering)."""
    return rendering.answer_excerpt(task, answer, _)
