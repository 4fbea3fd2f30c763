"""How much of a reference text (a sample solution, a key idea, a cue) an answer covers.

A reference is reduced to its key terms: its content words, weighted. Words the question already
uses weigh less (learners echo the question, so those words say little about understanding), and
function words weigh little but not nothing; words with an opposite ('more', 'less', 'higher',
'same') are not function words here, since which of the two an answer says can decide it.
A key term is covered by an answer word with the same stem or the same spelling up to a typo, and
with the same polarity; found only under the opposite polarity it counts against the answer,
because "is not attracted" contradicts "is attracted".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from rapidfuzz import process
from rapidfuzz.distance import OSA, Prefix

from core.engine.text.languages import COORDINATORS, DEGREE_WORDS, antonyms, known
from core.engine.text.normalise import strip_accents
from core.engine.text.tokens import LABEL, Analysis, Token, quantified, sentence_tokens, value_heads

FUNCTION_WORD_WEIGHT = 0.2
ECHOED_WORD_WEIGHT = 0.2
"""Factor for a key term that the question itself contains. Both weights were chosen with the
coverage thresholds on train answers (bench/freeform_eval_dev.py): echoed words at full weight
lost 0.02 macro-F1."""
TYPO_CREDIT = 0.9
PART_CREDIT = 0.7
"""A German word that holds the term as a part ("Informationsschreiben" for "Schreiben",
"ausdehnt" for "dehnt … aus") or shares its root ("gegrüßt", "Begrüßung") says nearly the same."""
CONTRADICTION_CREDIT = -0.5


def allowed_edits(word: str) -> int:
    """Typos a word may carry and still be the word (OSA distance: a swap of neighbours is one
    edit): none up to four letters, where one edit makes another word ('heat'/'hear'), one up
    to eight, two beyond."""
    if len(word) <= 4:
        return 0
    return 1 if len(word) <= 8 else 2


def ending_apart(a: str, b: str) -> bool:
    """Two spellings differ only in their last two letters and share four or more before them
    ("tighter"/"tighten", "heater"/"heated", "weigh"/"weight"): forms of one word, where a
    dictionary word elsewhere within a typo's distance is another word ("where"/"there",
    "power"/"lower", "reflected"/"refracted", "synchronous"/"asynchronous")."""
    shared = Prefix.similarity(a, b)
    return shared >= max(MIN_EDGE_PART, min(len(a), len(b)) - 2)


def another_word(base: str, written: str, meant: str, written_stem: str, meant_stem: str) -> bool:
    """A spelling near ``meant`` is a word of its own, not a misspelling of it: the word's opposite
    ("decreases" for "increases"), or a word the dictionary knows that differs from it before its
    ending ("where" for "there", "asynchronous" for "synchronous"). Stems are the callers' (a
    German verb read with its particle has its joined verb's)."""
    if written_stem in antonyms(base).get(meant_stem, frozenset()):
        return True
    return known(base, written) and not ending_apart(strip_accents(written), strip_accents(meant))


@dataclass(frozen=True, slots=True)
class KeyTerm:
    stem: str
    norm: str
    negated: bool
    weight: float
    value: bool = False
    """A number or a label ("bulb A"): see :func:`substituted`."""
    head: str = ""
    """For a value, the stem of the word it belongs to ("bulb" for "bulb A")."""
    modifies: frozenset[str] = frozenset()
    """For a degree word ("more", "weniger"), the stems of the words it says how much of."""


@dataclass(frozen=True, slots=True)
class Coverage:
    score: float
    """Weighted share of the key terms covered, minus contradicted ones (−0.5 … 1)."""
    matched: tuple[Token, ...]
    contradicted: tuple[Token, ...]
    opposed: tuple[Token, ...] = ()
    """The contradicting tokens that say a term's opposite word ("open" for "closed"), rather
    than negate it: unlike a negation's scope, which is judged per clause, a sure sign."""
    turned: float = 0.0
    """The score the answer would earn if its opposite words were the reference's: how much of the
    reference it states with a word turned round ("an open path with the battery")."""


def key_terms(reference: Analysis, question_stems: frozenset[str] = frozenset()) -> tuple[KeyTerm, ...]:
    heads = {token.start: head for token, head in value_heads(reference.tokens)}
    modified = modified_words(reference)
    terms: dict[tuple[str, bool], KeyTerm] = {}
    for token in reference.tokens:
        key = (token.stem, token.negated)
        if token.negation:
            continue
        if key in terms:
            if token.start in modified:  # "more" before another word too
                terms[key] = replace(terms[key], modifies=terms[key].modifies | {modified[token.start]})
            continue
        weight = FUNCTION_WORD_WEIGHT if token.stop else 1.0
        if token.stem in question_stems:
            weight *= ECHOED_WORD_WEIGHT
        head = heads.get(token.start, "")
        terms[key] = KeyTerm(
            token.stem,
            token.norm,
            token.negated,
            weight,
            token.value,
            head,
            frozenset({modified[token.start]}) if token.start in modified else frozenset(),
        )
    return tuple(terms.values())


def modified_words(text: Analysis) -> dict[int, str]:
    """For each degree word of a text (by its start), the stem of the content word it says how
    much of: the next one in its clause ("less dense", "more of the energy"), or, where the degree
    word ends its phrase, the one before it ("vibrate more and break free", "weighs less.")."""
    degree = DEGREE_WORDS.get(text.base, frozenset())
    coordinators = COORDINATORS.get(text.base, frozenset())
    found: dict[int, str] = {}
    tokens = text.tokens
    for index, token in enumerate(tokens):
        if token.norm not in degree:
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or following.clause != token.clause or following.norm in coordinators:
            candidates = reversed(tokens[:index])
        else:
            candidates = iter(tokens[index + 1 :])
        said = next((t for t in candidates if t.clause == token.clause and not (t.stop or t.negation)), None)
        if said is not None and said.norm not in degree:
            found[token.start] = said.stem
    return found


def substituted(terms: tuple[KeyTerm, ...], known: frozenset[str], words: AnswerWords) -> bool:
    """The answer names another value where ``terms`` name one: a value of the terms is missing, and
    the answer gives the same word a value of the same kind that ``known`` (every value of the
    sample solution) lacks: "bulb B" for "bulb A", "the voltage is 1.5" for "the voltage is 0". A
    wrong element in a right sentence, which word overlap and sentence vectors both take for the
    right one."""
    missing = {
        (t.head, value_kind(t.stem))
        for t in terms
        if t.value and t.head and not t.negated and t.stem not in words.by_stem
    }
    return bool(missing) and any(
        (head, value_kind(v)) in missing for v, head in words.values if v not in known
    )


def value_kind(stem: str) -> str:
    """Values replace values of their kind: a number another number, a letter ("bulb B") another
    letter, a code ("S2", "OJ1") another code; "vitamin C" does not replace "OJ2"."""
    if stem[:1].isdigit():
        return "number"
    return "letter" if stem.startswith(LABEL) else "code"


class AnswerWords:
    """An answer's words indexed for fast lookup by stem and by spelling.

    ``whole``: for the words of one sentence, those of the whole answer, which look each term's
    near spellings and compound parts up once for all its sentences (a sentence then keeps those
    it holds); most terms have none anywhere, and searching every sentence for them was most of
    the cost of judging a long answer against many facts and cues."""

    def __init__(self, analysis: Analysis, whole: AnswerWords | None = None) -> None:
        self._whole = whole
        self._near: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        self.compounding = analysis.base in COMPOUNDING
        self.opposites = antonyms(analysis.base)
        self.by_stem: dict[str, list[Token]] = {}
        self.by_spelling: dict[str, list[Token]] = {}
        for token in analysis.tokens:
            if token.negation:
                continue
            self.by_stem.setdefault(token.stem, []).append(token)
            self.by_spelling.setdefault(strip_accents(token.norm), []).append(token)
        self._spellings = list(self.by_spelling)
        self._found: dict[tuple[str, str], tuple[list[Token], float]] = {}
        self._holders: dict[tuple[str, str], frozenset[int]] = {}
        self._tokens = analysis.tokens
        self._analysis = analysis
        self._sentence = analysis.tokens[0].sentence if whole is not None and analysis.tokens else None
        """For a sentence's words, its index in the answer."""
        self.single_sentence = len(analysis.sentences) <= 1
        """Then its one sentence holds every word it has: nothing to look up per sentence."""

    @cached_property
    def modified(self) -> dict[int, str]:
        """What each degree word of the text says how much of (:func:`modified_words`)."""
        if self._whole is not None:
            return self._whole.modified
        return modified_words(self._analysis)

    @cached_property
    def predicates(self) -> tuple[tuple[int, int], ...]:
        """Where each German verb read with its closing particle starts, and where that particle
        ends ("nimmt Kohlendioxid auf"): :attr:`Token.closed_at`."""
        return tuple((t.start, t.closed_at) for t in self._tokens if t.closed_at)

    @cached_property
    def _positions(self) -> dict[int, int]:
        return {token.start: index for index, token in enumerate(self._tokens)}

    def quantified(self, token: Token) -> frozenset[str]:
        """What a word of this text like "both" speaks of (:func:`core.engine.text.tokens.quantified`)."""
        return quantified(self._tokens, self._positions[token.start])

    @cached_property
    def values(self) -> frozenset[tuple[str, str]]:
        """The answer's values with the words they belong to ("#b", "bulb" for "bulb B")."""
        return frozenset((t.stem, head) for t, head in value_heads(self._tokens) if not t.negated)

    def find(self, term: KeyTerm) -> tuple[list[Token], float]:
        """Answer tokens for ``term`` and the credit they earn (1, a typo's, or none); remembered,
        since a solution and its key ideas share their terms."""
        key = (term.stem, term.norm)
        if key not in self._found:
            self._found[key] = self._lookup(term)
        return self._found[key]

    def opposite(self, term: KeyTerm) -> list[Token]:
        """Answer tokens that say the term's opposite ("open" for "closed")."""
        return [t for other in self.opposites.get(term.stem, ()) for t in self.by_stem.get(other, ())]

    def _lookup(self, term: KeyTerm) -> tuple[list[Token], float]:
        exact = self.by_stem.get(term.stem)
        if exact:
            return exact, 1.0
        if allowed_edits(strip_accents(term.norm)) == 0 or not self._spellings:
            return [], 0.0
        spellings, parts = (self._whole or self).near(term)
        # The nearest spelling this text holds; one too short to carry a typo is that word, not the
        # term, and so is one whose word is the term's opposite ("decreases" for "increases";
        # "nimmt" for "nimmt zu", which says "zunehmen", against "nimmt ab"), or a word the
        # dictionary knows that differs from it before its ending ("where" for "there").
        base = self._analysis.base
        nearest = next(
            (
                s
                for s in spellings
                if s in self.by_spelling
                and not any(
                    another_word(base, t.norm, term.norm, t.stem, term.stem) for t in self.by_spelling[s]
                )
            ),
            None,
        )
        if nearest is not None and allowed_edits(nearest) > 0:
            return self.by_spelling[nearest], TYPO_CREDIT
        held = [t for stem in parts for t in self.by_stem.get(stem, ())]
        return (held, PART_CREDIT) if held else ([], 0.0)

    def holders(self, term: KeyTerm) -> frozenset[int]:
        """The answer's sentences (indices) that may hold the term: a word of its stem or of an
        opposite stem, a near spelling or a shared part; computed once per term for the whole
        answer. Asked of a sentence's words, the whole answer's answer."""
        if self._whole is not None:
            return self._whole.holders(term)
        key = (term.stem, term.norm)
        found = self._holders.get(key)
        if found is None:
            stems = [term.stem, *self.opposites.get(term.stem, ())]
            if allowed_edits(strip_accents(term.norm)) > 0 and self._spellings:
                spellings, parts = self.near(term)
                stems += parts
                near = [t.sentence for s in spellings for t in self.by_spelling[s]]
            else:
                near = []
            found = frozenset([*near, *(t.sentence for s in stems for t in self.by_stem.get(s, ()))])
            self._holders[key] = found
        return found

    def reachable(self, terms: tuple[KeyTerm, ...]) -> Sequence[KeyTerm]:
        """The terms this text may hold (see :meth:`holders`); in it the others are neither found
        nor said the other way round, so they add nothing to its coverage of a reference. Most
        terms are absent from most sentences, and asking each sentence for each of them was most
        of the cost of judging a long text (a tutor's conversation) against many facts."""
        if self._whole is None or self._whole.single_sentence:
            return terms
        return [t for t in terms if self._sentence in self._whole.holders(t)]

    def near(self, term: KeyTerm) -> tuple[list[str], list[str]]:
        """The spellings within the term's typo distance, nearest first, and (in a compounding
        language) the stems that share a part with it, over this text's words; remembered."""
        key = (term.stem, term.norm)
        found = self._near.get(key)
        if found is None:
            spelling = strip_accents(term.norm)
            matches = process.extract(
                spelling,
                self._spellings,
                scorer=OSA.distance,
                score_cutoff=allowed_edits(spelling),
                limit=None,
            )
            spellings = [choice for choice, _, _ in sorted(matches, key=lambda m: (m[1], m[2]))]
            parts = [stem for stem in self.by_stem if share_part(stem, term.stem)] if self.compounding else []
            found = self._near[key] = (spellings, parts)
        return found


def sentence_words(
    analysis: Analysis, limit: int | None = None, whole: AnswerWords | None = None
) -> tuple[AnswerWords, ...]:
    """The words of each sentence of an answer (its first ``limit``), indexed apart: a statement
    is made in one sentence, so a reference's terms scattered over several say less. Tokens keep
    their negation and offsets from the whole answer, so spans still point into it. ``whole``: the
    answer's own AnswerWords, if the caller has them."""
    whole = whole or AnswerWords(analysis)
    return tuple(
        AnswerWords(Analysis(analysis.text, analysis.base, tuple(tokens), ()), whole)
        for tokens in sentence_tokens(analysis, limit)
    )


COMPOUNDING = frozenset({"de"})
"""Languages that write compounds as one word and split verbs ("dehnt sich aus")."""
MIN_PART = 5
MIN_EDGE_PART = 4
"""A four-letter word meets a longer one only at its start or its end, where compounds and
derivations put their parts ("Foto" in "fotografieren", "Shop" in "Tankshop", "Info" in
"Infoschreiben"); inside a word four letters are as often chance ("rand" in "Brandschutz").
Measured leaving one corpus out: SAF German 0.560 → 0.591 (docs/freeform-engine.md)."""
_VERB_PREFIXES = ("ge", "be", "ver", "er", "zer", "ent")
_DERIVING_PREFIXES = frozenset({"be", "ver", "zer", "ent", "emp", "miss"})


def _root(stem: str) -> str:
    for prefix in _VERB_PREFIXES:
        if stem.startswith(prefix) and len(stem) - len(prefix) >= MIN_PART:
            return stem[len(prefix) :]
    return stem


def share_part(a: str, b: str) -> bool:
    """Two German stems share a meaningful part: one holds the other (a compound's head or a
    joined separable verb; a four-letter one only at the other's start or end), or their roots
    agree on their first six letters."""
    short, long = sorted((strip_accents(a), strip_accents(b)), key=len)
    if long[: len(long) - len(short)] in _DERIVING_PREFIXES and long.endswith(short):
        return False
    if len(short) >= MIN_EDGE_PART and (long.startswith(short) or long.endswith(short)):
        return True
    if len(short) < MIN_PART:
        return False
    if short in long:
        return True
    ra, rb = _root(short), _root(long)
    return len(ra) >= 6 and len(rb) >= 6 and ra[:6] == rb[:6]


def _turned(words: AnswerWords, terms: Sequence[KeyTerm], stems: dict[str, frozenset[str]]) -> int:
    """How many of the terms are said only as their opposites, each the other way round. Two (or
    four …) say a covariation from its other end ("the shorter the string, the higher the pitch"
    for "the longer the string, the lower the pitch"), which states the same; one says the
    opposite. Echoed terms count too, since the condition a question names ("when the string is
    longer") is half of such a statement."""
    turned = 0
    for term in terms:
        said = _said_opposite(words, term, stems)
        if said and not words.find(term)[0] and all(t.negated == term.negated for t in said):
            turned += 1  # its opposite, not negated
    return turned


def _kept(words: AnswerWords, terms: Sequence[KeyTerm]) -> bool:
    """Some term that has an opposite is said as itself. A covariation said from its other end
    turns its condition too ("the shorter the string, the higher the pitch"); one that keeps it
    ("the resistance decreases … on the longer path", "less sugar dissolves in hot water") turns
    only what follows from it, twice over, and states the opposite."""
    return any(words.opposites.get(t.stem) and words.find(t)[0] for t in terms)


def _said_opposite(words: AnswerWords, term: KeyTerm, stems: dict[str, frozenset[str]]) -> list[Token]:
    """The answer's words for the term's opposite, unless the reference names that opposite too
    ("from the plus pole … to the minus pole": an answer naming one end contradicts neither); a
    degree word's opposite only when the reference says it of the same thing ("moins dense …
    plus éloignées" does not name "plus dense"). ``stems``: the reference's terms, each with what
    it says how much of."""
    others = words.opposites.get(term.stem)
    if not others:
        return []
    if term.modifies:
        if any(stems.get(other, frozenset()) & term.modifies for other in others):
            return []
    elif not stems.keys().isdisjoint(others):
        return []
    said = words.opposite(term)
    if term.modifies and said:
        # A degree word is the opposite of another only of the same thing: "more space" says
        # nothing against "less dense".
        modified = words.modified
        said = [t for t in said if modified.get(t.start) in term.modifies]
    return said


def coverage(words: AnswerWords, terms: tuple[KeyTerm, ...], *, opposites: bool = False) -> Coverage:
    """``opposites``: a term found only as its opposite ("open" for "closed") counts as said under
    the other polarity. The judge of new tasks reads them; the graded-answer grader, whose
    constants were chosen without them, does not."""
    total = sum(t.weight for t in terms)
    reachable = words.reachable(terms)
    if total <= 0 or not reachable:
        return Coverage(0.0, (), ())
    earned = 0.0
    turned = 0.0
    matched: list[Token] = []
    contradicted: list[Token] = []
    opposed: list[Token] = []
    stems = {t.stem: t.modifies for t in terms} if opposites else {}
    turned_round = _turned(words, reachable, stems) if opposites else 0
    both_turned = turned_round >= 2 and turned_round % 2 == 0 and not _kept(words, reachable)
    for term in reachable:
        tokens, credit = words.find(term)
        said = _said_opposite(words, term, stems) if opposites and not tokens else []
        if said and both_turned:
            # "the shorter the string, the higher the pitch" states "the longer …, the lower …".
            matched.extend(said)
            earned += term.weight
            continue
        by_opposite = bool(said) and (term.weight >= 1 or turned_round == 1)
        if by_opposite:
            # "not open" says "closed"; "open" alone says the opposite of it. For the content
            # words the question does not already use, which are what the solution asserts, and
            # for the one word an answer turns round ("when the string is shorter" for the
            # question's "longer").
            tokens, credit = [t._replace(negated=not t.negated) for t in said], 1.0
        if not tokens:
            continue
        agreeing = [t for t in tokens if t.negated == term.negated]
        if agreeing:
            earned += term.weight * credit
            matched.extend(agreeing)
        else:
            earned += term.weight * CONTRADICTION_CREDIT
            if not term.negated:
                # A negated function word ("must not be open": "be") says little by itself; the
                # feedback points at the content words that are said the other way round.
                contradicted.extend(t for t in tokens if by_opposite or not t.stop)
            if by_opposite:
                opposed.extend(tokens)
                turned += term.weight * (1 - CONTRADICTION_CREDIT)
    return Coverage(
        earned / total, tuple(matched), tuple(contradicted), tuple(opposed), (earned + turned) / total
    )
