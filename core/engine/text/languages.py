"""Per-language tools from well-kept libraries: lemmas (simplemma), Snowball stemmers
(PyStemmer) and stop words.

Every language of the API maps to one of five bases (en, de, fr, it, es); DE_CH shares German's
tools because normalisation already folds ß into ss (``"ß".casefold() == "ss"``).
"""

from __future__ import annotations

from functools import cache, lru_cache

import simplemma
import Stemmer
from stop_words import get_stop_words

from core.api import Language

STEMMER_NAMES = {"en": "english", "de": "german", "fr": "french", "it": "italian", "es": "spanish"}

NEGATION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"not", "no", "never", "none", "nothing", "neither", "nor", "without", "cannot", "nobody", "nowhere"}
    ),
    "de": frozenset(
        {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "ohne", "nichts"}
    ),
    "fr": frozenset({"ne", "pas", "jamais", "aucun", "aucune", "sans", "non", "rien", "ni", "nullement"}),
    "it": frozenset({"non", "mai", "nessun", "nessuno", "nessuna", "senza", "niente", "nulla", "né"}),
    "es": frozenset({"no", "nunca", "jamás", "ningún", "ninguno", "ninguna", "sin", "nada", "ni", "tampoco"}),
}
"""Closed-class words that turn the meaning of their clause around ("not connected")."""

CLAUSE_CONNECTIVES: dict[str, frozenset[str]] = {
    "en": frozenset({"but", "because", "while", "whereas", "although", "though", "however", "since", "so"}),
    "de": frozenset({"aber", "weil", "denn", "während", "obwohl", "jedoch", "sondern", "da", "deshalb"}),
    "fr": frozenset({"mais", "parce", "car", "tandis", "bien", "cependant", "puisque", "donc"}),
    "it": frozenset({"ma", "perché", "mentre", "sebbene", "però", "invece", "poiché", "quindi"}),
    "es": frozenset({"pero", "porque", "mientras", "aunque", "sino", "pues", "así"}),
}
"""Words that open a new clause, and so end the scope of a negation before them."""

COORDINATORS: dict[str, frozenset[str]] = {
    "en": frozenset({"and", "or"}),
    "de": frozenset({"und", "oder"}),
    "fr": frozenset({"et", "ou"}),
    "it": frozenset({"e", "o"}),
    "es": frozenset({"y", "o"}),
}
SUBJECT_OPENERS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"the", "a", "an", "this", "that", "these", "those", "it", "they", "he", "she", "we", "there"}
    ),
    "de": frozenset({"der", "die", "das", "ein", "eine", "es", "sie", "er", "wir", "ich", "man"}),
    "fr": frozenset({"le", "la", "les", "un", "une", "il", "elle", "ils", "elles", "on", "ce", "cela"}),
    "it": frozenset({"il", "lo", "la", "gli", "le", "un", "una", "uno", "esso", "essa"}),
    "es": frozenset({"el", "la", "los", "las", "un", "una", "ello", "ella", "ellos", "ellas"}),
}
"""A coordinator followed by one of these words joins a new clause with its own subject ("no gap
and the voltage is 0"), which a negation before it does not cover; "not hot and dry" stays one."""


SEPARABLE_PARTICLES: dict[str, frozenset[str]] = {
    "de": frozenset(
        {
            "ab", "an", "auf", "aus", "bei", "ein", "fest", "her", "hin", "los", "mit", "nach", "vor",
            "weg", "zu", "zurück", "zusammen", "heraus", "herein", "hinaus", "hinein", "herab",
            "herunter", "hinauf", "hoch", "frei", "um",
        }
    ),
}  # fmt: skip
"""German particles that a verb sends to the end of its clause ("die Stromstärke nimmt ab" for
"abnehmen"; core.engine.text.tokens)."""

UNIVERSAL_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"both", "all", "every", "each"}),
    "de": frozenset({"beide", "beiden", "alle", "allen", "jede", "jeder", "jedes"}),
    "fr": frozenset({"tous", "toutes", "chaque"}),
    "it": frozenset({"tutti", "tutte", "entrambi", "entrambe", "ogni"}),
    "es": frozenset({"todos", "todas", "ambos", "ambas", "cada"}),
}
"""Words that say something of every one of a kind ("both bulbs are lit")."""

DEGREE_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"more", "less"}),
    "de": frozenset({"mehr", "weniger"}),
    "fr": frozenset({"plus", "moins"}),
    "it": frozenset({"più", "meno"}),
    "es": frozenset({"más", "menos"}),
}
"""Words of :data:`ANTONYMS` that say how much of the word after them: "more space" is not the
opposite of "less dense", only of "less space" (core.engine.text.coverage)."""


ANTONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("open", "closed"),
        ("increase", "decrease"),
        ("more", "less"),
        ("high", "low"),
        ("large", "small"),
        ("big", "small"),
        ("hot", "cold"),
        ("warm", "cold"),
        ("heat", "cool"),
        ("positive", "negative"),
        ("plus", "minus"),
        ("series", "parallel"),
        ("attract", "repel"),
        ("expand", "contract"),
        ("rise", "fall"),
        ("fast", "slow"),
        ("strong", "weak"),
        ("absorb", "reflect"),
        ("inside", "outside"),
        ("same", "different"),
        ("true", "false"),
        ("gain", "lose"),
        ("add", "remove"),
        ("conductor", "insulator"),
        ("start", "stop"),
        ("connect", "disconnect"),
        ("long", "short"),
        ("thick", "thin"),
        ("full", "empty"),
        ("wet", "dry"),
        ("hard", "soft"),
        ("east", "west"),
        ("north", "south"),
        ("melt", "freeze"),
        ("evaporate", "condense"),
        ("push", "pull"),
        ("dark", "bright"),
        ("complete", "incomplete"),
        ("accept", "reject"),
        ("cheap", "expensive"),
        ("centralized", "decentralized"),
        ("static", "dynamic"),
        ("allowed", "forbidden"),
        ("early", "late"),
        ("minimum", "maximum"),
        ("tight", "loose"),
    ),
    "de": (
        ("gut", "schlecht"),
        ("steil", "flach"),
        ("offen", "geschlossen"),
        ("öffnen", "schließen"),
        ("zunehmen", "abnehmen"),
        ("Zunahme", "Abnahme"),
        ("einschalten", "ausschalten"),
        ("anschalten", "ausschalten"),
        ("einatmen", "ausatmen"),
        ("steigen", "sinken"),
        ("erhöhen", "verringern"),
        ("mehr", "weniger"),
        ("hoch", "niedrig"),
        ("hoch", "gering"),
        ("groß", "klein"),
        ("groß", "gering"),
        ("warm", "kalt"),
        ("heiß", "kalt"),
        ("positiv", "negativ"),
        ("plus", "minus"),
        ("Reihe", "parallel"),
        ("anziehen", "abstoßen"),
        ("ausdehnen", "zusammenziehen"),
        ("schnell", "langsam"),
        ("stark", "schwach"),
        ("innen", "außen"),
        ("gleich", "verschieden"),
        ("richtig", "falsch"),
        ("Leiter", "Isolator"),
        ("aufnehmen", "abgeben"),
        ("verbinden", "trennen"),
        ("lang", "kurz"),
        ("dick", "dünn"),
        ("voll", "leer"),
        ("nass", "trocken"),
        ("hart", "weich"),
        ("Osten", "Westen"),
        ("Norden", "Süden"),
        ("schmelzen", "gefrieren"),
        ("verdunsten", "kondensieren"),
        ("drücken", "ziehen"),
        ("dunkel", "hell"),
        ("vollständig", "unvollständig"),
        ("annehmen", "ablehnen"),
        ("billig", "teuer"),
        ("zentral", "dezentral"),
        ("statisch", "dynamisch"),
        ("erlaubt", "verboten"),
        ("früh", "spät"),
        ("Minimum", "Maximum"),
        ("straff", "locker"),
    ),
    "fr": (
        ("ouvert", "fermé"),
        ("ouvrir", "fermer"),
        ("augmenter", "diminuer"),
        ("plus", "moins"),
        ("haut", "bas"),
        ("grand", "petit"),
        ("chaud", "froid"),
        ("positif", "négatif"),
        ("série", "parallèle"),
        ("attirer", "repousser"),
        ("rapide", "lent"),
        ("fort", "faible"),
        ("intérieur", "extérieur"),
        ("même", "différent"),
        ("vrai", "faux"),
        ("conducteur", "isolant"),
        ("connecter", "déconnecter"),
        ("long", "court"),
        ("épais", "mince"),
        ("plein", "vide"),
        ("mouillé", "sec"),
        ("dur", "mou"),
        ("nord", "sud"),
        ("fondre", "geler"),
        ("évaporer", "condenser"),
        ("pousser", "tirer"),
        ("sombre", "clair"),
        ("complet", "incomplet"),
        ("accepter", "refuser"),
        ("centralisé", "décentralisé"),
        ("statique", "dynamique"),
        ("autorisé", "interdit"),
        ("tôt", "tard"),
        ("minimum", "maximum"),
        ("tendu", "lâche"),
    ),
    "it": (
        ("aperto", "chiuso"),
        ("aprire", "chiudere"),
        ("aumentare", "diminuire"),
        ("più", "meno"),
        ("alto", "basso"),
        ("grande", "piccolo"),
        ("caldo", "freddo"),
        ("positivo", "negativo"),
        ("serie", "parallelo"),
        ("attrarre", "respingere"),
        ("veloce", "lento"),
        ("forte", "debole"),
        ("dentro", "fuori"),
        ("uguale", "diverso"),
        ("vero", "falso"),
        ("conduttore", "isolante"),
        ("collegare", "scollegare"),
        ("lungo", "corto"),
        ("spesso", "sottile"),
        ("pieno", "vuoto"),
        ("bagnato", "asciutto"),
        ("duro", "morbido"),
        ("est", "ovest"),
        ("nord", "sud"),
        ("fondere", "congelare"),
        ("evaporare", "condensare"),
        ("spingere", "tirare"),
        ("scuro", "chiaro"),
        ("completo", "incompleto"),
        ("accettare", "rifiutare"),
        ("economico", "costoso"),
        ("centralizzato", "decentralizzato"),
        ("statico", "dinamico"),
        ("permesso", "vietato"),
        ("presto", "tardi"),
        ("minimo", "massimo"),
        ("teso", "allentato"),
    ),
    "es": (
        ("abierto", "cerrado"),
        ("abrir", "cerrar"),
        ("aumentar", "disminuir"),
        ("más", "menos"),
        ("alto", "bajo"),
        ("grande", "pequeño"),
        ("caliente", "frío"),
        ("positivo", "negativo"),
        ("serie", "paralelo"),
        ("atraer", "repeler"),
        ("rápido", "lento"),
        ("fuerte", "débil"),
        ("dentro", "afuera"),  # not "fuera": simplemma reads it as a form of "ser" ("es")
        ("igual", "diferente"),
        ("verdadero", "falso"),
        ("conductor", "aislante"),
        ("conectar", "desconectar"),
        ("largo", "corto"),
        ("grueso", "delgado"),
        ("lleno", "vacío"),
        ("mojado", "seco"),
        ("duro", "blando"),
        ("norte", "sur"),
        ("derretir", "congelar"),
        ("evaporar", "condensar"),
        ("oscuro", "claro"),
        ("completo", "incompleto"),
        ("aceptar", "rechazar"),
        ("barato", "caro"),
        ("centralizado", "descentralizado"),
        ("estático", "dinámico"),
        ("permitido", "prohibido"),
        ("temprano", "tarde"),
        ("mínimo", "máximo"),
        ("tenso", "flojo"),
    ),
}
"""Opposites that turn a statement around as a negation does ("the circuit stays open" against
"the circuit is closed"): a short closed list per language, like the negation words, of the
pairs that decide answers in school science; no packaged multilingual antonym lexicon exists."""


LETTER_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"a", "i"}),
    "de": frozenset(),
    "fr": frozenset({"a", "y", "à"}),
    "it": frozenset({"a", "e", "i", "o", "è"}),
    "es": frozenset({"a", "e", "o", "y"}),
}
"""Single letters that are words of the language, so a label only where that word cannot stand."""

SMALL_LABEL_LETTERS: dict[str, frozenset[str]] = {
    "en": frozenset({"a"}),
    "de": frozenset(),
    "fr": frozenset(),
    "it": frozenset({"a"}),
    "es": frozenset(),
}
"""Letter words that, written small after a content word and before a function word, can only be
a label: an article or a preposition cannot stand there ("bulb a is on", "la lampada a è accesa").
A conjunction or a verb can: Italian and Spanish "e", "y", "o" ("in modo diretto e le giornate"),
Spanish "a" ("el cable a la batería"), French "a" ("la glace a une densité")."""

SENTENCE_OPENING_LETTERS: dict[str, frozenset[str]] = {
    "en": frozenset(),
    "de": frozenset(),
    "fr": frozenset({"a", "y", "à"}),
    "it": frozenset({"a", "e", "i", "o", "è"}),
    "es": frozenset({"a", "e", "o", "y"}),
}
"""Letter words that open a sentence as words ("E la corrente …", "Y la corriente …"): there a
capital before a function word is no label."""

NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    "de": ("null", "", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"),
    "fr": ("zéro", "", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"),
    "it": ("zero", "", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci"),
    "es": ("cero", "", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"),
}
"""Number words from zero to ten, by value, so "zero" meets "0". One is left out: "one", "ein",
"un", "uno" are also articles and pronouns ("the one that …")."""


def base_of(language: Language | str) -> str:
    code = language.base if isinstance(language, Language) else str(language)[:2].lower()
    return code if code in STEMMER_NAMES else "en"


@cache
def _stemmer(base: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(STEMMER_NAMES[base])


@cache
def stem(base: str, word: str) -> str:
    """The Snowball stem of a normalised word's lemma; cached since answers repeat their words.

    Stemming the lemma rather than the word joins forms that a stemmer alone keeps apart: strong
    verbs ("trifft" and "treffen", "went" and "go"), umlaut plurals ("Häuser" and "Haus"),
    irregular comparatives ("better" and "good"). Measured on the labelled corpora it lifts the
    judge of new tasks in every language (docs/freeform-engine.md). A number word's stem is its
    digits ("zero" → "0")."""
    number = number_words(base).get(word)
    if number is not None:
        return number
    return str(_stemmer(base).stemWord(lemma(base, word)))


@cache
def number_words(base: str) -> dict[str, str]:
    return {word: str(value) for value, word in enumerate(NUMBER_WORDS[base]) if word}


LEMMA_STEPS = 3


def lemma(base: str, word: str) -> str:
    """The dictionary form of a normalised word, casefolded (German nouns come back capitalised);
    the word itself when the dictionary does not know it.

    The dictionary is followed until it names a form it keeps: it takes an inflected participle
    to the participle ("geschlossenen" → "geschlossen", "abiertos" → "abierto", "chiusa" →
    "chiuso") and the participle on to its verb ("schließen", "abrir", "chiudere"), so one step
    would give "ein geschlossener Stromkreis" and "der Stromkreis ist geschlossen" two stems, and
    "offen" the opposite of only one of them."""
    if not word:
        return word
    for _ in range(LEMMA_STEPS):
        found = str(simplemma.lemmatize(word, lang=base)).casefold()
        if found == word:
            break
        word = found
    return word


@cache
def antonyms(base: str) -> dict[str, frozenset[str]]:
    """Stem → the stems of its opposites, for the base's :data:`ANTONYMS`; an adverb has its
    adjective's ("slowly" against "fast", :func:`_forms`)."""
    opposites: dict[str, set[str]] = {}
    for a, b in ANTONYMS[base]:
        forms_a, forms_b = _forms(base, a.casefold()), _forms(base, b.casefold())
        for sa in forms_a:
            opposites.setdefault(sa, set()).update(forms_b)
        for sb in forms_b:
            opposites.setdefault(sb, set()).update(forms_a)
    return {key: frozenset(values) for key, values in opposites.items()}


def _forms(base: str, word: str) -> set[str]:
    """The stems of a word of :data:`ANTONYMS` and of its adverb, where the stemmer keeps the two
    apart: English "-ly" ("slowli" against "slow"), Spanish and Italian "-mente" ("rápidamente"
    against "rápido"); French "-ment" stems to its adjective ("lentement", "lent")."""
    forms = {stem(base, word)}
    adverb = _adverb(base, word)
    if adverb is not None:
        forms.add(stem(base, adverb))
    return forms


def _adverb(base: str, word: str) -> str | None:
    """The adverb made from an adjective (for a word that is none, a form no text holds)."""
    if base == "en":
        if word.endswith("y"):
            return word[:-1] + "ily"
        if word.endswith("le"):
            return word[:-1] + "y"
        return word + ("ally" if word.endswith("ic") else "ly")
    if base in ("es", "it"):
        if word.endswith("o"):
            return word[:-1] + "amente"
        if base == "it" and word.endswith(("le", "re")):
            return word[:-1] + "mente"
        return word + "mente"
    return None


@lru_cache(maxsize=1 << 16)
def known(base: str, word: str) -> bool:
    """The dictionary knows the word: a word of its own, not a misspelling of another. (Asked of
    learners' words near a solution's, misspellings included, so the memory is bounded.)"""
    return bool(simplemma.is_known(word, lang=base))


def load_lemmatizers() -> None:
    """Load every base's dictionary (0.1–0.7 s each, 310 MB together) so no judgement waits."""
    for base in STEMMER_NAMES:
        lemma(base, "a")


@cache
def stop_words(base: str) -> frozenset[str]:
    """Function words of the language, casefolded (so German's list matches DE_CH spelling).

    Words with an opposite in :data:`ANTONYMS` are not among them, though the lists have many
    ("higher", "less", "same", "small"): which of the two an answer says can decide it ("the pitch
    will be higher" for "… lower"), so they weigh as content words and their opposites are seen."""
    opposable = antonyms(base)
    words = (word.casefold() for word in get_stop_words(STEMMER_NAMES[base]))
    return frozenset(word for word in words if stem(base, word) not in opposable)
