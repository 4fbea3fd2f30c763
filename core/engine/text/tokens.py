"""Words of a text with their offsets, normalised form, stem, and whether a negation covers them.

Negation is judged per clause: a clause ends at a sentence end, at clause punctuation, at a
connective ("because", "aber", "mais" …) or where "and"/"or" joins a new subject ("there is no gap
and the voltage is 0": the voltage is not denied). In a clause, the words after a negation word are negated
("the bulb is not lit"); in German, where the negation often stands last ("leuchtet die Lampe
nicht"), a final negation covers the whole clause. A negation right before a connective denies
what follows ("not because the Earth is closer"), so it covers that clause too. Negated words
carry a distinct feature, so "not connected" never counts as "connected".

Values name an element or a quantity: a number ("0", "12", "zero" is "0"), or a letter or code
that labels something ("bulb A", "switch Z", "S1"). A letter label has a stem of its own, so the
article "a" never stands for bulb A; an answer that names another value where the sample solution
names one says something else (:func:`coverage.substituted`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from core.engine.text.languages import (
    CLAUSE_CONNECTIVES,
    COORDINATORS,
    LETTER_WORDS,
    NEGATION_WORDS,
    SENTENCE_OPENING_LETTERS,
    SEPARABLE_PARTICLES,
    SMALL_LABEL_LETTERS,
    SUBJECT_OPENERS,
    antonyms,
    lemma,
    stem,
    stop_words,
)
from core.engine.text.normalise import normalise_word
from core.engine.text.segment import Span, clause_breaks, sentences

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
NEGATED = "¬"
LABEL = "#"
"""Prefix of a letter label's stem: "bulb A" names A, which the article "a" must not match."""


class Token(NamedTuple):
    """A word of a text (a named tuple: answers have hundreds and they are built per answer)."""

    start: int
    end: int
    norm: str
    """The normalised word without elided articles ("l'eau" → "eau") or English "'s"."""
    stem: str
    stop: bool
    negation: bool
    """The word itself negates ("not", "nicht", "n'est")."""
    negated: bool
    """A negation word of the same clause covers this word."""
    sentence: int
    clause: int
    value: bool = False
    """The word is a number or a label ("bulb A"): see the module's docstring."""
    closed_at: int = 0
    """For a German verb read with the particle that ends its phrase ("nimmt … auf"), where that
    particle ends; 0 for any other word. What follows belongs to another predicate ("nimmt
    Kohlendioxid auf und gibt Sauerstoff ab")."""

    @property
    def feature(self) -> str:
        return NEGATED + self.stem if self.negated else self.stem


@dataclass(frozen=True, slots=True)
class Analysis:
    text: str
    base: str
    tokens: tuple[Token, ...]
    sentences: tuple[Span, ...]

    @property
    def content(self) -> tuple[Token, ...]:
        """The words that carry meaning: no stop words, no negation words (their effect is in `feature`)."""
        return tuple(t for t in self.tokens if not t.stop and not t.negation)


@dataclass(frozen=True, slots=True)
class _Word:
    norm: str
    negation: bool


@cache
def _split_word(base: str, raw: str) -> _Word:
    norm = normalise_word(raw)
    negation = norm in NEGATION_WORDS[base]
    if "'" in norm:
        head, _, tail = norm.rpartition("'")
        if base == "en":
            if tail == "t" and head.endswith("n"):
                return _Word(head[:-1], True)
            return _Word(head if tail in {"s", "ll", "re", "ve", "d", "m"} else norm, negation)
        negation = negation or (head.split("'")[-1] == "n" and base == "fr")
        return _Word(tail, negation or tail in NEGATION_WORDS[base])
    return _Word(norm, negation)


@lru_cache(maxsize=8192)
def analyse(text: str, base: str) -> Analysis:
    """Tokens of ``text`` in language ``base`` (en, de, fr, it, es); spans point into ``text``.

    Cached: a task's references and graded answers are analysed by several steps.
    """
    spans = sentences(text)
    starts = [s.start for s in spans]
    breaks = clause_breaks(text)
    stops = stop_words(base)
    connectives = CLAUSE_CONNECTIVES[base]
    coordinators, subjects = COORDINATORS[base], SUBJECT_OPENERS[base]
    raw_tokens: list[tuple[int, int, _Word, int, int]] = []
    clause = 0
    last_sentence = -1
    for match in _WORD.finditer(text):
        word = _split_word(base, match.group())
        sentence = max(bisect_right(starts, match.start()) - 1, 0)
        if sentence != last_sentence:
            clause += 1
            last_sentence = sentence
        if raw_tokens and bisect_left(breaks, match.start()) != bisect_left(breaks, raw_tokens[-1][1]):
            clause += 1
        joins_subject = bool(raw_tokens) and word.norm in subjects and raw_tokens[-1][2].norm in coordinators
        if word.norm in connectives or joins_subject:
            clause += 1
        raw_tokens.append((match.start(), match.end(), word, sentence, clause))
    negated = _negated_positions(raw_tokens, base)
    values = _value_positions(text, raw_tokens, base, stops)
    joined, particles = _separated_verbs(raw_tokens, base)
    tokens = tuple(
        Token(
            start=start,
            end=end,
            norm=word.norm,
            stem=LABEL + word.norm
            if index in values and len(word.norm) == 1 and word.norm.isalpha()
            else joined[index][0]
            if index in joined
            else stem(base, word.norm),
            stop=word.norm in stops or index in particles,
            negation=word.negation,
            negated=index in negated,
            sentence=sentence,
            clause=clause,
            value=index in values,
            closed_at=raw_tokens[joined[index][1]][1] if index in joined else 0,
        )
        for index, (start, end, word, sentence, clause) in enumerate(raw_tokens)
    )
    return Analysis(text=text, base=base, tokens=tokens, sentences=tuple(spans))


def sentence_tokens(analysis: Analysis, limit: int | None = None) -> list[list[Token]]:
    """The tokens of each of the first ``limit`` sentences (all by default), in order."""
    count = len(analysis.sentences) if limit is None else min(len(analysis.sentences), limit)
    by_sentence: list[list[Token]] = [[] for _ in range(count)]
    for token in analysis.tokens:
        if token.sentence < count:
            by_sentence[token.sentence].append(token)
    return by_sentence


def _negated_positions(raw_tokens: list[tuple[int, int, _Word, int, int]], base: str) -> set[int]:
    negated: set[int] = set()
    clauses: dict[int, list[int]] = {}
    for index, token in enumerate(raw_tokens):
        clauses.setdefault(token[4], []).append(index)
    order = list(clauses)
    for position, clause in enumerate(order):
        members = clauses[clause]
        cues = [i for i in members if raw_tokens[i][2].negation]
        if not cues or len(members) == 1:
            # A negation word alone in its clause is a reply ("No, because the finger warms it"):
            # it answers the question and denies nothing that follows.
            continue
        first = cues[0]
        if base == "de" and cues[-1] == members[-1]:
            first = members[0]
        negated.update(i for i in members if i >= first and not raw_tokens[i][2].negation)
        following = clauses[order[position + 1]] if position + 1 < len(order) else []
        if cues[-1] == members[-1] and following and _opens_with_connective(raw_tokens, following[0], base):
            # "not because the Earth is closer", "nicht, weil …": the negation denies the reason.
            negated.update(i for i in following if not raw_tokens[i][2].negation)
    return negated


def value_heads(tokens: Sequence[Token]) -> list[tuple[Token, str]]:
    """Each value with the stem of the word it belongs to ("bulb" for "bulb A", "voltage" for
    "the voltage is 0"): the nearest content word before it in its clause, else after it; a
    number word right before a word counts that word ("the two ends", "zwei Lampen"), whatever
    comes before. Two passes, so a pasted text of thousands of values costs no more than its
    length."""
    before = _nearest_content(tokens)
    after = _nearest_content(tokens[::-1])[::-1]
    heads = []
    for i, t in enumerate(tokens):
        if not t.value:
            continue
        counted = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            counted is not None
            and counted.clause == t.clause
            and not counted.value
            and t.norm.isalpha()
            and len(t.norm) > 1
        ):
            heads.append((t, counted.stem))  # a number word counting the next word
        else:
            heads.append((t, before[i] or after[i]))
    return heads


def quantified(tokens: Sequence[Token], index: int) -> frozenset[str]:
    """The stems of the words a word like "both" or "alle" at ``index`` speaks of: the content
    words that follow it in its clause, after any function words ("both of the poles"), up to the
    next function word ("both battery poles"; in "both wires to the same pole", only "wires")."""
    clause = tokens[index].clause
    said: list[str] = []
    for token in tokens[index + 1 :]:
        if token.clause != clause or token.negation:
            break
        if not token.stop:
            said.append(token.stem)
        elif said:
            break
    return frozenset(said)


def _nearest_content(tokens: Sequence[Token]) -> list[str]:
    """For each token, the stem of the last content word before it in its clause ("" if none)."""
    out = []
    last, clause = "", -1
    for token in tokens:
        if token.clause != clause:
            last, clause = "", token.clause
        out.append(last)
        if not (token.stop or token.negation or token.value):
            last = token.stem
    return out


def _separated_verbs(
    raw_tokens: list[tuple[int, int, _Word, int, int]], base: str
) -> tuple[dict[int, tuple[str, int]], set[int]]:
    """German verbs whose particle ends their clause, with the stem of the verb they make with it
    and the particle's position,
    where that verb has an opposite: "die Stromstärke nimmt ab" says "abnehmen", whose opposite
    "nimmt zu" says, and which "abnimmt" says too; and the positions of their particles, which are
    then part of the verb rather than words of their own. Only such verbs: joining every separated
    verb changed what the judge reads of thousands of German answers and helped none held out
    (docs/freeform-engine.md), while a particle turned round is a contradiction that the verb's
    own stem ("nehmen" for both) cannot show."""
    joined: dict[int, tuple[str, int]] = {}
    used: set[int] = set()
    particles = SEPARABLE_PARTICLES.get(base)
    if not particles:
        return joined, used
    opposable = antonyms(base)
    coordinators = COORDINATORS[base]
    for index, (_, _, word, _, clause) in enumerate(raw_tokens):
        if word.norm not in particles or index == 0:
            continue
        if not _ends_phrase(raw_tokens, index, particles, coordinators):
            continue  # a preposition or an adverb ("nimmt ab und zu einen Keks")
        for before in range(index - 1, -1, -1):
            if raw_tokens[before][4] != clause:
                break
            verb = stem(base, word.norm + lemma(base, raw_tokens[before][2].norm))
            if verb in opposable:
                joined[before] = (verb, index)
                used.add(index)
                break
    return joined, used


def _ends_phrase(
    raw_tokens: list[tuple[int, int, _Word, int, int]],
    index: int,
    particles: frozenset[str],
    coordinators: frozenset[str],
) -> bool:
    """The word ends its verb's phrase: it is the last of its clause, or "und" follows it and then
    no other particle ("nimmt Kohlendioxid auf und gibt Sauerstoff ab", but "ab und zu", "auf
    und ab" are adverbs)."""
    clause = raw_tokens[index][4]
    rest = [t[2].norm for t in raw_tokens[index + 1 : index + 3] if t[4] == clause]
    return not rest or (rest[0] in coordinators and rest[-1] not in particles)


def _value_positions(
    text: str, raw_tokens: list[tuple[int, int, _Word, int, int]], base: str, stops: frozenset[str]
) -> set[int]:
    """Positions of the words that are numbers or labels.

    A word with a digit is one, and so is a number word ("zero", "zwei"). A single letter is a
    label unless it belongs to an abbreviation ("e.g.", "z.B."); a letter that is also a word of
    the language (English "a", Italian "e") only where the word cannot stand: written as a capital
    right after a content word of its sentence ("Bulb A stays lit"), written small after a content
    word and before a function word or the end where the word is an article or a preposition
    ("bulb a is on"; not Italian "e", Spanish "y", French "a": :data:`SMALL_LABEL_LETTERS`), or
    written as a capital before a function word or the end ("A is on", "between A and B"), unless
    it opens a sentence where the word does ("E la corrente …").
    """
    letter_words = LETTER_WORDS[base]
    found: set[int] = set()
    for index, (start, end, word, _, _) in enumerate(raw_tokens):
        norm = word.norm
        if any(ch.isdigit() for ch in norm) or stem(base, norm).isdigit():
            found.add(index)
            continue
        if (
            len(norm) != 1
            or not norm.isalpha()
            or _in_abbreviation(text, start, end)
            or _marker(text, start, end, raw_tokens[index - 1][1] if index else 0)
        ):
            continue
        if norm not in letter_words:
            found.add(index)
            continue
        previous = raw_tokens[index - 1][2] if index else None
        after_content = previous is not None and previous.norm not in stops and not previous.negation
        same_sentence = index > 0 and raw_tokens[index - 1][3] == raw_tokens[index][3]
        capital = text[start].isupper()
        if after_content and capital and same_sentence:
            found.add(index)  # "Bulb A stays lit": an article is not written as a capital after a noun
            continue
        following = raw_tokens[index + 1][2].norm if index + 1 < len(raw_tokens) else None
        if following is not None and following not in stops:
            continue
        if (after_content and norm in SMALL_LABEL_LETTERS[base]) or (
            capital and norm != "i" and (same_sentence or norm not in SENTENCE_OPENING_LETTERS[base])
        ):
            found.add(index)
    return found


def _in_abbreviation(text: str, start: int, end: int) -> bool:
    """A letter of "e.g.", "i.e.", "z.B.", "d.h.": a full stop joins it to another letter."""
    return (text[end : end + 1] == "." and text[end + 1 : end + 2].isalpha()) or (
        text[start - 1 : start] == "." and text[start - 2 : start - 1].isalpha()
    )


def _marker(text: str, start: int, end: int, previous_end: int) -> bool:
    """A letter that marks a list item ("a)", "o" as a bullet) or ends a word ("router(s)",
    "Schüler/innen"), rather than naming something. ``previous_end``: where the word before ends."""
    if text[end : end + 1] == ")" or (
        text[start - 1 : start] in ("(", "/") and text[start - 2 : start - 1].isalpha()
    ):
        return True
    line_start = previous_end == 0 or "\n" in text[previous_end:start]
    return line_start and (
        text[end : end + 1] in (".", "\t") or (text[start] == "o" and text[end : end + 1].isspace())
    )


def _opens_with_connective(raw_tokens: list[tuple[int, int, _Word, int, int]], index: int, base: str) -> bool:
    return raw_tokens[index][2].norm in CLAUSE_CONNECTIVES[base]
