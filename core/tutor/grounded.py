"""The grounded tutor: offline, deterministic, and bound to one task.

It knows the task (problem statement, aspects, sample solution) and answers along a hint ladder:

0. ask what the learner has tried,
1. point to where in the task to look,
2. ask one guiding question,
3. name the concept,
4. give a partial step.

It climbs one rung only after a *new* attempt, never because the learner asks for the answer:
pressure does not buy hints, trying does. An attempt is diagnosed with the feedback engine of the
task (through :func:`core.engine.compute_result`), so the tutor praises what is there, names a
misconception, and aims its hint at the first concept still missing. Every sentence comes from the
tutor catalogue in the task's language; the reply is two short messages streamed in small pieces.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from core.api import (
    AspectDefinition,
    AspectType,
    Correctness,
    FreeformTextAnswer,
    FreeformTextTask,
    MultipleChoiceAnswer,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)
from core.engine import EngineContext, EngineUnavailable, compute_result
from core.engine.text.languages import base_of
from core.engine.text.segment import sentences
from core.engine.text.tokens import analyse
from core.tutor.base import PlannedEngine, Turn
from core.tutor.leak_guard import solution_texts

TOP_RUNG = 4
RUNG_NAMES = ("ask_tried", "where_to_look", "guiding_question", "concept", "partial_step")

DEMANDS: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(answers?|solutions?|solve|tell me|give me|show me|reveal|just say|write it|do it for me|"
        r"what is it|pretend|role-?play|act as|ignore)\b",
        re.IGNORECASE,
    ),
    "de": re.compile(
        r"\b(antwort\w*|lösung\w*|lös\w*|sag\w* mir|sag es|verrat\w*|gib mir|zeig mir|schreib\w* (es|sie)|"
        r"tu so|stell dir vor|rollenspiel|spiel\w*|ignorier\w*)\b",
        re.IGNORECASE,
    ),
    "fr": re.compile(r"\b(réponse|solution|dis-moi|donne-moi|montre-moi|révèle|résous)\b", re.IGNORECASE),
    "it": re.compile(r"\b(risposta|soluzione|dimmi|dammi|mostrami|rivela|risolvi)\b", re.IGNORECASE),
    "es": re.compile(r"\b(respuesta|solución|dime|dame|muéstrame|revela|resuelve)\b", re.IGNORECASE),
}
"""Asking for the answer (or for a way around the tutor), per language; it never climbs the ladder."""


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """What the feedback engine found in an attempt."""

    shown: tuple[AspectDefinition, ...]
    misconceptions: tuple[AspectDefinition, ...]
    correct: bool
    answered: bool = False
    """The message reads as a definite answer (it names an option), so it is an attempt."""
    note: str | None = None
    """The engine's feedback on a definite answer that is not right (the author's word on that option)."""


def _declared_aspects(task: TaskBase | None) -> list[AspectDefinition]:
    if isinstance(task, FreeformTextTask | SimulationTask):
        return list(task.aspects)
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        return [a for option in task.options for a in option.aspects]
    return []


def aspects_of(task: TaskBase | None) -> list[AspectDefinition]:
    """The aspects a hint may be about. A correct option's aspects name the answer, so they never are."""
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        return [a for option in task.options if not option.correct for a in option.aspects]
    return _declared_aspects(task)


def _as_answer(turn: Turn) -> FreeformTextAnswer | MultipleChoiceAnswer | None:
    """The learner's message as an answer to the task, where it reads as one.

    A freeform message is an answer as it stands; a multiple-choice message is one when it names
    exactly one option (all the option's words are in it).
    """
    task = turn.task
    if isinstance(task, FreeformTextTask):
        return FreeformTextAnswer(content=turn.message)
    if isinstance(task, MultipleChoiceTask):
        base = base_of(turn.language)
        words = set(_content(turn.message, base))
        named = [
            i
            for i, o in enumerate(task.options)
            if (stems := set(_content(o.content, base))) <= words and stems
        ]
        return MultipleChoiceAnswer(selectedIndex=named[0]) if len(named) == 1 else None
    return None


def diagnose(turn: Turn) -> Diagnosis | None:
    """The feedback engine's judgement of the learner's message, or None where it cannot judge."""
    answer = _as_answer(turn)
    if turn.task is None or answer is None:
        return None
    try:
        result = compute_result(turn.task, answer, EngineContext(catalogue=turn.catalogue))
    except EngineUnavailable:
        return None
    by_name = {a.name: a for a in _declared_aspects(turn.task)}
    found = [by_name[d.aspect.name] for d in result.allAspects if d.aspect.name in by_name]
    answered = isinstance(answer, MultipleChoiceAnswer)
    wrong = [i.message for i in result.feedback if i.correctness is not Correctness.CORRECT]
    return Diagnosis(
        shown=tuple(a for a in found if a.type is AspectType.CONCEPT),
        misconceptions=tuple(a for a in found if a.type is AspectType.MISCONCEPTION),
        correct=result.points.verdict is Correctness.CORRECT,
        answered=answered,
        note=wrong[0] if answered and wrong else None,
    )


@dataclass(slots=True)
class Ladder:
    """The conversation state the grounded tutor keeps between turns."""

    rung: int = 0
    attempts: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: dict[str, Any]) -> Ladder:
        return cls(rung=int(state.get("rung", 0)), attempts=list(state.get("attempts", [])))

    def state(self) -> dict[str, Any]:
        return {"rung": self.rung, "attempts": self.attempts[-20:]}


def _content(text: str, base: str) -> list[str]:
    return [t.stem for t in analyse(text, base).content]


def _vocabulary(task: TaskBase, base: str) -> set[str]:
    texts = [task.problemStatement, task.title, *solution_texts(task)]
    for aspect in aspects_of(task):
        texts += [aspect.name, aspect.description, *aspect.cues]
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        texts += [o.content for o in task.options]
    return {stem for text in texts for stem in _content(text, base)}


def is_attempt(turn: Turn, diagnosis: Diagnosis | None, demand: bool) -> bool:
    """An answer to the task, rather than a question, a greeting or a demand for the solution."""
    if diagnosis is not None and (diagnosis.answered or diagnosis.shown or diagnosis.misconceptions):
        return True
    if demand or turn.task is None or turn.message.rstrip().endswith("?"):
        return False
    base = base_of(turn.language)
    words = _content(turn.message, base)
    return len(words) >= 2 and bool(set(words) & _vocabulary(turn.task, base))


def fingerprint(text: str, base: str) -> str:
    """Equal for the same attempt written again (order, case and inflection aside)."""
    return hashlib.sha1(" ".join(sorted(set(_content(text, base)))).encode()).hexdigest()[:16]


def focus_aspect(task: TaskBase | None, diagnosis: Diagnosis | None) -> AspectDefinition | None:
    """The concept the next hint is about: the first one the learner has not shown yet."""
    shown = {a.name for a in diagnosis.shown} if diagnosis else set()
    missing = [a for a in aspects_of(task) if a.type is AspectType.CONCEPT and a.name not in shown]
    return missing[0] if missing else None


def where_to_look(task: TaskBase, aspect: AspectDefinition | None, base: str) -> str:
    """The sentence of the problem statement that shares most words with the aspect."""
    spans = sentences(task.problemStatement)
    if not spans:
        return task.problemStatement
    if aspect is None:
        return spans[0].text(task.problemStatement)
    target = set(_content(" ".join([aspect.name, aspect.description, *aspect.cues]), base))
    best = max(spans, key=lambda s: len(set(_content(s.text(task.problemStatement), base)) & target))
    return best.text(task.problemStatement)


def hint(turn: Turn, task: TaskBase, rung: int, aspect: AspectDefinition | None) -> str:
    base = base_of(turn.language)
    if rung == 0:
        return turn.text("tutor.hint_ask_tried")
    if rung == 1:
        return turn.text("tutor.hint_where_to_look", excerpt=where_to_look(task, aspect, base))
    if aspect is None:
        return turn.text(f"tutor.hint_{RUNG_NAMES[rung]}_general", title=task.display_title)
    if rung == 2:
        return turn.text("tutor.hint_guiding_question", aspect=aspect.name)
    if rung == 3:
        return turn.text("tutor.hint_concept", concept=aspect.description or aspect.name)
    step = aspect.cues[0] if aspect.cues else aspect.message or aspect.name
    return turn.text("tutor.hint_partial_step", step=step)


def opening(
    turn: Turn, diagnosis: Diagnosis | None, attempt: bool, repeated: bool, demand: bool
) -> str | None:
    """The first message: what the tutor makes of the learner's message."""
    if repeated:
        return turn.text("tutor.same_attempt")
    if attempt and diagnosis is not None and diagnosis.misconceptions:
        wrong = diagnosis.misconceptions[0]
        return wrong.message or turn.text("tutor.misconception", description=wrong.description or wrong.name)
    if attempt and diagnosis is not None and diagnosis.shown:
        return turn.text("tutor.progress", shown=", ".join(a.name for a in diagnosis.shown))
    if attempt and diagnosis is not None and diagnosis.note:
        return diagnosis.note
    if attempt:
        return turn.text("tutor.attempt_noted")
    if demand:
        return turn.text("tutor.no_solution")
    if not any(m.role == "assistant" for m in turn.history):
        return turn.text("tutor.welcome", title=turn.task.display_title if turn.task else "")
    return None


class GroundedTutor(PlannedEngine):
    name = "grounded"

    def plan(self, turn: Turn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """The reply's messages, the new state and the debug entry; pure, so it is tested directly."""
        if turn.task is None:
            return [turn.text("tutor.no_task")], dict(turn.state), {"engine": self.name, "task": None}
        base = base_of(turn.language)
        ladder = Ladder.of(dict(turn.state))
        diagnosis = diagnose(turn)
        demand = bool(DEMANDS[base].search(turn.message))
        attempt = is_attempt(turn, diagnosis, demand)
        mark = fingerprint(turn.message, base)
        repeated = attempt and mark in ladder.attempts
        if attempt and not repeated:
            ladder.attempts.append(mark)
            ladder.rung = min(ladder.rung + 1, TOP_RUNG)
        debug = {
            "engine": self.name,
            "attempt": attempt,
            "repeated": repeated,
            "demand": demand,
            "rung": RUNG_NAMES[ladder.rung],
            "diagnosis": None
            if diagnosis is None
            else {
                "shown": [a.name for a in diagnosis.shown],
                "misconceptions": [a.name for a in diagnosis.misconceptions],
                "correct": diagnosis.correct,
            },
        }
        if attempt and diagnosis is not None and diagnosis.correct and not diagnosis.misconceptions:
            return [turn.text("tutor.correct")], ladder.state(), debug
        first = opening(turn, diagnosis, attempt, repeated, demand)
        focus = focus_aspect(turn.task, diagnosis)
        debug["focus"] = focus.name if focus else None
        messages = [m for m in (first, hint(turn, turn.task, ladder.rung, focus)) if m]
        return messages, ladder.state(), debug
