"""The language tools: offsets, normalisation, stems, stop words, typos and negation in five languages."""

from __future__ import annotations

import pytest

from core.engine.text.asked import asked_items
from core.engine.text.coverage import (
    PART_CREDIT,
    TYPO_CREDIT,
    AnswerWords,
    coverage,
    key_terms,
    sentence_words,
    share_part,
    substituted,
)
from core.engine.text.languages import antonyms, stem, stop_words
from core.engine.text.normalise import normalise_word
from core.engine.text.phrases import Found, evidence_spans, find_phrase, phrase_terms
from core.engine.text.relations import (
    clause_words,
    exchanged,
    reversed_comparison,
    reversed_relation,
    sentence_comparisons,
    sentence_relations,
)
from core.engine.text.segment import clause_breaks, sentences
from core.engine.text.tokens import Analysis, analyse, sentence_tokens


def test_normalisation_folds_width_case_apostrophes_and_sharp_s() -> None:
    assert normalise_word("Straße") == normalise_word("STRASSE") == "strasse"
    assert normalise_word("ﬁle") == "file"
    assert normalise_word("doesn’t") == "doesn't"


def test_sentences_keep_offsets_and_skip_abbreviations() -> None:
    text = "Salt stays, e.g. in the dish. Water evaporates!\n- it rises\n"
    spans = sentences(text)
    assert [s.text(text) for s in spans] == ["Salt stays, e.g. in the dish.", "Water evaporates!", "it rises"]
    assert all(text[s.start : s.end] == s.text(text) for s in spans)


def test_a_line_wrapped_at_a_page_width_does_not_end_its_sentence() -> None:
    # Pasted from a PDF: the sentence goes on in lowercase after a long line without punctuation.
    text = (
        "Reduced complexity of the switches: they only have to act according to their flow\n"
        "tables and do not have to make any local routing decisions.\n"
        "1. We can update the routing logic on the fly.\n"
        "short item\nanother item"
    )
    assert [s.text(text) for s in sentences(text)] == [
        "Reduced complexity of the switches: they only have to act according to their flow\n"
        "tables and do not have to make any local routing decisions.",
        "1. We can update the routing logic on the fly.",
        "short item",
        "another item",
    ]
    wrap = text.index("\ntables")
    assert wrap not in clause_breaks(text)
    assert text.index("\nanother") in clause_breaks(text)


def test_clause_breaks_at_punctuation() -> None:
    assert clause_breaks("a, b; c") == [1, 4]


@pytest.mark.parametrize(
    ("base", "text", "negated_word", "plain_word"),
    [
        ("en", "The bulb is lit but the wires are not connected.", "connected", "lit"),
        ("en", "The wire isn't connected, the bulb is lit.", "connected", "lit"),
        ("de", "Die Lampe leuchtet, aber die Drähte sind nicht verbunden.", "verbunden", "leuchtet"),
        ("de", "Die Drähte verbinden wir nicht. Die Lampe leuchtet.", "verbinden", "leuchtet"),
        ("fr", "L'ampoule brille mais le circuit n'est pas connecté.", "connecté", "brille"),
        ("it", "La lampadina è accesa ma il circuito non è collegato.", "collegato", "accesa"),
        ("es", "La bombilla está encendida pero el circuito no está conectado.", "conectado", "encendida"),
        ("en", "There is no gap between them and the voltage is 0.", "gap", "voltage"),
        ("en", "The wire is not hot and dry.", "dry", "wire"),
        ("de", "Es gibt keine Lücke und die Spannung ist null.", "Lücke", "Spannung"),
    ],
)
def test_negation_covers_its_clause_only(base: str, text: str, negated_word: str, plain_word: str) -> None:
    tokens = {text[t.start : t.end]: t for t in analyse(text, base).tokens}
    assert tokens[negated_word].negated
    assert not tokens[plain_word].negated


def test_tokens_point_at_the_text_and_strip_elision() -> None:
    text = "L’eau s'évapore."
    analysis = analyse(text, "fr")
    assert [t.norm for t in analysis.tokens] == ["eau", "évapore"]
    assert [text[t.start : t.end] for t in analysis.tokens] == ["L’eau", "s'évapore"]


def test_stems_and_stop_words_per_language() -> None:
    assert stem("en", "evaporated") == stem("en", "evaporates")
    assert stem("de", "verbunden") == stem("de", "verbunden")
    assert stem("es", "conectado") == stem("es", "conectados")
    assert {"the", "und", "le", "il", "el"} <= stop_words("en") | stop_words("de") | stop_words(
        "fr"
    ) | stop_words("it") | stop_words("es")


@pytest.mark.parametrize(
    ("base", "copula"),
    [
        ("en", {"is", "are", "was"}),
        ("de", {"ist", "sind", "war"}),
        ("fr", {"est", "sont", "était"}),
        ("it", {"è", "sono", "era"}),
        ("es", {"es", "son", "era", "fue"}),
    ],
)
def test_words_with_an_opposite_are_not_stop_words_but_common_verbs_stay(base: str, copula: set[str]) -> None:
    """A word with an opposite ("higher", "less") can decide an answer, so it is no stop word. A
    lemma that folds an opposite into a common verb (Spanish "fuera", outside, read as a form of
    "ser") must not take "es" off the list and make it the opposite of "dentro"."""
    assert copula <= stop_words(base)
    if base == "en":
        assert not {"higher", "lower", "more", "less", "same"} & stop_words(base)


@pytest.mark.parametrize(
    ("reference", "answer", "base", "found"),
    [
        ("evaporation", "evaporatoin", "en", True),
        ("filament", "filamnet", "en", True),  # a swap of neighbours is one edit
        ("connecté", "connecte", "fr", True),
        ("heat", "hear", "en", False),  # one edit makes another short word
        # a word the dictionary knows is another word, unless only its ending differs
        ("synchronous", "asynchronous", "en", False),
        ("there", "where", "en", False),
        ("reflected", "refracted", "en", False),
        ("connection", "congestion", "en", False),
        ("tighten", "tighter", "en", True),
        ("heated", "heater", "en", True),
    ],
)
def test_typos_match_long_words_but_not_short_ones(
    reference: str, answer: str, base: str, found: bool
) -> None:
    terms = key_terms(analyse(reference, base))
    assert (coverage(AnswerWords(analyse(answer, base)), terms).score > 0) is found


def test_coverage_counts_contradiction_against_the_answer() -> None:
    terms = key_terms(analyse("The water evaporates and the salt stays.", "en"))
    agreeing = coverage(AnswerWords(analyse("The watter evaporates, salt stays", "en")), terms)
    opposed = coverage(AnswerWords(analyse("The water does not evaporate.", "en")), terms)
    assert agreeing.score > 0.8
    assert opposed.score < 0.3
    assert [t.norm for t in opposed.contradicted] == ["evaporate"]


def test_an_opposite_contradicts_only_where_the_reference_names_one_end() -> None:
    lower = key_terms(analyse("The pitch will be lower.", "en"))
    higher = coverage(AnswerWords(analyse("The pitch will be higher.", "en")), lower, opposites=True)
    assert [t.norm for t in higher.opposed] == ["higher"]
    both_ends = key_terms(analyse("Run a wire from the plus pole to the minus pole.", "en"))
    one_end = coverage(AnswerWords(analyse("A wire goes to the plus pole.", "en")), both_ends, opposites=True)
    assert one_end.opposed == () and one_end.contradicted == ()


def test_a_covariation_turned_round_earns_only_the_words_it_turns() -> None:
    """Both ends said as their opposites state the covariation, but a word the answer leaves out
    is not said by that: the guitar is still missing."""
    guitar = key_terms(analyse("The longer the string, the lower the pitch of the guitar.", "en"))
    turned = coverage(
        AnswerWords(analyse("The shorter the string, the higher the pitch.", "en")), guitar, opposites=True
    )
    whole = coverage(
        AnswerWords(analyse("The shorter the string, the higher the pitch of the guitar.", "en")),
        guitar,
        opposites=True,
    )
    assert whole.score == 1.0
    assert 0.5 < turned.score < 1.0
    assert "guitar" not in [t.norm for t in turned.matched]


@pytest.mark.parametrize(
    ("statement", "base", "asked"),
    [
        ("Name the 2 phases of congestion control and explain how the window changes.", "en", 2),
        ("Please NAME and DESCRIBE two challenges.", "en", 2),
        ("Describe two benefits and two drawbacks in 1-2 sentences each.", "en", 4),
        ("What are the objectives of IPv6? Please state at least 4 objectives.", "en", 4),
        ("Nenne zwei Gründe, warum sich die Schiene ausdehnt.", "de", 2),
        ("Citez trois avantages.", "fr", 3),
        ("Elenca due vantaggi e due svantaggi.", "it", 4),
        ("Explain your answer in 2-5 sentences.", "en", None),
        ("A 3 m rail expands on a hot day. Why?", "en", None),
    ],
)
def test_the_number_of_items_a_question_asks_for(statement: str, base: str, asked: int | None) -> None:
    assert asked_items(analyse(statement, base)) == asked


def test_phrase_found_contradicted_or_absent_with_spans_on_the_text() -> None:
    text = "Die Drähte sind nicht verbunden, die Lampe leuchtet."
    analysis = analyse(text, "de")
    negative = find_phrase(sentence_words(analysis), phrase_terms(analyse("nicht verbunden", "de")))
    positive = find_phrase(sentence_words(analysis), phrase_terms(analyse("verbunden", "de")))
    assert negative.found is Found.PRESENT
    assert positive.found is Found.CONTRADICTED
    [span] = evidence_spans(analysis, negative.tokens)
    assert text[span.start : span.end] == "nicht verbunden"
    assert (
        find_phrase(sentence_words(analysis), phrase_terms(analyse("Batterie", "de"))).found is Found.ABSENT
    )


def test_evidence_is_the_tightest_occurrence_of_the_phrase() -> None:
    text = "The <circuit> is a closed circuit."
    analysis = analyse(text, "en")
    match = find_phrase(sentence_words(analysis), phrase_terms(analyse("closed circuit", "en")))
    [span] = evidence_spans(analysis, match.tokens)
    assert text[span.start : span.end] == "closed circuit"


def test_sentence_words_index_each_sentence_apart_with_the_answers_offsets() -> None:
    answer = analyse("The wire is thin. The bulb glows brightly.", "en")
    first, second = sentence_words(answer)
    terms = key_terms(analyse("thin wire", "en"))
    assert coverage(first, terms).score == 1.0
    assert coverage(second, terms).score == 0.0
    glow = coverage(second, key_terms(analyse("glows", "en"))).matched
    assert [answer.text[t.start : t.end] for t in glow] == ["glows"]


@pytest.mark.parametrize(
    ("base", "text", "term", "found"),
    [
        # a typo in its own sentence, though another sentence has the word itself
        (
            "en",
            "The curent heats the wire. The current is strong.",
            "current",
            [("curent", TYPO_CREDIT), ("current", 1.0)],
        ),
        # the nearest spelling a sentence holds, not the nearest of the whole answer
        (
            "en",
            "A batery and a bulb. The batteries are flat.",
            "battery",
            [("batery", TYPO_CREDIT), ("batteries", 1.0)],
        ),
        # a compound's part in its own sentence only
        (
            "de",
            "Ich zeige das Informationsschreiben. Dann gehe ich.",
            "Schreiben",
            [("Informationsschreiben", PART_CREDIT), None],
        ),
    ],
)
def test_each_sentence_finds_a_term_by_the_words_it_holds(
    base: str, text: str, term: str, found: list[tuple[str, float] | None]
) -> None:
    """Sentences look near spellings and parts up through the whole answer, once a term, yet each
    finds what it holds itself, as if it were indexed alone."""
    answer = analyse(text, base)
    [key] = key_terms(analyse(term, base))
    for words, expected in zip(sentence_words(answer), found, strict=True):
        tokens, credit = words.find(key)
        got = [(answer.text[t.start : t.end], credit) for t in tokens]
        assert got == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("base", "text", "reference"),
    [
        # the words themselves, a typo, an opposite and a negation, each in another sentence
        (
            "en",
            "The bulb is dark. The curent flows in a closed circuit. It is open now. It is not closed.",
            "The current flows through the bulb in a closed circuit.",
        ),
        # a covariation turned round in one sentence, its plain statement in the next
        (
            "en",
            "When the string is shorter, the pitch is higher. A longer string gives a lower pitch.",
            "The longer the string, the lower the pitch.",
        ),
        # a compound's part and a joined separable verb, each in a sentence of its own
        (
            "de",
            "Das Licht ist aus. Ich zeige das Informationsschreiben. Die Schiene ausdehnt sich.",
            "Das Schreiben zeigen. Die Schiene dehnt sich aus.",
        ),
    ],
)
def test_a_sentence_covers_a_reference_as_if_it_were_indexed_alone(
    base: str, text: str, reference: str
) -> None:
    """Terms a sentence cannot hold are skipped (AnswerWords.reachable): each sentence's coverage
    and the phrases found stay what indexing the sentence alone gives."""
    answer = analyse(text, base)
    alone = [
        AnswerWords(Analysis(answer.text, base, tuple(tokens), ())) for tokens in sentence_tokens(answer)
    ]
    terms = key_terms(analyse(reference, base))
    for indexed, own in zip(sentence_words(answer), alone, strict=True):
        assert coverage(indexed, terms, opposites=True) == coverage(own, terms, opposites=True)
    for sentence in analyse(reference, base).sentences:
        phrase = phrase_terms(analyse(reference[sentence.start : sentence.end], base))
        assert find_phrase(sentence_words(answer), phrase) == find_phrase(alone, phrase)
    assert any(coverage(words, terms, opposites=True).score > 0 for words in alone[1:])


@pytest.mark.parametrize(
    ("base", "text", "cause", "effect"),
    [
        ("en", "The rail expands because the steel is heated.", "heat", "expand"),
        ("en", "Because the steel is heated, the rail expands.", "heat", "expand"),
        ("en", "The steel is heated, so the rail expands.", "heat", "expand"),
        ("de", "Die Schiene dehnt sich aus, weil der Stahl erwärmt wird.", "erwarm", "ausdehn"),
    ],
)
def test_causal_sides_follow_the_connective_not_the_word_order(
    base: str, text: str, cause: str, effect: str
) -> None:
    (said,) = sentence_relations(analyse(text, base))
    assert any(s.startswith(cause) for s in said.cause) and not any(s.startswith(cause) for s in said.effect)
    assert any(s.startswith(effect) for s in said.effect) and not any(
        s.startswith(effect) for s in said.cause
    )


def test_a_colon_or_a_dash_ends_what_a_causal_connective_reaches() -> None:
    """ "Because A: B" gives a reason and explains it; B is no effect of A."""
    for text in (
        "Because ice is less dense than water: its molecules are further apart.",
        "Because ice is less dense than water – its molecules are further apart.",
        "Parce que la glace est moins dense que l'eau : ses molécules sont plus éloignées.",
    ):
        assert sentence_relations(analyse(text, "fr" if "glace" in text else "en")) == ()
    (said,) = sentence_relations(analyse("Because ice is less dense than water, it floats.", "en"))
    assert "dens" in said.cause and "float" in said.effect


def test_a_relation_is_reversed_only_when_no_sentence_states_it_the_right_way() -> None:
    (fact,) = sentence_relations(analyse("The rail expands because the steel is heated.", "en"))
    swapped = sentence_relations(analyse("The steel is heated because the rail expands.", "en"))
    assert reversed_relation(fact, swapped)
    assert not reversed_relation(fact, sentence_relations(analyse("The rail expands.", "en")))
    assert not reversed_relation(
        fact, swapped + sentence_relations(analyse("It expands because it is heated.", "en"))
    )


@pytest.mark.parametrize(
    ("base", "fact", "swapped", "turned_and_swapped", "agreeing"),
    [
        (
            "en",
            "Ice is less dense than liquid water, because its molecules are further apart.",
            "Water is less dense than ice, so ice floats.",
            "Water is more dense than ice.",
            "Ice is less dense than water.",
        ),
        (
            "de",
            "Eis hat eine geringere Dichte als flüssiges Wasser.",
            "Wasser hat eine geringere Dichte als Eis.",
            "Wasser hat eine höhere Dichte als Eis.",
            "Eis hat eine geringere Dichte als Wasser.",
        ),
        (
            "fr",
            "La glace est moins dense que l'eau.",
            "L'eau est moins dense que la glace.",
            "L'eau est plus dense que la glace.",
            "La glace est moins dense que l'eau liquide.",
        ),
        # the comparative of a word for the small end compares by less
        (
            "en",
            "Ice is less dense than liquid water.",
            "Water is lighter than ice.",
            "Water has a higher density than ice.",
            "Ice has a lower density than water.",
        ),
        (
            "fr",
            "La glace est moins dense que l'eau.",
            "L'eau a une densité plus faible que la glace.",
            "L'eau a une densité plus grande que la glace.",
            "La glace a une densité plus faible que l'eau.",
        ),
        (
            "en",
            "Slow start lasts while cwnd is less than ss_thresh.",
            "ss_thresh is smaller than cwnd.",
            "ss_thresh is larger than cwnd.",
            "cwnd is smaller than ss_thresh.",
        ),
    ],
)
def test_a_comparison_is_reversed_when_its_sides_swap_and_its_degree_does_not(
    base: str, fact: str, swapped: str, turned_and_swapped: str, agreeing: str
) -> None:
    (compared,) = sentence_comparisons(analyse(fact, base))
    opposites = antonyms(base)

    def reversed_by(text: str) -> bool:
        return reversed_comparison(compared, sentence_comparisons(analyse(text, base)), opposites)

    assert reversed_by(swapped)
    assert not reversed_by(turned_and_swapped)  # the same statement from the other side
    assert not reversed_by(agreeing)
    assert not reversed_by(f"{swapped} {agreeing}")


@pytest.mark.parametrize(
    ("fact", "turned"),
    [
        ("The minus pole is colder than the wire.", "The plus pole is colder than the wire."),
        ("The plus pole is colder than the wire.", "The minus pole is colder than the wire."),
    ],
)
def test_a_word_that_is_a_degree_word_only_in_another_language_keeps_its_opposite(
    fact: str, turned: str
) -> None:
    """English "plus" is a word of its own, not the French degree word that a comparison's
    direction reads: said for "minus" on the same side, it turns the comparison round."""
    (compared,) = sentence_comparisons(analyse(fact, "en"))
    assert reversed_comparison(compared, sentence_comparisons(analyse(turned, "en")), antonyms("en"))


def test_than_compares_only_where_it_compares() -> None:
    assert not sentence_comparisons(analyse("Use a battery other than the red one.", "en"))
    # German "als" is also "when" and "as": it compares only after a comparative.
    assert not sentence_comparisons(analyse("Als der Schalter offen war, leuchtete die Lampe.", "de"))
    assert not sentence_comparisons(analyse("Er arbeitet als Elektriker im Labor.", "de"))
    assert not sentence_comparisons(analyse("Wasser als Lösungsmittel löst das Salz.", "de"))
    assert sentence_comparisons(analyse("Kupfer leitet besser als Eisen.", "de"))


@pytest.mark.parametrize(
    ("base", "text", "before", "after"),
    [
        # a comma between two adjectives of one noun keeps them on their side
        (
            "de",
            "Blaues, kurzwelliges Licht wird viel stärker gestreut als rotes, langwelliges Licht.",
            {"blau", "kurzwell", "stark", "streu"},
            {"rot", "langwell"},
        ),
        # "than" cut short before a vowel, or joined to an article
        (
            "fr",
            "La lumière rouge est plus diffusée qu'une lumière bleue.",
            {"roug", "plus", "diffus"},
            {"bleu"},
        ),
        ("it", "L'olio è meno denso dell'acqua.", {"oli", "men", "dens"}, {"acqua"}),
        (
            "it",
            "La luce blu viene diffusa più della luce rossa del tramonto.",
            {"blu", "più"},
            {"ross", "tramont"},
        ),
        # the first "than" word after the degree word compares; a later one opens what follows
        ("es", "La luz azul se dispersa más que la luz que viene del sol.", {"azul", "mas"}, {"sol"}),
        # what a sentence names before a connective takes no word off the second side
        (
            "de",
            "Der Himmel ist blau, weil rotes Licht stärker gestreut wird als blaues.",
            {"himmel", "rot", "stark"},
            {"blau"},
        ),
    ],
)
def test_a_comparisons_sides_reach_its_things_in_every_form(
    base: str, text: str, before: set[str], after: set[str]
) -> None:
    (compared,) = sentence_comparisons(analyse(text, base))
    assert before <= compared.before and after <= compared.after
    assert not (before & compared.after or after & compared.before)


def test_a_comma_between_clauses_still_ends_a_comparisons_side() -> None:
    (compared,) = sentence_comparisons(
        analyse("Eis ist leichter als Wasser, schwimmendes Eis schmilzt.", "de")
    )
    assert compared.after == {"wass"}


@pytest.mark.parametrize(
    ("base", "fact", "exchanged_words", "right"),
    [
        (
            "de",
            "TCP ist verbindungsorientiert, UDP ist verbindungslos.",
            "UDP ist verbindungsorientiert, TCP ist verbindungslos.",
            [
                "TCP ist verbindungsorientiert, UDP nicht.",
                "Bei UDP gibt es keine Verbindung, TCP ist verbindungsorientiert.",
            ],
        ),
        (
            "en",
            "Bulb B is lit, bulb A is not.",
            "Bulb A is lit, bulb B is not.",
            ["B is lit, A is not.", "Bulb B is lit and bulb A is dark."],
        ),
        (
            "en",
            "Copper is a conductor, while rubber is an insulator.",
            "Rubber is a conductor, while copper is an insulator.",
            [
                "Copper is a conductor and rubber an insulator.",
                "Copper conducts electricity and rubber is an insulator.",
            ],
        ),
    ],
)
def test_two_claims_with_their_words_exchanged(
    base: str, fact: str, exchanged_words: str, right: list[str]
) -> None:
    claims = tuple(c for c in clause_words(analyse(fact, base)).values() if len(c) >= 2)
    assert exchanged(claims, clause_words(analyse(exchanged_words, base)).values())
    for text in right:
        assert not exchanged(claims, clause_words(analyse(text, base)).values()), text
    assert not exchanged(claims, clause_words(analyse(f"{exchanged_words} {fact}", base)).values())


def test_a_degree_word_is_the_opposite_only_of_the_same_thing() -> None:
    """ "more space" says nothing against "less dense"; "more dense" says its opposite."""
    terms = key_terms(analyse("Ice is less dense than water.", "en"))
    assert not coverage(
        AnswerWords(analyse("Ice takes up more space than water.", "en")), terms, opposites=True
    ).opposed
    said = coverage(AnswerWords(analyse("Ice is more dense than water.", "en")), terms, opposites=True)
    assert [t.norm for t in said.opposed] == ["more"]


def test_a_degree_word_that_ends_its_phrase_says_how_much_of_the_word_before_it() -> None:
    """ "vibrate more and break free": "more" is said of "vibrate", not of "break"."""
    terms = key_terms(analyse("The particles vibrate more and break free.", "en"))
    said = coverage(AnswerWords(analyse("The particles vibrate less.", "en")), terms, opposites=True)
    assert [t.norm for t in said.opposed] == ["less"]
    other = coverage(
        AnswerWords(analyse("The particles vibrate and break free with less noise.", "en")),
        terms,
        opposites=True,
    )
    assert not other.opposed


def test_an_english_adverb_has_the_opposites_of_its_adjective() -> None:
    opposites = antonyms("en")
    slowly = analyse("slowly", "en").tokens[0].stem
    assert analyse("fast", "en").tokens[0].stem in opposites[slowly]
    assert slowly in opposites[analyse("faster", "en").tokens[0].stem]


@pytest.mark.parametrize(
    ("base", "adverb", "opposite"), [("es", "rápidamente", "lento"), ("it", "lentamente", "veloce")]
)
def test_a_romance_adverb_in_mente_has_the_opposites_of_its_adjective(
    base: str, adverb: str, opposite: str
) -> None:
    """Spanish stems "rápidamente" to "rapid" but "rápido" to "rap": the adverb is listed too."""
    said = analyse(adverb, base).tokens[0].stem
    assert analyse(opposite, base).tokens[0].stem in antonyms(base)[said]


def _values(text: str, base: str = "en") -> list[str]:
    return [t.stem for t in analyse(text, base).tokens if t.value]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Bulb A is in a closed path with the battery.", ["#a"]),
        ("bulb a and c are on", ["#a", "#c"]),
        ("A is on, between A and B.", ["#a", "#a", "#b"]),
        ("A bulb makes a loop.", []),
        ("Bulb A stays lit.", ["#a"]),  # a capital right after a noun is no article
        ("The bulb is off. A wire is missing.", []),
        ("I think it is on, e.g. in circuit 2.", ["2"]),
        ("The voltage is zero across switch Z.", ["0", "#z"]),
        ("a) the router(s) forward\no Packets are sent", []),
        ("Lampe A und Lampe B leuchten, die Spannung ist null.", ["#a", "#b", "0"]),
    ],
)
def test_values_are_numbers_and_labels_not_articles_or_list_marks(text: str, values: list[str]) -> None:
    base = "de" if "Lampe" in text else "en"
    assert _values(text, base) == values


@pytest.mark.parametrize(
    ("base", "text", "values"),
    [
        ("fr", "La glace a une densité plus faible que l'eau.", []),  # "a": has
        ("fr", "On relie le fil à la pile, et la lampe A à gauche brille.", ["#a"]),
        ("it", "I raggi colpiscono in modo diretto e le giornate sono lunghe.", []),  # "e": and
        ("it", "E la corrente passa, la lampada a è accesa.", ["#a"]),  # "è": is
        ("it", "Tra la lampada A e la lampada B.", ["#a", "#b"]),
        ("es", "Conecta el cable a la batería y la corriente pasa.", []),  # "a": to, "y": and
        ("es", "Y la bombilla A se enciende.", ["#a"]),
    ],
)
def test_a_letter_that_is_a_word_of_the_language_is_a_label_only_where_the_word_cannot_stand(
    base: str, text: str, values: list[str]
) -> None:
    assert _values(text, base) == values


def test_another_value_for_the_same_word_is_a_substitution() -> None:
    reference = key_terms(analyse("Bulb A is in a closed path with the battery.", "en"))
    known = frozenset(t.stem for t in reference if t.value)
    assert substituted(reference, known, AnswerWords(analyse("bulb B is in a closed path", "en")))
    assert not substituted(reference, known, AnswerWords(analyse("bulb a is in a closed path", "en")))
    assert not substituted(reference, known, AnswerWords(analyse("bulbs A and B are in closed paths", "en")))
    # "vitamin C" is not a bulb: another word, and a letter is no number either.
    assert not substituted(reference, known, AnswerWords(analyse("it has vitamin C and 2 bulbs", "en")))


def test_a_number_word_before_a_word_counts_it_and_is_no_other_value_of_the_sentence() -> None:
    """ "the two ends of the switch" counts ends; it does not give the switch a voltage of 2
    against "the voltage across a closed switch is zero"."""
    reference = key_terms(analyse("The voltage across a closed switch is zero.", "en"))
    known = frozenset(t.stem for t in reference if t.value)
    answer = AnswerWords(
        analyse("There is no voltage because the two ends of the switch are connected.", "en")
    )
    assert not substituted(reference, known, answer)
    assert substituted(reference, known, AnswerWords(analyse("The voltage across the switch is two.", "en")))


def test_a_four_letter_german_word_meets_a_compound_only_at_its_ends() -> None:
    assert share_part("foto", "fotografi")  # "Foto" / "fotografieren"
    assert share_part("shop", "tankshop")
    assert not share_part("rand", "brandschutz")  # inside a word, four letters are chance
    assert not share_part("tur", "toilettentur")  # three are too few anywhere


def test_a_german_verb_with_an_inseparable_prefix_is_another_word_not_a_compound() -> None:
    """ "verbrauchen" (use up) is not "brauchen" (need), "bekommen" (get) not "kommen" (come),
    "entladen" the opposite of "laden": the prefix makes another verb, not a compound of it."""
    stems = {w: analyse(w, "de").tokens[0].stem for w in ("verbraucht", "braucht", "bekommt", "kommt")}
    assert not share_part(stems["braucht"], stems["verbraucht"])
    assert not share_part(stems["kommt"], stems["bekommt"])
    assert share_part("leit", "warmeleit")  # a compound's head still is one


@pytest.mark.parametrize(
    ("text", "verb", "particle", "stem"),
    [
        ("Die Stromstärke nimmt bei größerem Widerstand ab.", "nimmt", "ab", "abnehm"),
        ("Die Stromstärke nimmt zu und die Spannung bleibt gleich.", "nimmt", "zu", "zunehm"),
        ("Die Pflanze nimmt Kohlendioxid auf.", "nimmt", "auf", "aufnehm"),
        ("Man schaltet die Lampe ein.", "schaltet", "ein", "einschalt"),
    ],
)
def test_a_german_verb_with_an_opposite_is_read_with_its_separated_particle(
    text: str, verb: str, particle: str, stem: str
) -> None:
    tokens = analyse(text, "de").tokens
    assert next(t.stem for t in tokens if t.norm == verb) == stem
    assert next(t for t in tokens if t.norm == particle).stop  # part of the verb, no word of its own


def test_a_german_particle_that_is_no_verbs_stays_a_word() -> None:
    """Only a clause's last word is a verb's particle, and only for a verb with an opposite."""
    tokens = analyse("Er geht zu der Tür und nimmt ab und zu einen Keks.", "de").tokens
    assert [t.stem for t in tokens if t.norm in ("geht", "nimmt")] == ["geh", "nehm"]
