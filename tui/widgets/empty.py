"""An empty state: says what is missing and what to do next, instead of an empty frame."""

from __future__ import annotations

from textual.widgets import Static


class EmptyState(Static):
    """A centred hint such as "No tasks yet — press n to create one"."""

    DEFAULT_CLASSES = "empty-state"
