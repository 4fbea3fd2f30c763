"""Which words of a sentence give a cause and which its effect, which side of a comparison each
thing is on, and which words a clause says together: a near miss that reuses a sample solution's
words with cause and effect swapped ("the metal is heated because it expands"), with the things
compared swapped ("water is less dense than ice"), or with the words of two claims exchanged
("UDP is connection-oriented, TCP is connectionless"), covers every word and is close in meaning,
yet says something else.

A causal connective opens its clause (the tokenizer starts a clause at every connective): a
reason word ("because", "weil", "parce que") makes its clause the cause and the rest of the
sentence the effect; a result word ("so", "deshalb", "donc") makes its clause the effect and the
rest the cause. Words on both sides say nothing about the direction and are left out. A colon or a
dash ends what a connective reaches: "Because ice is less dense than water: its molecules are
farther apart" gives the answer's reason and then explains it, and what follows the colon is no
effect of it.

A comparison is read in the clause of its "than" ("als", "que", "di"/"che"): the words before it
are one side, those after it the other. Outside English the word has other uses ("als" is also
"when" and "as", "di" is "of"), so there it compares only as the first such word after a degree
word ("mehr", "plus") or, in German, a comparative ("geringere", "höher") in the same clause.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from core.engine.text.languages import CLAUSE_CONNECTIVES, DEGREE_WORDS, UNIVERSAL_WORDS, lemma, stem
from core.engine.text.normalise import normalise_word
from core.engine.text.tokens import LABEL, NEGATED, Analysis, Token, sentence_tokens

REASON_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"because", "since"}),
    "de": frozenset({"weil", "da", "denn"}),
    "fr": frozenset({"parce", "car", "puisque"}),
    "it": frozenset({"perché", "poiché"}),
    "es": frozenset({"porque", "pues"}),
}
RESULT_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"so"}),
    "de": frozenset({"deshalb"}),
    "fr": frozenset({"donc"}),
    "it": frozenset({"quindi"}),
    "es": frozenset({"así"}),
}
PURPOSE_AFTER: dict[str, frozenset[str]] = {"en": frozenset({"that"}), "de": frozenset({"dass"})}
"""A result word followed by one of these opens a purpose ("so that it can grow"), not a result."""
assert all(REASON_WORDS[b] | RESULT_WORDS[b] <= CLAUSE_CONNECTIVES[b] for b in REASON_WORDS), (
    "a causal connective must open a clause"
)


@dataclass(frozen=True, slots=True)
class Causal:
    """The stems of the content words on each side of a sentence's first causal connective."""

    cause: frozenset[str]
    effect: frozenset[str]


def causal_sides(tokens: tuple[Token, ...] | list[Token], base: str) -> Causal | None:
    """``tokens``: one sentence. None unless it has exactly one causal connective (a chain of
    reasons has no single direction) and words on both sides of it; "so that" gives a purpose,
    not a result."""
    reason, result = REASON_WORDS.get(base, frozenset()), RESULT_WORDS.get(base, frozenset())
    purpose = PURPOSE_AFTER.get(base, frozenset())
    markers = [
        t
        for i, t in enumerate(tokens)
        if t.norm in reason
        or (t.norm in result and not (i + 1 < len(tokens) and tokens[i + 1].norm in purpose))
    ]
    if len(markers) != 1:
        return None
    marker = markers[0]
    inside = {t.stem for t in tokens if t.clause == marker.clause and not (t.stop or t.negation)}
    outside = {t.stem for t in tokens if t.clause != marker.clause and not (t.stop or t.negation)}
    here, there = frozenset(inside - outside), frozenset(outside - inside)
    if not here or not there:
        return None
    return Causal(here, there) if marker.norm in reason else Causal(there, here)


_ELABORATION = re.compile(r":|\s-\s|[–—]")
"""What opens an explanation or an aside within a sentence: a colon, a dash."""


def _stretches(tokens: list[Token], text: str) -> list[list[Token]]:
    """A sentence's tokens cut where a colon or a dash stands between two of them."""
    stretches = [tokens[:1]]
    for before, token in pairwise(tokens):
        if _ELABORATION.search(text, before.end, token.start):
            stretches.append([])
        stretches[-1].append(token)
    return stretches


def sentence_relations(analysis: Analysis, limit: int | None = None) -> tuple[Causal, ...]:
    """The causal relations the first ``limit`` sentences of a text state, each read within the
    stretch between colons and dashes that holds its connective."""
    sides = (
        causal_sides(stretch, analysis.base)
        for tokens in sentence_tokens(analysis, limit)
        for stretch in _stretches(tokens, analysis.text)
    )
    return tuple(c for c in sides if c is not None)


def reversed_relation(fact: Causal, answer: tuple[Causal, ...]) -> bool:
    """The answer gives the fact's cause as an effect and its effect as a cause, and nowhere
    states the relation the right way round."""

    def swapped(said: Causal) -> bool:
        return bool((fact.cause & said.effect) - said.cause) and bool(
            (fact.effect & said.cause) - said.effect
        )

    def agrees(said: Causal) -> bool:
        return bool(fact.cause & said.cause) and bool(fact.effect & said.effect)

    return any(swapped(s) for s in answer) and not any(agrees(s) for s in answer)


THAN: dict[str, frozenset[str]] = {
    "en": frozenset({"than"}),
    "de": frozenset({"als"}),
    "fr": frozenset({"que"}),
    "it": frozenset({"di", "che", "del", "dello", "della", "dei", "degli", "delle"}),
    "es": frozenset({"que"}),
}
"""The word that opens a comparison's second side; Italian "di" joined to an article too ("più
della luce rossa")."""
ELIDED_THAN: dict[str, frozenset[str]] = {"fr": frozenset({"qu"}), "it": frozenset({"d", "dell"})}
"""A word of THAN cut short before a vowel ("qu'une", "dell'acqua"): the tokenizer keeps only the
word it is joined to, which is then the first of the second side."""
COMPARATIVES: dict[str, frozenset[str]] = {
    "de": frozenset({"besser", "schlechter", "lieber"}),
    "fr": frozenset({"meilleur", "meilleure", "mieux", "pire", "davantage"}),
    "it": frozenset({"migliore", "peggiore", "maggiore", "minore", "maggiormente"}),
    "es": frozenset({"mejor", "peor", "mayor", "menor"}),
}
"""Besides the degree words (core.engine.text.languages.DEGREE_WORDS), words that make the next
"than" word a comparison's, outside English."""
NOT_COMPARING: dict[str, frozenset[str]] = {"en": frozenset({"other", "rather"})}
"""Words before "than" that do not compare ("other than", "rather than")."""
GERMAN_COMPARATIVE_ENDINGS = ("er", "ere", "eren", "erem", "erer", "eres")
GERMAN_ADJECTIVE_ENDINGS = ("em", "en", "er", "es", "e")
"""The endings of a German adjective before its noun, "e" last: "blaues" ends in "es", not "s"."""


LESS_WORDS = frozenset({"less", "fewer", "weniger", "moins", "meno", "menos"})
"""The degree words of DEGREE_WORDS (and "fewer") that make a comparison one of less."""
LOW_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"low", "small", "light", "weak", "short", "thin", "slow", "narrow", "shallow"}),
    "de": frozenset(
        {"niedrig", "gering", "klein", "leicht", "schwach", "kurz", "dünn", "langsam", "schmal", "flach"}
    ),
    "fr": frozenset({"bas", "faible", "petit", "léger", "court", "lent", "mince", "étroit", "moindre"}),
    "it": frozenset(
        {"basso", "piccolo", "leggero", "corto", "debole", "lento", "sottile", "stretto", "minore"}
    ),
    "es": frozenset({"bajo", "pequeño", "ligero", "corto", "débil", "lento", "delgado", "estrecho", "menor"}),
}
"""Words for the small end of a magnitude. Their comparative compares by less ("a lower density
than water", "plus faible", "geringer", "lighter than water" all say "less dense"), so a comparison
by more of one of them is one by less of the quantity: without this, "ice has a lower density than
water" said the opposite of "ice is less dense than water"."""
INHERENT_COMPARATIVES = frozenset({"moindre", "minore", "menor"})
"""Words of LOW_WORDS that are comparatives in themselves ("minore" is "smaller")."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """The stems of the content words before and after a sentence's "than"."""

    before: frozenset[str]
    after: frozenset[str]
    less: bool = False
    """It compares by less ("less dense than"); otherwise by more ("more dense", "denser")."""
    degree: frozenset[str] = frozenset()
    """The stems of its language's degree words ("more", "moins"), which ``less`` reads."""


def _than_words(tokens: list[Token], text: str, base: str) -> dict[int, int]:
    """The positions of the "than" words of a sentence's ``tokens``, each with where the second side
    it opens begins: after it, or at it for one cut short (ELIDED_THAN), whose token is the word it
    is joined to."""
    than, elided = THAN.get(base, frozenset()), ELIDED_THAN.get(base, frozenset())
    found = {}
    for i, t in enumerate(tokens):
        if t.norm in than:
            found[i] = i + 1
        elif elided and normalise_word(text[t.start : t.end]).partition("'")[0] in elided:
            found[i] = i
    return found


def _compares(tokens: list[Token], clauses: list[int], index: int, thans: Collection[int], base: str) -> bool:
    """Whether the "than" word at ``index`` ends a comparison (see the module's docstring): outside
    English, it is the first "than" word after a degree word or a comparative of its clause; a later
    one opens what follows ("più della luce del sole", "más que la luz que …")."""
    if base == "en":
        return index > 0 and tokens[index - 1].norm not in NOT_COMPARING["en"]
    degree = DEGREE_WORDS.get(base, frozenset()) | COMPARATIVES.get(base, frozenset())
    for i in range(index - 1, -1, -1):
        if clauses[i] != clauses[index] or i in thans:
            return False
        if tokens[i].norm in degree or (base == "de" and _german_comparative(tokens[i].norm)):
            return True
    return False


def _german_comparative(word: str) -> bool:
    """An inflected form with a comparative's ending whose dictionary form is another word
    ("geringere" → "gering", "höher" → "hoch"); "Wasser" and "Lehrer" are their own."""
    return len(word) > 4 and word.endswith(GERMAN_COMPARATIVE_ENDINGS) and lemma("de", word) != word


def _comparison_clauses(tokens: list[Token], text: str, base: str) -> list[int]:
    """The clause of each of a sentence's ``tokens`` for reading a comparison: a German comma
    between two adjectives of one noun opens none ("Blaues, kurzwelliges Licht wird stärker
    gestreut als rotes, langwelliges Licht"). Read as clauses of their own, the adjectives would
    fall off the comparison's sides: a fact without "blau" is not what "rotes Licht wird stärker
    gestreut als blaues" swaps."""
    clauses = [t.clause for t in tokens[:1]]
    for i, (previous, token) in enumerate(pairwise(tokens)):
        joined = token.clause == previous.clause or (
            base == "de" and _german_attributes(previous, token, text, opens=i == 0)
        )
        clauses.append(clauses[-1] if joined else token.clause)
    return clauses


def _german_attributes(first: Token, second: Token, text: str, opens: bool) -> bool:
    """Only a comma stands between two content words with the same adjective ending, the second
    written small (a German noun is capitalised), the first too unless it ``opens`` the sentence."""
    if first.stop or second.stop or text[first.end : second.start].strip() != ",":
        return False
    if not text[second.start].islower() or not (opens or text[first.start].islower()):
        return False
    ending = _adjective_ending(first.norm)
    return ending is not None and ending == _adjective_ending(second.norm)


def _adjective_ending(word: str) -> str | None:
    """The adjective ending a word of more than two letters besides it has, if any."""
    return next((e for e in GERMAN_ADJECTIVE_ENDINGS if word.endswith(e) and len(word) > len(e) + 2), None)


def comparison_sides(tokens: tuple[Token, ...] | list[Token], base: str, text: str) -> Comparison | None:
    """``tokens``: one sentence of ``text``. None unless it has exactly one comparing "than" with
    content words on both sides of it in its clause. A clause that a connective or a comma opens
    after another clause ("ice floats because it is less dense than water", "weil es eine geringere
    Dichte als Wasser hat", "blue light, which has a short wavelength, is scattered more than red
    light") compares what the sentence named before it, so those words are on its first side too;
    they take no word off its second side ("der Himmel ist blau, weil rotes Licht stärker gestreut
    wird als blaues" compares red light with blue)."""
    tokens = list(tokens)
    clauses = _comparison_clauses(tokens, text, base)
    thans = _than_words(tokens, text, base)
    markers = [i for i in thans if _compares(tokens, clauses, i, thans, base)]
    if len(markers) != 1:
        return None
    index = markers[0]
    clause = clauses[index]
    opening = clauses.index(clause)
    continues = opening > 0 and (
        tokens[opening].norm in CLAUSE_CONNECTIVES.get(base, frozenset())
        or "," in text[tokens[opening - 1].end : tokens[opening].start]
    )

    def side(part: range) -> set[str]:
        return {
            t.stem for t in (tokens[i] for i in part if clauses[i] == clause) if not (t.stop or t.negation)
        }

    before, after = side(range(opening, index)), side(range(thans[index], len(tokens)))
    named = {t.stem for t in tokens[:opening] if not (t.stop or t.negation)} if continues else set()
    here, there = frozenset((before | named) - after), frozenset(after - before)
    before_than = tokens[opening:index]
    less = any(t.norm in LESS_WORDS for t in before_than) != any(
        _low_comparative(before_than, i, base) for i in range(len(before_than))
    )
    return Comparison(here, there, less, _degree_stems(base)) if here and there else None


def _low_comparative(tokens: list[Token], index: int, base: str) -> bool:
    """The word at ``index`` is the comparative of a word of LOW_WORDS: inflected as one
    ("lower", "geringere"), after a degree word ("plus faible", "più basso"), or one in itself."""
    token = tokens[index]
    dictionary_form = lemma(base, token.norm)
    if token.norm in LESS_WORDS or dictionary_form not in LOW_WORDS.get(base, frozenset()):
        return False
    return (
        token.norm in INHERENT_COMPARATIVES
        or dictionary_form != token.norm
        or (index > 0 and tokens[index - 1].norm in DEGREE_WORDS.get(base, frozenset()))
    )


def sentence_comparisons(analysis: Analysis, limit: int | None = None) -> tuple[Comparison, ...]:
    """The comparisons the first ``limit`` sentences of a text make."""
    found = (
        comparison_sides(tokens, analysis.base, analysis.text) for tokens in sentence_tokens(analysis, limit)
    )
    return tuple(c for c in found if c is not None)


def reversed_comparison(
    fact: Comparison, answer: tuple[Comparison, ...], opposites: Mapping[str, frozenset[str]]
) -> bool:
    """The answer puts what the fact compares on the other sides of the same comparison ("water is
    less dense than ice" for "ice is less dense than water"), or on the same sides turned round
    ("ice is denser than water", where "denser" compares by more), and nowhere makes it the right
    way round (:func:`restates` included)."""
    return any(
        (_swapped(fact, s) and not _turned(fact, s, opposites))
        or (_agrees(fact, s) and _turned(fact, s, opposites) and not _swapped(fact, s))
        for s in answer
    ) and not any(
        restates(fact, s, opposites) or (_agrees(fact, s) and not _turned(fact, s, opposites)) for s in answer
    )


def restates(fact: Comparison, said: Comparison, opposites: Mapping[str, frozenset[str]]) -> bool:
    """The answer's comparison states the fact's from its other side: its sides swapped and turned
    round, by an opposite word or by more where the fact compares by less ("water is more dense
    than ice", "water is denser than ice" for "ice is less dense than water")."""
    return _swapped(fact, said) and _turned(fact, said, opposites)


@cache
def _degree_stems(base: str) -> frozenset[str]:
    """A comparison's degree words ("more", "moins") give its direction (Comparison.less), which
    reads them with the word they go with ("plus faible" is "moins …"); said as the opposite of a
    degree word of the fact they would count twice. Only the comparison's own language's: English
    "plus" is no degree word and keeps its opposite "minus". Stemmed on first use, not on import:
    stemming loads the lemma dictionaries."""
    return frozenset(stem(base, word) for word in DEGREE_WORDS.get(base, ()))


def _turned(fact: Comparison, said: Comparison, opposites: Mapping[str, frozenset[str]]) -> bool:
    """Compared the other way: by more against less, or with the opposite of a word of the fact
    (one the fact does not name itself, as "hot … than cold" names both)."""
    named = fact.before | fact.after
    words = said.before | said.after
    return said.less != fact.less or any(
        (opposites.get(word, frozenset()) & words) - named - fact.degree for word in named
    )


def _swapped(fact: Comparison, said: Comparison) -> bool:
    return bool((fact.before & said.after) - said.before) and bool((fact.after & said.before) - said.after)


def _agrees(fact: Comparison, said: Comparison) -> bool:
    return bool(fact.before & said.before) and bool(fact.after & said.after)


def said_words(tokens: Sequence[Token]) -> frozenset[str]:
    """What a clause says, for :func:`exchanged`: the stems of its content words and labels, and a
    negation as a word of its own ("bulb A is not" says "bulb", "A" and "not")."""
    words = {t.stem for t in tokens if t.value or not (t.stop or t.negation)}
    if any(t.negation for t in tokens):
        words.add(NEGATED)
    return frozenset(words)


def clause_tokens(analysis: Analysis, limit: int | None = None) -> dict[int, list[Token]]:
    """The tokens of each clause of the first ``limit`` sentences, by the clause's number."""
    clauses: dict[int, list[Token]] = {}
    for tokens in sentence_tokens(analysis, limit):
        for t in tokens:
            clauses.setdefault(t.clause, []).append(t)
    return clauses


def clause_words(analysis: Analysis, limit: int | None = None) -> dict[int, frozenset[str]]:
    """What each clause of the first ``limit`` sentences says (:func:`said_words`), by the clause's
    number (Token.clause)."""
    return {clause: said_words(tokens) for clause, tokens in clause_tokens(analysis, limit).items()}


def universal_clauses(analysis: Analysis, limit: int | None = None) -> tuple[frozenset[str], ...]:
    """What each clause of the first ``limit`` sentences that speaks of every one of a kind ("both
    bulbs are lit", "alle Lampen leuchten") says besides that (:func:`said_words`). A negation
    before the word ("not both bulbs are lit") says it of some, not of every one."""
    universal = UNIVERSAL_WORDS.get(analysis.base, frozenset())
    found = []
    for tokens in clause_tokens(analysis, limit).values():
        first = next((i for i, t in enumerate(tokens) if t.norm in universal), None)
        if first is not None and not any(t.negation for t in tokens[:first]):
            found.append(said_words([t for t in tokens if t.norm not in universal]))
    return tuple(found)


def said_of_every(
    claims: tuple[frozenset[str], ...],
    universal: Collection[frozenset[str]],
    opposites: Mapping[str, frozenset[str]],
) -> bool:
    """A clause says of every one of a kind (``universal``: :func:`universal_clauses`) the opposite
    of what a claim of the fact says of a named one: "both bulbs are lit" against "bulb B is lit,
    bulb A is not", "all switches are open" against "switch Z is closed". The clause names no
    element and says nothing but the fact's words (or their opposites), so "both bulbs are
    connected to the battery" is no such claim."""
    fact_words = frozenset().union(*claims)
    speakable = fact_words.union(*(opposites.get(w, frozenset()) for w in fact_words)) | {NEGATED}
    for claim in claims:
        named = {w for w in claim if w.startswith(LABEL)}
        own = claim - named - {NEGATED}
        if not named or not own:
            continue
        for said in universal:
            if not said <= speakable or any(w.startswith(LABEL) for w in said):
                continue
            turned = {w for w in own - said if opposites.get(w, frozenset()) & said}
            if own <= said | turned and ((NEGATED in said) != (NEGATED in claim)) != (len(turned) % 2 == 1):
                return True
    return False


def said_of_another(
    claims: tuple[frozenset[str], ...], opposed: frozenset[str], clause: frozenset[str]
) -> bool:
    """An opposite word of a claim's term (``opposed``: the stems it is the opposite of) is said of
    another claim of the fact: its clause (``clause``: what it says) names that claim's own words
    and none of the word's own claim. "Die Stromstärke sinkt, denn der Gesamtwiderstand nimmt zu"
    says "zunehmen" of the resistance, which contradicts nothing of "die Stromstärke nimmt ab, weil
    der Gesamtwiderstand größer wird"; "die Stromstärke nimmt zu" does."""
    own = [claim for claim in claims if claim & opposed]
    if not own:
        return False
    others = frozenset().union(*(claim for claim in claims if not claim & opposed))
    mine = frozenset().union(*own) - opposed
    return not clause & mine and bool(clause & (others - mine))


def exchanged(claims: tuple[frozenset[str], ...], answer: Collection[frozenset[str]]) -> bool:
    """The answer's clauses pair the words of two of a fact's claims the other way: each claim's own
    words (those no other claim has, two or more) are all said, but only in clauses that mix
    them with the other claim's, and never two of one claim together ("UDP is connection-oriented,
    TCP is connectionless" for "TCP is connection-oriented, UDP is connectionless"; "bulb A is lit
    and bulb B is not" for "bulb B is lit and bulb A is not")."""
    own = [claim.difference(*(other for other in claims if other is not claim)) for claim in claims]
    for i, first in enumerate(own):
        for second in own[i + 1 :]:
            if len(first) < 2 or len(second) < 2:
                continue
            if any(len(c & first) >= 2 or len(c & second) >= 2 for c in answer):
                continue
            mixed = [c for c in answer if c & first and c & second]
            if len(mixed) >= 2 and first | second <= frozenset().union(*mixed):
                return True
    return False
