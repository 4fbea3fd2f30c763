"""What the grounded tutor remembers of a conversation: the learner's progress, concept by concept.

One global hint ladder let the second concept be told outright once the first was found, and let
any message that looked like an attempt climb it. So the tutor keeps, per concept, whether the
learner has shown it and how many hints it has had; the next hint is about one missing concept
and climbs only after a new attempt at that concept. A conversation is solved once an attempt is
judged CORRECT, and stays solved. The state is stored with each turn as plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TASK_WIDE = ""
"""The key of hints that are about the task as a whole (a task without authored concepts)."""
KEPT_ATTEMPTS = 20


@dataclass(slots=True)
class Progress:
    shown: list[str] = field(default_factory=list)
    """Concepts the learner has shown, in the order they were first shown."""
    hints: dict[str, int] = field(default_factory=dict)
    """Hints given per concept (or :data:`TASK_WIDE`): the next one is the rung at this count."""
    attempts: list[str] = field(default_factory=list)
    """Fingerprints of the learner's attempts, to tell a new attempt from the same one again."""
    focus: str | None = None
    """The concept the last hint was about."""
    solved: bool = False
    turns: int = 0
    """Learner turns so far; it picks the phrasing, so that two replies in a row differ."""

    @classmethod
    def of(cls, state: dict[str, Any]) -> Progress:
        return cls(
            shown=list(state.get("shown", [])),
            hints={str(k): int(v) for k, v in dict(state.get("hints", {})).items()},
            attempts=list(state.get("attempts", [])),
            focus=state.get("focus"),
            solved=bool(state.get("solved", False)),
            turns=int(state.get("turns", 0)),
        )

    def state(self) -> dict[str, Any]:
        return {
            "shown": self.shown,
            "hints": self.hints,
            "attempts": self.attempts[-KEPT_ATTEMPTS:],
            "focus": self.focus,
            "solved": self.solved,
            "turns": self.turns,
        }

    def show(self, concepts: list[str]) -> list[str]:
        """Record concepts shown in an attempt; the ones shown for the first time."""
        new = [c for c in concepts if c not in self.shown]
        self.shown += new
        return new

    def given(self, key: str) -> int:
        return self.hints.get(key, 0)

    def climb(self, key: str) -> None:
        self.hints[key] = self.given(key) + 1
