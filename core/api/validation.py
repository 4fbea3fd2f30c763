"""Rules of a task definition that span several fields, checked before a task is stored or used.

Kept apart from the models so that the alpha aspects call can take a task that is only a sketch.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.api.errors import InvalidParameter
from core.api.tasks import (
    InTextChoicesTask,
    InTextFillInBlanksTask,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)

GAP = re.compile(r"\{\{(\d+)\}\}")

SERVER_ID_PREFIX = "sim:"
"""The prefix of the ids the server makes where clients name ids too: the tutor and the conversation
of a simulation session (``sim:<task>``, ``sim:<uuid>``). No client may name an id with it, so no
client can create, squat on or shadow an object the server will make."""


def check_client_id(kind: str, value: str) -> None:
    """Refuse an id a client names (a tutor's, a new conversation's) that the server reserves."""
    if value.startswith(SERVER_ID_PREFIX):
        raise InvalidParameter(
            f"{kind} ids starting with {SERVER_ID_PREFIX!r} are reserved for the server, which makes "
            "them for simulation sessions (POST /simulation/start); choose another id"
        )


def gap_numbers(problem_statement: str) -> list[int]:
    """The gap or choice-point numbers marked in a problem statement, in order of appearance."""
    return [int(m.group(1)) for m in GAP.finditer(problem_statement)]


@lru_cache(maxsize=1024)
def _gaps_marked_once_each(problem_statement: str, count: int) -> bool:
    """Whether the statement marks {{1}} … {{count}} once each: the engines check every task they
    judge, and a stored task's statement is the same text answer after answer."""
    return sorted(gap_numbers(problem_statement)) == list(range(1, count + 1))


def check_task(task: TaskBase) -> None:
    """Raise InvalidParameter with a message an author can act on when the task cannot be used."""
    where = f"task {task.id!r}"
    if isinstance(task, MultipleChoiceTask):
        if len(task.options) < 2:
            raise InvalidParameter(f"{where}: a multiple-choice task needs at least two options")
        correct = sum(o.correct for o in task.options)
        if correct != 1:
            raise InvalidParameter(f"{where}: exactly one option must be correct, found {correct}")
    elif isinstance(task, MultipleResponsesTask):
        if not task.options:
            raise InvalidParameter(f"{where}: a multiple-responses task needs options")
    elif isinstance(task, InTextFillInBlanksTask | InTextChoicesTask):
        items = task.blanks if isinstance(task, InTextFillInBlanksTask) else task.choices
        noun = "blanks" if isinstance(task, InTextFillInBlanksTask) else "choices"
        if not _gaps_marked_once_each(task.problemStatement, len(items)):
            gaps = gap_numbers(task.problemStatement)
            raise InvalidParameter(
                f"{where}: the problem statement must mark {{{{1}}}} … {{{{{len(items)}}}}} once each for "
                f"its {len(items)} {noun}; found {gaps or 'no markers'}"
            )
        if isinstance(task, InTextChoicesTask):
            for i, point in enumerate(task.choices, start=1):
                if point.correct not in point.options:
                    raise InvalidParameter(f"{where}: choice {i}: correct {point.correct!r} is not an option")
    elif isinstance(task, SimulationTask) and task.persona is None:
        raise InvalidParameter(f"{where}: a simulation task needs a persona")
    terms = [entry.term.strip().casefold() for entry in task.glossary or ()]
    twice = next((term for term in terms if terms.count(term) > 1), None)
    if twice is not None:
        raise InvalidParameter(f"{where}: the glossary explains {twice!r} more than once; keep one entry")
    if "" in terms:
        raise InvalidParameter(f"{where}: a glossary entry has no term")
