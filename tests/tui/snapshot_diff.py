"""What differs between a snapshot and the screen a test drew, cell run by cell run, for the
failure report: pytest-textual-snapshot's own report is an HTML file that a CI log does not show,
and a snapshot that differs only in colours says nothing in a log otherwise."""

from __future__ import annotations

import html
import re
from collections import defaultdict

from pytest_textual_snapshot import normalize_svg

_STYLE = re.compile(r"\.(terminal-r\d+) \{ ([^}]*) \}")
_TEXT = re.compile(
    r'<text class="(terminal-r\d+)" x="([\d.]+)" y="[\d.]+" [^>]*?terminal-line-(\d+)\)">([^<]*)</text>'
)
_RECT = re.compile(
    r'<rect fill="(#[0-9a-f]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" shape-rendering'
)
_ROW_HEIGHT, _CELL_WIDTH, _TOP = 24.4, 12.2, 1.5


def _rows(svg: str) -> dict[int, list[str]]:
    """Each terminal row as its runs: ``col:text{style}`` for the text, ``col+width[fill]`` for the
    backgrounds, with the style written out (class numbers differ between two drawings)."""
    svg = normalize_svg(svg)
    styles = dict(_STYLE.findall(svg))
    rows: dict[int, list[str]] = defaultdict(list)
    for cls, x, line, text in _TEXT.findall(svg):
        rows[int(line)].append(
            f"{round(float(x) / _CELL_WIDTH)}:{html.unescape(text)!r}{{{styles.get(cls, cls)}}}"
        )
    for fill, x, y, width in _RECT.findall(svg):
        row = round((float(y) - _TOP) / _ROW_HEIGHT)
        rows[row].append(f"{round(float(x) / _CELL_WIDTH)}+{round(float(width) / _CELL_WIDTH)}[{fill}]")
    return rows


def _column(run: str) -> int:
    return int(re.match(r"\d+", run).group())  # type: ignore[union-attr]  # every run starts with its column


def describe(expected: str, actual: str, limit: int = 12) -> str:
    """The rows that differ, each as the runs only the snapshot has and those only the screen has."""
    before, after = _rows(expected), _rows(actual)
    lines: list[str] = []
    for row in sorted(before.keys() | after.keys()):
        gone = sorted(set(before.get(row, [])) - set(after.get(row, [])), key=_column)
        new = sorted(set(after.get(row, [])) - set(before.get(row, [])), key=_column)
        if gone or new:
            lines += [
                f"row {row}:",
                *(f"  snapshot {run}" for run in gone),
                *(f"  screen   {run}" for run in new),
            ]
        if len(lines) > limit * 8:
            lines.append("…")
            break
    return "\n".join(lines) or "no cell differs (the difference is outside the terminal's cells)"
