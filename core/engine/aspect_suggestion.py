"""POST /tasks/aspects/compute (alpha): the aspects an author may want for a task.

Key concepts come from what a correct answer contains (sample solutions, correct options,
accepted blanks), or from the problem statement when that is all there is; each sentence or
list item becomes one CONCEPT named by its leading content words. For choice tasks each wrong
option is an idea a learner may hold: a MISCONCEPTION. Aspects the author already defined come
first, unchanged. Works for any of the six task kinds with nothing beyond id, type and statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.api import (
    Aspect,
    AspectDefinition,
    AspectType,
    FreeformTextTask,
    InTextChoicesTask,
    InTextFillInBlanksTask,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)
from core.engine.base import to_aspect
from core.engine.text.languages import base_of
from core.engine.text.tokens import analyse

NAME_WORDS = 4
GAP_MARK = re.compile(r"\{\{\s*\d+\s*\}\}")


def suggest_aspects(task: TaskBase) -> list[Aspect]:
    base = base_of(task.language)
    suggested: list[Aspect] = [to_aspect(a) for a in _defined_aspects(task)]
    references = list(_correct_texts(task)) or [GAP_MARK.sub(" ", task.problemStatement)]
    for text in references:
        suggested += [_aspect(idea, base, AspectType.CONCEPT) for idea in _ideas(text, base)]
    for text in _wrong_texts(task):
        suggested.append(_aspect(text.strip(), base, AspectType.MISCONCEPTION))
    return _unique(a for a in suggested if a.name)


def _defined_aspects(task: TaskBase) -> Iterable[AspectDefinition]:
    if isinstance(task, FreeformTextTask | SimulationTask):
        yield from task.aspects
    for option in getattr(task, "options", []):
        yield from option.aspects
    for part in getattr(task, "blanks", []) + getattr(task, "choices", []):
        yield from part.aspects


def _correct_texts(task: TaskBase) -> Iterable[str]:
    if isinstance(task, FreeformTextTask):
        yield from (s.content for s in task.sampleSolutions if s.content.strip())
    elif isinstance(task, SimulationTask) and task.sampleSolution.strip():
        yield task.sampleSolution
    elif isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        yield from (o.content for o in task.options if o.correct and o.content.strip())
    elif isinstance(task, InTextFillInBlanksTask) and task.blanks:
        yield _filled(task.problemStatement, [b.acceptedAnswers[0] for b in task.blanks])
    elif isinstance(task, InTextChoicesTask) and task.choices:
        yield _filled(task.problemStatement, [c.correct for c in task.choices])


def _wrong_texts(task: TaskBase) -> Iterable[str]:
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        yield from (o.content for o in task.options if not o.correct and o.content.strip())
    elif isinstance(task, InTextChoicesTask):
        for choice in task.choices:
            yield from (o for o in choice.options if o != choice.correct and o.strip())


def _filled(statement: str, answers: list[str]) -> str:
    """The statement with its gaps filled by the correct answers: the sentence a learner should make."""

    def fill(match: re.Match[str]) -> str:
        number = int(re.sub(r"\D", "", match.group()))
        return answers[number - 1] if 0 < number <= len(answers) else " "

    return GAP_MARK.sub(fill, statement)


def _ideas(text: str, base: str) -> list[str]:
    analysis = analyse(text, base)
    return [
        sentence.text(text)
        for sentence in analysis.sentences
        if any(not t.stop for t in analyse(sentence.text(text), base).tokens)
    ] or ([text.strip()] if text.strip() else [])


def _aspect(idea: str, base: str, kind: AspectType) -> Aspect:
    """Named by its leading content words, or by its whole negated clause, since dropping the
    negation would name the opposite idea."""
    analysis = analyse(idea, base)
    words = [idea[t.start : t.end] for t in analysis.tokens if not t.stop and not t.negation]
    name = " ".join(words[:NAME_WORDS]) if words else " ".join(idea.split())[:80]
    negation = next((t for t in analysis.tokens if t.negation), None)
    if negation is not None:
        clause = [t for t in analysis.tokens if t.clause == negation.clause]
        name = " ".join(idea[clause[0].start : clause[-1].end].split())
    return Aspect(name=name[:200], description=" ".join(idea.split()), type=kind)


def _unique(aspects: Iterable[Aspect]) -> list[Aspect]:
    seen: set[tuple[str, AspectType]] = set()
    result = []
    for aspect in aspects:
        key = (aspect.name.casefold(), aspect.type)
        if key not in seen:
            seen.add(key)
            result.append(aspect)
    return result
