"""What the grounded tutor remembers of a conversation: the learner's progress, concept by concept.

One global hint ladder let the second concept be told outright once the first was found, and let
any message that looked like an attempt climb it. So the tutor keeps, per concept, whether the
learner has shown it and how many hints it has had; the next hint is about one missing concept
and climbs when the learner moves: a new attempt, a wrong guess, "I don't know", "go on", a
request for a hint. Every hint given is remembered by what it says, so none is given twice. A
conversation is solved once an attempt is judged CORRECT, and stays solved. The state is stored
with each turn as plain JSON.
"""

from __future__ import annotations

import hashlib
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
    told: list[str] = field(default_factory=list)
    """Every hint given, by what it says (:func:`hint_mark`): a hint is never given twice, whichever
    concept's ladder reaches it (two concepts may point at the same sentence of the task)."""
    gaps: list[int] = field(default_factory=list)
    """The gaps (from 1) the last attempt at a blanks or in-text choices task had wrong."""
    last: list[Any] | None = None
    """The last hint given, to say again: [concept (or :data:`TASK_WIDE`), rung, worked example]."""

    @classmethod
    def of(cls, state: dict[str, Any]) -> Progress:
        return cls(
            shown=list(state.get("shown", [])),
            hints={str(k): int(v) for k, v in dict(state.get("hints", {})).items()},
            attempts=list(state.get("attempts", [])),
            focus=state.get("focus"),
            solved=bool(state.get("solved", False)),
            turns=int(state.get("turns", 0)),
            told=list(state.get("told", [])),
            gaps=[int(g) for g in state.get("gaps", [])],
            last=list(state["last"]) if state.get("last") else None,
        )

    def state(self) -> dict[str, Any]:
        return {
            "shown": self.shown,
            "hints": self.hints,
            "attempts": self.attempts[-KEPT_ATTEMPTS:],
            "focus": self.focus,
            "solved": self.solved,
            "turns": self.turns,
            "told": self.told,
            "gaps": self.gaps,
            "last": self.last,
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

    def record(self, mark: str) -> bool:
        """Record a hint as given; False when it was given before."""
        if mark in self.told:
            return False
        self.told.append(mark)
        return True


def hint_mark(kind: str, text: str) -> str:
    """A short, stable mark of a hint by its kind and what it says (not by its phrasing)."""
    return hashlib.sha1(f"{kind}:{text}".encode()).hexdigest()[:12]
