"""A glossary of the task: what the tutor can say about a term the learner asks about.

A learner asking "what is a circuit?" wants an explanation, not the hint again. The tutor has no
dictionary; what it knows of a term is what the task's author wrote: the problem statement and
context, the aspect groups' descriptions (a topic, written for learners and authors alike) and
the concepts' descriptions. A concept's description states the concept, so it explains a term only
once the learner has shown that concept, or when it states none the learner has not shown: every
explanation must pass the leak guard (``safe``) before it is chosen. Any other term gets one
neutral reply, which neither names it nor says whether the task uses it: "it is not in the task"
for some words and something else for the answer's would let a learner probe for the answer
word by word (on a blanks or choice task the answer *is* a word).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.api import AspectDefinition, AspectType, TaskBase
from core.engine.text.segment import sentences
from core.engine.text.tokens import analyse


@dataclass(frozen=True, slots=True)
class Entry:
    """What the task says about a term."""

    explanation: str | None = None
    """A sentence of the context, an aspect group's or a concept's description that uses the term
    and is safe to say."""
    usage: str | None = None
    """The sentence of the problem statement that uses the term."""


def _stems(text: str, base: str) -> set[str]:
    return {t.stem for t in analyse(text, base).content}


def _sentences_using(texts: Iterable[str], wanted: set[str], base: str) -> list[str]:
    found = []
    for text in texts:
        for span in sentences(text):
            sentence = span.text(text)
            if wanted <= _stems(sentence, base):
                found.append(sentence)
    return found


def look_up(
    term: str,
    task: TaskBase,
    aspects: list[AspectDefinition],
    base: str,
    safe: Callable[[str], bool],
) -> Entry:
    """The task's entry for ``term``; ``aspects``: the ones a hint may be about."""
    wanted = _stems(term, base)
    if not wanted:
        return Entry()
    usage = next(iter(_sentences_using([task.problemStatement], wanted, base)), None)
    groups = list(dict.fromkeys(a.aspectGroup.description for a in aspects if a.aspectGroup))
    concepts = [a.description for a in aspects if a.type is AspectType.CONCEPT]
    sources = [*(g for g in groups if g), *concepts, task.context]
    explanation = next((s for s in _sentences_using(sources, wanted, base) if safe(s)), None)
    return Entry(explanation, usage)
