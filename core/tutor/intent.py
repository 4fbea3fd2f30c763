"""What a learner's message is for, read before the tutor answers it.

A tutor that answers every message with the next hint ignores what was asked. So each message is
read first: an attempt at the task, a question about a term of the task, a "why?", a request for
the solution (however it is dressed up: role-play, translation), a yes/no guess, "am I done?",
"I don't know", "go on", a request for the key words or a hint, a greeting, frustration, a
self-correction, or something off the task, in English, German, French, Italian and Spanish. The
patterns are short closed lists per language, like the negation words of the freeform engine; an
unmatched message is judged by its words (does it talk about the task?) in
:mod:`core.tutor.grounded`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from core.engine.text.tokens import analyse


class Intent(StrEnum):
    ATTEMPT = "attempt"
    QUESTION = "question"
    """A question about the task's content ("why does the bulb stay dark with one wire?")."""
    TERM_QUESTION = "term_question"
    WHY = "why"
    DEMAND = "demand"
    PROBE = "probe"
    GREETING = "greeting"
    CONFUSED = "confused"
    HINT_REQUEST = "hint_request"
    """Asking for help or a hint ("give me a hint", "what should I write?"): the next hint."""
    STUCK = "stuck"
    """"I don't know", "idk", "keine Ahnung": the learner has no idea yet; the next hint."""
    GO_ON = "go_on"
    """"ok", "go on", "weiter", "et après ?": the learner waits for the tutor; the next hint."""
    KEY_WORDS = "key_words"
    """"List the key words": they are the answer's words; no list, the next hint."""
    DONE_CHECK = "done_check"
    """"Am I done?", "is that right?": not yet (and what is open), or yes."""
    OFF_TOPIC = "off_topic"


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def _each(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """Patterns tried one by one (each names the same group)."""
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


DEMANDS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\b(?:give|tell|show|send|write|read|say|print|spell|confirm|reveal|repeat|translate)\b.{0,40}"
        r"\b(?:answers?|solutions?|it out|it in full)\b",
        r"\b(?:sample|model|perfect|correct|right|full|whole|entire|complete) (?:answer|solution)\b",
        r"\bwhat(?:'s| is| was| would)\b.{0,30}\b(?:answer|solution)\b",
        r"\b(?:want|need|have|get)\b.{0,20}\b(?:the|your|a full|the full) (?:answer|solution)\b",
        r"\b(?:answer key|just tell me|tell me what to write|do it for me|solve it|complete (?:this|the) sentence)\b",
        r"\b(?:pretend|role-?play|act as|ignore (?:your|all|previous|the)|developer mode|system prompt)\b",
        r"\b(?:summari[sz]e what you|begging|just this once)\b",
    ),
    "de": _any(
        r"\b(?:sag|gib|zeig|schreib|verrat|lies|bestätig|wiederhol|übersetz)\w*\b.{0,40}\b(?:antwort|lösung)\w*",
        r"\b(?:muster|perfekt\w*|richtig\w*|ganz\w*|komplett\w*|vollständig\w*) ?(?:antwort|lösung)",
        r"\b(?:wie lautet|sag es mir|sag mir einfach|tu so|stell dir vor|rollenspiel|spiel\w* (?:mein|den|die|eine)\w*)",
        r"\b(?:ignorier\w*|entwicklermodus|systemprompt|übersetz\w*|vervollständig\w*|flehe|nur dieses eine mal)\b",
        r"\b(?:fass\w* .{0,30}zusammen|ausschreib\w*|ganz aus)",
    ),
    "fr": _any(
        r"\b(?:donne|dis|montre|écris|révèle|répète|tradui|confirme|lis)\w*\b.{0,40}\b(?:réponses?|solutions?)\b",
        r"\b(?:réponse|solution) (?:modèle|type|complète|parfaite)\b",
        r"\b(?:quelle est la (?:bonne )?(?:réponse|solution)|dis-le moi|fais-le pour moi|fais comme si|joue le rôle)\b",
        r"\b(?:ignore (?:tes|les)|mode développeur|tradui\w*|résume\w* ce que)\b",
    ),
    "it": _any(
        r"\b(?:dammi|dimmi|mostrami|scrivi|rivela|ripeti|tradu\w*|conferma)\b.{0,40}\b(?:rispost\w*|soluzion\w*)",
        r"\b(?:risposta|soluzione) (?:modello|completa|perfetta|giusta)\b",
        r"\b(?:qual è la (?:risposta|soluzione)|fai finta|interpreta il ruolo|ignora (?:le|tutte)|modalità sviluppatore)",
        r"\b(?:tradu\w*|riassumi quello)\b",
    ),
    "es": _any(
        r"\b(?:dame|dime|muéstrame|escribe|revela|repite|traduce|confirma)\b.{0,40}\b(?:respuestas?|soluci[oó]n\w*)",
        r"\b(?:respuesta|solución) (?:modelo|completa|perfecta|correcta)\b",
        r"\b(?:cuál es la (?:respuesta|solución)|finge|haz de cuenta|ignora (?:tus|las)|modo desarrollador)",
        r"\b(?:traduce|resume lo que)\b",
    ),
}
"""Asking for the answer, or for a way around the tutor: it never buys a hint."""

_Q = r"[\"“‘'«„]?\s*"
_UQ = r"\s*[\"”’'»“]?"
TERM_QUESTIONS: dict[str, re.Pattern[str]] = {
    "en": _any(
        rf"\bwhat (?:does|do) (?:the word |the term )?{_Q}(?P<a>[\w -]{{2,40}}?){_UQ} mean\b",
        rf"^\s*(?:so |and |but |ok,? )?what(?: is|'s|’s| are) (?:an? |the )?{_Q}(?P<b>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
        rf"\bmeaning of (?:the word |the term )?{_Q}(?P<c>[\w -]{{2,40}}?){_UQ}\s*\??\s*$",
        rf"^\s*(?:please )?(?:define|explain the (?:word|term)) {_Q}(?P<d>[\w -]{{2,40}}?){_UQ}\s*[?.!]*\s*$",
    ),
    "de": _any(
        rf"\bwas (?:bedeutet|heißt|heisst|meint) (?:das wort |der begriff )?{_Q}(?P<a>[\w -]{{2,40}}?){_UQ}\s*\?",
        rf"\bwas (?:versteht man unter|ist mit) (?:einem |einer |dem |der |den )?{_Q}(?P<c>[\w -]{{2,40}}?){_UQ}"
        r"(?: gemeint)?\s*\?\s*$",
        rf"\bwas (?:ist|sind) (?:ein |eine |der |die |das )?{_Q}(?P<b>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
    ),
    "fr": _any(
        rf"\bque (?:veut dire|signifie) (?:le mot |le terme )?{_Q}(?P<a>[\w'’ -]{{2,40}}?){_UQ}\s*\?",
        rf"\bqu['’]est[- ]ce (?:que |qu['’])(?:c['’]est (?:que |qu['’])?)?(?:une? |le |la |les |l['’])?{_Q}"
        rf"(?P<b>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
        rf"\bc['’]est quoi (?:une? |le |la |les |l['’])?{_Q}(?P<c>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
        rf"\b{_Q}(?P<d>[\w -]{{2,40}}?){_UQ},? (?:ça|ca) veut dire quoi\s*\?\s*$",
        rf"^\s*(?:ça|ca) veut dire quoi,? (?:une? |le |la |les |l['’])?{_Q}(?P<e>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
    ),
    "it": _any(
        rf"\b(?:cosa|che cosa|che) (?:significa|vuol dire|vuole dire) (?:la parola |il termine )?{_Q}"
        rf"(?P<a>[\w'’ -]{{2,40}}?){_UQ}\s*\?",
        rf"\b(?:che )?cos['’]è (?:una? |un['’]|il |la |lo |l['’])?{_Q}(?P<b>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
        rf"\bcosa sono (?:i |le |gli )?{_Q}(?P<c>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
    ),
    "es": _any(
        rf"\bqu[ée] (?:significa|quiere decir) (?:la palabra |el término )?{_Q}(?P<a>[\w -]{{2,40}}?){_UQ}\s*\?",
        rf"\bqu[ée] (?:es|son) (?:una? |el |la |los |las )?{_Q}(?P<b>[\w -]{{2,40}}?){_UQ}\s*\?\s*$",
    ),
}
"""A question about what a word means; the named group holds the word."""

WHY: dict[str, re.Pattern[str]] = {
    "en": _any(r"^\s*(?:but |and )?why(?: (?:is that|not|so|that|do you ask|does that matter))?\s*\?*\s*$"),
    "de": _any(r"^\s*(?:aber |und )?(?:warum|wieso|weshalb)(?: (?:das|nicht|denn|fragst du))?\s*\?*\s*$"),
    "fr": _any(r"^\s*(?:mais |et )?pourquoi(?: (?:ça|pas|donc|tu demandes))?\s*\?*\s*$"),
    "it": _any(r"^\s*(?:ma |e )?perch[eé](?: (?:no|mai|lo chiedi))?\s*\?*\s*$"),
    "es": _any(r"^\s*¿?(?:pero |y )?por ?qu[eé](?: (?:no|lo preguntas))?\s*\?*\s*$"),
}
"""A short "why?": the learner wants the reason for the last hint."""

CONFUSED: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\b(?:i )?(?:don't|do not|dont|didn't|did not) (?:understand|get (?:it|this|that))\b",
        r"\b(?:confus\w*|makes no sense|what do you mean|this is (?:stupid|hard|too hard))\b",
        r"^\W*(?:what|huh|eh|hm+|um+|uh+|erm|pardon|sorry)\W*$",
    ),
    "de": _any(
        r"\b(?:verstehe?|kapiere?|check\w*) (?:ich )?(?:das |es |den hinweis )?(?:nicht|nich)\b",
        r"\b(?:versteh\w* nur bahnhof|verwirr\w*|zu schwer|blöd|was meinst du)\b",
        r"^\W*(?:was|hä|häh|wie bitte|hm+|ähm?|öh?m?)\W*$",
    ),
    "fr": _any(
        r"\b(?:je )?(?:ne )?(?:comprends|pige) (?:pas|rien)\b",
        r"\b(?:perdu\w*|trop dur|trop difficile|tu veux dire quoi)\b",
        r"^\W*(?:quoi|hein|comment|pardon|euh+|hm+|bah)\W*$",
    ),
    "it": _any(
        r"\bnon (?:capisco|ho capito)\b",
        r"\b(?:confus\w*|troppo difficile|cosa intendi)\b",
        r"^\W*(?:cosa|come|eh|ehm|mah|hm+)\W*$",
    ),
    "es": _any(
        r"\bno (?:entiendo|lo entiendo|comprendo)\b",
        r"\b(?:confundid\w*|muy difícil|qué quieres decir)\b",
        r"^\W*(?:qué|cómo|eh|ehm|mm+|hm+)\W*$",
    ),
}
"""The learner is lost or frustrated: encouragement and the next hint, another kind of help."""

STUCK: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\bi (?:really |just |honestly |simply )?(?:(?:don'?t|do not) know|dunno|have no idea|have no clue)\b",
        r"\b(?:idk|dunno|no idea|no clue|not a clue|not sure|i'?m stuck|i am stuck|stuck|i give up|i'?m lost)\b",
        r"^\s*(?:i )?(?:don'?t|do not) know\b",
        r"^\s*\?+\s*$",
    ),
    "de": _any(
        r"\b(?:ich )?(?:weiß|weiss|weis) (?:es |das |ich )?(?:echt |wirklich |halt )?(?:nicht|nich|net)\b",
        r"\b(?:keine ahnung|k\. ?a\.|kA|keinen plan|keine idee|ich komm\w* nicht weiter|ich steck\w* fest)\b",
        r"\b(?:ich geb\w* auf|null plan|weiß nicht weiter|weiss nicht weiter)\b",
        r"^\s*\?+\s*$",
    ),
    "fr": _any(
        r"\b(?:je )?(?:ne )?(?:sais|sait) (?:vraiment |pas du tout |pas trop )?(?:pas|rien)\b",
        r"\b(?:j['’]en sais rien|j['’]sais pas|chais pas|sais pas|aucune idée|pas d['’]idée|aucune piste)\b",
        r"\b(?:je (?:suis )?bloqu\w*|je sèche|j['’]abandonne)\b",
        r"^\s*\?+\s*$",
    ),
    "it": _any(
        r"\bnon (?:lo )?(?:so|saprei)\b",
        r"\b(?:boh|nessuna idea|non ne ho idea|non ho idea|sono bloccat\w*|mi arrendo)\b",
        r"^\s*\?+\s*$",
    ),
    "es": _any(
        r"\bno (?:lo )?s[ée]\b",
        r"\b(?:ni idea|no tengo (?:ni )?idea|estoy atascad\w*|estoy bloquead\w*|me rindo)\b",
        r"^\s*[¿?]+\s*$",
    ),
}
"""The learner has no idea yet ("I don't know"): the next hint, never "tell me your idea" again.
Read only where little else is said: "I don't know, maybe the circuit is closed" is an attempt."""
STUCK_REST_WORDS = 2
ENGLISH_FORMULA_WORDS = 3
"""English formulas ("idk", "ok", "no idea") are read in a conversation of any language when the
message is no longer than this."""
"""At most this many content words besides the phrase ("I don't know why the bulb lights up")."""


def _said_only(*phrases: str) -> re.Pattern[str]:
    """A message of nothing but these phrases, one or more ("ok, and now?", "ok, thanks")."""
    word = "(?:" + "|".join(phrases) + ")"
    return re.compile(rf"^\W*{word}(?:[\s,.!?¿¡…;:-]+{word})*[\s.!?…]*$", re.IGNORECASE)


GO_ON: dict[str, re.Pattern[str]] = {
    "en": _said_only(
        r"ok(?:ay)?",
        "k",
        "alright",
        "all right",
        "fine",
        "sure",
        "yes",
        "yeah",
        "yep",
        "no",
        "nope",
        "got it",
        "i see",
        "right",
        "cool",
        "thanks?",
        "thank you",
        "please",
        "so",
        "then",
        "and",
        "go on",
        "go ahead",
        "continue",
        "carry on",
        "keep going",
        "next",
        "more",
        "another one",
        "and (?:now|then)",
        "now what",
        "what now",
        "then what",
        "what next",
        r"next (?:hint|step)",
        "another hint",
        "one more hint",
    ),
    "de": _said_only(
        r"ok(?:ay)?",
        "gut",
        "alles klar",
        "klar",
        "ja",
        "nein",
        "danke",
        "bitte",
        "verstanden",
        "aha",
        "und",
        "dann",
        "weiter",
        "mach weiter",
        r"und (?:jetzt|dann|nun)",
        "was jetzt",
        "wie weiter",
        "und weiter",
        r"nächster (?:tipp|schritt)",
        r"noch ein (?:tipp|hinweis)",
    ),
    "fr": _said_only(
        r"ok(?:ay)?",
        r"d['’]accord",
        "oui",
        "non",
        "merci",
        "compris",
        "vas-y",
        "vas y",
        "continue",
        "continuons",
        "la suite",
        "ensuite",
        "et",
        "alors",
        r"s['’]il te plaît",
        "stp",
        r"et (?:après|maintenant|ensuite|alors)",
        "encore",
        "indice suivant",
        "un autre indice",
    ),
    "it": _said_only(
        r"ok(?:ay)?",
        "va bene",
        "sì",
        "si",
        "no",
        "grazie",
        "capito",
        "continua",
        "vai avanti",
        "avanti",
        "e",
        "allora",
        "per favore",
        r"e (?:poi|adesso|ora)",
        "e dopo",
        r"un altro (?:suggerimento|indizio)",
    ),
    "es": _said_only(
        r"ok(?:ay)?",
        "vale",
        "de acuerdo",
        "sí",
        "si",
        "no",
        "gracias",
        "entendido",
        "sigue",
        "continúa",
        "continua",
        "adelante",
        "y",
        "entonces",
        "por favor",
        r"y (?:ahora|luego|después|despues)",
        "otra pista",
    ),
}
"""The learner waits for the tutor to go on ("ok", "go on"): the next hint."""

KEY_WORDS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\bkey ?(?:words?|terms?|concepts?|points?)\b",
        r"\b(?:important|right|main|technical) (?:words|terms)\b",
        r"\bwhich (?:words|terms) (?:do|should|must) i\b",
        r"\blist (?:the |some )?(?:words|terms|vocabulary)\b",
    ),
    "de": _any(
        r"\b(?:schlüssel|stich|fach|kern)(?:wörter|worte|wort|begriff\w*)\b",
        r"\b(?:wichtige[n]?|richtige[n]?) (?:wörter|begriffe)\b",
        r"\bwelche (?:wörter|begriffe)\b",
    ),
    "fr": _any(
        r"\bmots?[- ]cl[ée]s?\b",
        r"\b(?:mots|termes) (?:importants|clés|techniques)\b",
        r"\bquels (?:mots|termes)\b",
        r"\bvocabulaire\b",
    ),
    "it": _any(
        r"\bparol[ae] chiave\b",
        r"\b(?:parole|termini) (?:importanti|chiave|tecnici)\b",
        r"\bquali (?:parole|termini)\b",
    ),
    "es": _any(
        r"\bpalabras? clave\b",
        r"\b(?:palabras|términos) (?:importantes|clave|técnicos)\b",
        r"\bqu[ée] (?:palabras|términos)\b",
    ),
}
"""Asking for the key words: they are the answer's words, so they are not listed."""

DONE_CHECKS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"^\W*(?:so |and |now |ok,? )?(?:am i (?:done|finished|right|correct|there)(?: now| yet)?"
        r"|have i (?:finished|got it|solved it|done it)(?: now)?|did i (?:get it|do it|solve it)(?: right)?"
        r"|is (?:that|this|it|my answer) (?:right|correct|ok|okay|complete|enough|good|all|it|everything|fine)(?: now)?"
        r"|is (?:that|this) the (?:right|correct) answer|is anything (?:still )?missing|what(?:'s| is) (?:still )?missing"
        r"|what else|anything else|(?:is it )?done)\s*\?+\s*$",
    ),
    "de": _any(
        r"^\W*(?:und |so |also )?(?:bin ich (?:jetzt |nun |schon |damit )?(?:fertig|durch)(?: jetzt)?|hab(?:e)? ich (?:es |das )?(?:richtig|geschafft)"
        r"|hab(?:e)? ich recht|ist (?:das|es|meine antwort) (?:so )?(?:richtig|korrekt|vollständig|alles|genug|gut|ok)"
        r"(?: so)?|stimmt (?:das|es)(?: so)?|fehlt (?:noch )?(?:etwas|was)|was fehlt(?: noch)?|passt das(?: so)?)\s*\?+\s*$",
    ),
    "fr": _any(
        r"^\W*(?:et |alors )?(?:j['’]ai (?:fini|terminé|raison|bon|juste)|ai-je (?:fini|terminé|raison)"
        r"|(?:est-ce que )?c['’]est (?:bon|juste|correct|tout|fini|complet|ça)|est-ce (?:bon|juste|correct)"
        r"|ma réponse est(?:-elle)? (?:juste|correcte|complète|bonne)|il manque (?:encore )?quelque chose"
        r"|qu['’]est-ce qui manque(?: encore)?|que manque-t-il(?: encore)?)\s*\?+\s*$",
    ),
    "it": _any(
        r"^\W*(?:e |allora )?(?:ho (?:finito|ragione|fatto)|è (?:giusto|corretto|tutto|completo|abbastanza|così)"
        r"|va bene così|la mia risposta è (?:giusta|corretta|completa)|manca (?:ancora )?qualcosa|cosa manca(?: ancora)?)"
        r"\s*\?+\s*$",
    ),
    "es": _any(
        r"^\W*(?:y |entonces )?(?:he terminado|terminé|ya está|ya terminé|está (?:bien|correcto|completo)|es correcto"
        r"|es todo|tengo razón|mi respuesta es (?:correcta|completa)|falta algo|qué falta(?: todavía)?)\s*\?+\s*$",
    ),
}
"""Asking whether the task is done ("Am I done?", "Stimmt das so?"): not yet and what is open, or yes."""

HINT_REQUESTS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\b(?:hint|tip|clue)s?\b",
        r"\bhelp(?: me)?\b",
        r"\bwhat (?:should|do|shall) i (?:write|do|say)\b",
        r"\b(?:tell|explain|say) (?:me )?(?:some |a (?:bit|little) )?more\b",
        r"\b(?:where|how) do i (?:start|begin)\b",
    ),
    "de": _any(
        r"\b(?:tipp|hinweis|hilfe)\w*",
        r"\bhilf mir\b",
        r"\bweiss nicht weiter|weiß nicht weiter",
        r"\bwas soll ich (?:schreiben|tun|machen)\b",
        r"\bwie fange ich an\b",
    ),
    "fr": _any(
        r"\b(?:indices?|conseil|aide[sz]?-moi|aide moi)\b",
        r"\bque dois-je (?:écrire|faire)\b",
        r"\bje ne sais pas quoi (?:écrire|faire)\b",
    ),
    "it": _any(r"\b(?:suggeriment\w*|indizi\w*|aiutami|un aiuto)\b", r"\bcosa devo (?:scrivere|fare)\b"),
    "es": _any(r"\b(?:pistas?|una ayuda|ayúdame|sugerencia)\b", r"\bqué debo (?:escribir|hacer)\b"),
}
"""The learner asks for help: the next hint."""

GREETINGS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|yo)\b[\s!.,]*(?:there|tutor)?[\s!.]*$"
    ),
    "de": _any(r"^\s*(?:hallo|hi|hey|guten (?:morgen|tag|abend)|grüezi|servus|moin)\b[\s!.,\w]{0,12}$"),
    "fr": _any(r"^\s*(?:bonjour|salut|coucou|bonsoir)\b[\s!.,\w]{0,12}$"),
    "it": _any(r"^\s*(?:ciao|buongiorno|buonasera|salve)\b[\s!.,\w]{0,12}$"),
    "es": _any(r"^\s*(?:hola|buenos días|buenas)\b[\s!.,\w]{0,12}$"),
}

SELF_CORRECTIONS: dict[str, re.Pattern[str]] = {
    "en": _any(r"^\s*(?:sorry|oops|no wait|wait|actually|correction|i mean|i meant)\b"),
    "de": _any(
        r"^\s*(?:sorry|entschuldigung|halt|moment|nein warte|korrektur|ich meine|ich meinte|eigentlich)\b"
    ),
    "fr": _any(r"^\s*(?:pardon|désolé\w*|attends|en fait|correction|je veux dire|je voulais dire)\b"),
    "it": _any(r"^\s*(?:scusa|aspetta|anzi|in realtà|correzione|intendevo|volevo dire)\b"),
    "es": _any(r"^\s*(?:perdón|lo siento|espera|en realidad|corrección|quiero decir|quise decir)\b"),
}
"""The learner takes an earlier answer back: a new attempt, never "the same answer"."""

_GUESS = r"(?P<guess>.*?)\s*\?+\s*$"
PROBES: dict[str, tuple[re.Pattern[str], ...]] = {
    "en": _each(
        r"^\s*(?P<guess>.*?),\s*(?:right|isn't it|is it|no|correct|yes)\s*\?+\s*$",
        r"^\s*(?:so |and |but |or )?(?:is it|is that|is this|isn't it|is the|are they|are the|does it|do they"
        r"|do you mean|could it be|would it be|can it be|has it (?:got )?(?:something )?to do with|am i right"
        r"|right|it's|it is)\b" + _GUESS,
        r"^\s*(?:so |and |but |or )?(?:does|do|did|can|could|will|would|must|should|has|have|is|are|was|were)\s+"
        r"(?=(?:the|a|an|it|i|we|they|this|that|my|both|one|two)\b)" + _GUESS,
    ),
    "de": _each(
        r"^\s*(?P<guess>.*?),\s*(?:oder|richtig|stimmt's|stimmts|nicht wahr|gell|ja)\s*\?+\s*$",
        r"^\s*(?:und |also |oder )?(?:ist es|ist das|ist der|ist die|sind die|stimmt (?:es|das)|meinst du|könnte es"
        r"|kann es|hab ich recht|liegt es|hat es (?:etwas |was )?mit|geht es um|braucht es|muss)\b" + _GUESS,
        r"^\s*(?:und |also |oder )?(?:muss|müssen|kann|können|soll|sollen|wird|werden|braucht|brauche|brauchen"
        r"|fließt|fliesst|leuchtet|geht|hat|haben|ist|sind|war)\s+"
        r"(?=(?:der|die|das|den|dem|ein|eine|einen|es|man|ich|wir|beide|zwei)\b)" + _GUESS,
    ),
    "fr": _each(
        r"^\s*(?P<guess>.*?),\s*(?:non|c['’]est ça|c['’]est juste|pas vrai|hein|oui)\s*\?+\s*$",
        r"^\s*(?:et |alors |donc )?(?:est-ce|c['’]est|ce serait|tu veux dire|ça pourrait|ça a à voir avec"
        r"|s['’]agit-il|il s['’]agit|il faut|faut-il|j['’]ai raison)\b" + _GUESS,
    ),
    "it": _each(
        r"^\s*(?P<guess>.*?),\s*(?:vero|giusto|no|sì)\s*\?+\s*$",
        r"^\s*(?:e |allora |quindi )?(?:è|e'|sono|si tratta d\w*|ha a che fare con|c['’]entra|intendi"
        r"|potrebbe essere|ho ragione|serve|bisogna|deve|devono|basta)\b" + _GUESS,
    ),
    "es": _each(
        r"^\s*¿?(?P<guess>.*?),\s*¿?(?:verdad|no|cierto|sí)\s*\?+\s*$",
        r"^\s*¿?\s*(?:y |entonces )?(?:es|son|está|se trata de|tiene que ver con|quieres decir|podría ser"
        r"|tengo razón|hace falta|hay que|tiene que|debe|deben|basta con)\b" + _GUESS,
    ),
}
"""A yes/no guess ("is it the battery?", "…, right?"); the named group holds what is guessed. The
tutor says no to a wrong guess and "that is part of it" to a right one, never the rest."""


@dataclass(frozen=True, slots=True)
class Reading:
    intent: Intent
    term: str | None = None
    """For a term question: the word asked about."""
    corrects_itself: bool = False
    guess: str | None = None
    """For a yes/no guess: what is guessed, without the question's opening ("a closed circuit")."""


def read_message(message: str, base: str) -> Reading:
    """The intent the message's wording shows; an attempt is decided later, by the task's words.

    Order matters: a demand dressed as a question ("what is the answer?") is a demand, "am I done?"
    and "is that right?" ask about the learner's answer, not a guess, a question about a term is
    not a probe, and "I don't know, maybe the circuit is closed" is an attempt.
    """
    text = message.strip()
    if DEMANDS[base].search(text):
        return Reading(Intent.DEMAND)
    if KEY_WORDS[base].search(text):
        return Reading(Intent.KEY_WORDS)
    if DONE_CHECKS[base].search(text):
        return Reading(Intent.DONE_CHECK)
    if (term := _term(text, base)) is not None:
        return Reading(Intent.TERM_QUESTION, term=term)
    if WHY[base].search(text):
        return Reading(Intent.WHY)
    if _stuck(text, base):
        return Reading(Intent.STUCK)
    if CONFUSED[base].search(text):
        return Reading(Intent.CONFUSED)
    if HINT_REQUESTS[base].search(text):
        return Reading(Intent.HINT_REQUEST)
    if GO_ON[base].search(text):
        return Reading(Intent.GO_ON)
    if GREETINGS[base].search(text):
        return Reading(Intent.GREETING)
    if base != "en" and _stuck(text, "en") and len(text.split()) <= ENGLISH_FORMULA_WORDS:
        return Reading(Intent.STUCK)  # "idk", "no idea": learners of every language write them
    if base != "en" and GO_ON["en"].search(text) and len(text.split()) <= ENGLISH_FORMULA_WORDS:
        return Reading(Intent.GO_ON)
    if (probe := next(filter(None, (p.search(text) for p in PROBES[base])), None)) is not None:
        return Reading(Intent.PROBE, guess=(probe.group("guess") or "").strip(" ,¿?") or None)
    if text.endswith("?"):
        return Reading(Intent.QUESTION)
    return Reading(Intent.ATTEMPT, corrects_itself=bool(SELF_CORRECTIONS[base].search(text)))


def _stuck(text: str, base: str) -> bool:
    """ "I don't know" with at most a few other content words ("… why the bulb lights up")."""
    match = STUCK[base].search(text)
    if match is None:
        return False
    rest = text[: match.start()] + " " + text[match.end() :]
    return len(analyse(rest, base).content) <= STUCK_REST_WORDS


def _term(text: str, base: str) -> str | None:
    match = TERM_QUESTIONS[base].search(text)
    if match is None:
        return None
    term = next((g for g in match.groups() if g), "").strip(" '\"’")
    return term or None
