"""A problem statement as the learner sees it: the {{n}} markers become gaps or choice points."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from core.api.validation import GAP

GAP_STYLE = "bold reverse #5b8def"


def learner_view(statement: str, render_gap: Callable[[int], Text]) -> Text:
    """The statement with each marker replaced by ``render_gap(n)`` (n as written in the marker)."""
    text = Text()
    position = 0
    for match in GAP.finditer(statement):
        text.append(statement[position : match.start()])
        text.append_text(render_gap(int(match.group(1))))
        position = match.end()
    text.append(statement[position:])
    return text


def numbered_gap(n: int) -> Text:
    return Text(f" {n} ______ ", style=GAP_STYLE)


def choice_gap(options: dict[int, list[str]]) -> Callable[[int], Text]:
    def render(n: int) -> Text:
        return Text(f" {n}: {' / '.join(options.get(n, ['?']))} ", style=GAP_STYLE)

    return render
