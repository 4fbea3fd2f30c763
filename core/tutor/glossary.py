"""A glossary of the task: what the tutor can say about a term the learner asks about.

A learner asking "what is a circuit?" wants an explanation, not the hint again, nor the sentence
of the task they asked about quoted back. The tutor has no dictionary; what it knows of a term is
what the task's author wrote: first the task's glossary (``glossary``: a term and its explanation,
written for learners; a question matches an entry when its words are the entry's term, by lemma,
or all within it: "circuit" finds "electric circuit"), then the aspect groups'
descriptions (a topic, written for learners and authors alike), the concepts' descriptions, and
the context where it defines the term ("A Punnett square is …"; a context is often a course label,
"Physics, lower secondary: …", which explains nothing). A concept's description states the
concept, so it explains a term only once the learner has shown that concept, or when it states
none the learner has not shown: every explanation must pass the leak guard (``safe``) before it is
chosen. Words are compared by lemma, not by stem (French "filament" and "fils" share a stem).
Any other term gets one honest, neutral reply: the tutor cannot explain it from this task, ask
your notes or your teacher. It never names the term nor says whether the task uses it: "it is not in the task"
for some words and something else for the answer's would let a learner probe for the answer
word by word (on a blanks or choice task the answer *is* a word).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.api import AspectDefinition, AspectType, TaskBase
from core.api.tasks import GlossaryEntry
from core.engine.text.languages import lemma
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


DEFINING: dict[str, frozenset[str]] = {
    "en": frozenset({"is", "are", "means", "refers", "describes", "denotes", "names"}),
    "de": frozenset({"ist", "sind", "bedeutet", "heißt", "heisst", "bezeichnet", "nennt", "meint"}),
    "fr": frozenset({"est", "sont", "désigne", "signifie", "veut", "décrit"}),
    "it": frozenset({"è", "sono", "significa", "indica", "designa", "descrive"}),
    "es": frozenset({"es", "son", "significa", "designa", "indica", "describe"}),
}
"""Words that make a sentence a definition of the term before them ("A battery is …"): the task's
context is also a course label ("Physics, lower secondary: simple electric circuits."), which
explains no term, so only its definitions are."""


def _words(text: str, base: str) -> list[tuple[str, str]]:
    """The content words of a text, as (lemma, the word as written, normalised)."""
    return [(lemma(base, t.norm), t.norm) for t in analyse(text, base).content]


def lemmas(text: str, base: str) -> set[str]:
    """Words compared by lemma, not by stem: a stem joins words a learner tells apart (French
    "filament" and "fils" are both "fil")."""
    return {w for pair in _words(text, base) for w in pair}


def _defines(sentence: str, wanted: set[str], base: str) -> bool:
    """The sentence says what the term is: a defining word right after it ("A battery is …")."""
    tokens = analyse(sentence, base).tokens
    for i, token in enumerate(tokens):
        if {lemma(base, token.norm), token.norm} & wanted:
            following = [t.norm for t in tokens[i + 1 : i + 3]]
            if any(word in DEFINING[base] for word in following):
                return True
    return False


def _sentences_using(texts: Iterable[str], wanted: set[str], base: str) -> list[str]:
    found = []
    for text in texts:
        for span in sentences(text):
            sentence = span.text(text)
            if wanted <= lemmas(sentence, base):
                found.append(sentence)
    return found


def glossary_entries(term: str, task: TaskBase, base: str) -> list[GlossaryEntry]:
    """The entries of the task's glossary for ``term``, the best first: the entry whose term is
    the asked words, then entries whose term holds them all ("circuit" in "electric circuit"),
    the shortest first."""
    wanted = {word for word, _ in _words(term, base)}
    if not wanted or not task.glossary:
        return []
    found: list[tuple[int, GlossaryEntry]] = []
    for entry in task.glossary:
        words = {word for word, _ in _words(entry.term, base)} or {entry.term.casefold()}
        if words == wanted:
            found.append((0, entry))
        elif wanted <= words:
            found.append((len(words), entry))
    return [entry for _, entry in sorted(found, key=lambda pair: pair[0])]


def look_up(
    term: str,
    task: TaskBase,
    aspects: list[AspectDefinition],
    base: str,
    safe: Callable[[str], bool],
) -> Entry:
    """The task's entry for ``term``; ``aspects``: the ones a hint may be about."""
    wanted = {word for word, _ in _words(term, base)}
    if not wanted:
        return Entry()
    usage = next(iter(_sentences_using([task.problemStatement], wanted, base)), None)
    authored = [entry.explanation for entry in glossary_entries(term, task, base)]
    explanation = next((text for text in authored if safe(text)), None)
    if explanation is not None:
        return Entry(explanation, usage)
    groups = list(dict.fromkeys(a.aspectGroup.description for a in aspects if a.aspectGroup))
    concepts = [a.description for a in aspects if a.type is AspectType.CONCEPT]
    sources = [*(g for g in groups if g), *concepts]
    definitions = [s for s in _sentences_using([task.context], wanted, base) if _defines(s, wanted, base)]
    found = [*_sentences_using(sources, wanted, base), *definitions]
    explanation = next((s for s in found if safe(s)), None)
    return Entry(explanation, usage)
