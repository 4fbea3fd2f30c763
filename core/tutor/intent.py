"""What a learner's message is for, read before the tutor answers it.

A tutor that answers every message with the next hint ignores what was asked. So each message is
read first: an attempt at the task, a question about a term of the task, a "why?", a request for
the solution (however it is dressed up: role-play, translation, a yes/no probe), a greeting,
frustration, a self-correction, or something off the task. The patterns are short closed lists per
language, like the negation words of the freeform engine; an unmatched message is judged by its
words (does it talk about the task?) in :mod:`core.tutor.grounded`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


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
    """Asking for help or a hint ("give me a hint", "what should I write?"): the current hint."""
    OFF_TOPIC = "off_topic"


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


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

TERM_QUESTIONS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\bwhat (?:does|do) (?:the word |the term )?[\"“‘']?(?P<a>[\w -]{2,40}?)[\"”’']? mean\b",
        r"\bwhat(?: is|'s| are) (?:an? |the )?[\"“‘']?(?P<b>[\w -]{2,40}?)[\"”’']?\s*\?\s*$",
        r"\bmeaning of (?:the word )?[\"“‘']?(?P<c>[\w -]{2,40}?)[\"”’']?\s*\??\s*$",
    ),
    "de": _any(
        r"\bwas (?:bedeutet|heißt|heisst|meint) (?:das wort |der begriff )?[„\"“']?(?P<a>[\w -]{2,40}?)[“\"”']?\s*\?",
        r"\bwas (?:ist|sind) (?:ein |eine |der |die |das )?[„\"“']?(?P<b>[\w -]{2,40}?)[“\"”']?\s*\?\s*$",
    ),
    "fr": _any(
        r"\bque (?:veut dire|signifie) (?:le mot )?[«\"“']?\s*(?P<a>[\w' -]{2,40}?)\s*[»\"”']?\s*\?",
        r"\bqu'est-ce que (?:c'est )?(?:qu'|que )?(?:une? |le |la |les |l')?(?P<b>[\w -]{2,40}?)\s*\?\s*$",
    ),
    "it": _any(
        r"\b(?:cosa|che cosa) (?:significa|vuol dire|vuole dire) (?:la parola )?[«\"“']?(?P<a>[\w' -]{2,40}?)[»\"”']?\s*\?",
        r"\b(?:che )?cos['’]è (?:una? |il |la |lo |l['’])?(?P<b>[\w -]{2,40}?)\s*\?\s*$",
    ),
    "es": _any(
        r"\bqué (?:significa|quiere decir) (?:la palabra )?[«\"“']?(?P<a>[\w -]{2,40}?)[»\"”']?\s*\?",
        r"\bqué es (?:una? |el |la )?(?P<b>[\w -]{2,40}?)\s*\?\s*$",
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
        r"\b(?:i )?(?:don't|do not|dont) (?:understand|get (?:it|this|that)|know)\b",
        r"\b(?:confus\w*|no idea|lost|stuck|makes no sense|this is (?:stupid|hard|too hard)|i give up)\b",
    ),
    "de": _any(
        r"\b(?:verstehe?|kapiere?|check\w*) (?:ich )?(?:das |es |den hinweis )?(?:nicht|nich)\b",
        r"\b(?:keine ahnung|versteh\w* nur bahnhof|verwirr\w*|zu schwer|ich geb\w* auf|blöd)\b",
    ),
    "fr": _any(
        r"\b(?:je )?(?:ne )?(?:comprends|pige) (?:pas|rien)\b",
        r"\b(?:perdu|aucune idée|trop dur|j'abandonne)\b",
    ),
    "it": _any(
        r"\bnon (?:capisco|ho capito|so)\b", r"\b(?:confus\w*|nessuna idea|troppo difficile|mi arrendo)\b"
    ),
    "es": _any(r"\bno (?:entiendo|lo entiendo|sé)\b", r"\b(?:confundid\w*|ni idea|muy difícil|me rindo)\b"),
}
"""The learner is lost or frustrated: rephrase, encourage, do not climb."""

HINT_REQUESTS: dict[str, re.Pattern[str]] = {
    "en": _any(
        r"\b(?:hint|tip|clue)s?\b",
        r"\bhelp(?: me)?\b",
        r"\bwhat (?:should|do|shall) i (?:write|do|say)\b",
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
"""The learner asks for help: the hint they have now, said again; no climb (only attempts climb)."""

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

PROBES: dict[str, re.Pattern[str]] = {
    "en": _any(r"^\s*(?:is it|is that|does it|do you mean|could it be|am i right|right)\b.*\?\s*$"),
    "de": _any(r"^\s*(?:ist es|ist das|stimmt (?:es|das)|meinst du|könnte es|hab ich recht)\b.*\?\s*$"),
    "fr": _any(r"^\s*(?:est-ce|c'est|tu veux dire|ça pourrait|j'ai raison)\b.*\?\s*$"),
    "it": _any(r"^\s*(?:è|e'|intendi|potrebbe essere|ho ragione)\b.*\?\s*$"),
    "es": _any(r"^\s*(?:es|quieres decir|podría ser|tengo razón)\b.*\?\s*$"),
}
"""A yes/no guess ("is it the battery?"): it is met with a request for a real answer, never a yes or no."""


@dataclass(frozen=True, slots=True)
class Reading:
    intent: Intent
    term: str | None = None
    """For a term question: the word asked about."""
    corrects_itself: bool = False


def read_message(message: str, base: str) -> Reading:
    """The intent the message's wording shows; an attempt is decided later, by the task's words.

    Order matters: a demand dressed as a question ("what is the answer?") is a demand, and a
    question about a term is not a probe.
    """
    text = message.strip()
    if DEMANDS[base].search(text):
        return Reading(Intent.DEMAND)
    if (term := _term(text, base)) is not None:
        return Reading(Intent.TERM_QUESTION, term=term)
    if WHY[base].search(text):
        return Reading(Intent.WHY)
    if CONFUSED[base].search(text):
        return Reading(Intent.CONFUSED)
    if HINT_REQUESTS[base].search(text):
        return Reading(Intent.HINT_REQUEST)
    if GREETINGS[base].search(text):
        return Reading(Intent.GREETING)
    if PROBES[base].search(text):
        return Reading(Intent.PROBE)
    if text.endswith("?"):
        return Reading(Intent.QUESTION)
    return Reading(Intent.ATTEMPT, corrects_itself=bool(SELF_CORRECTIONS[base].search(text)))


def _term(text: str, base: str) -> str | None:
    match = TERM_QUESTIONS[base].search(text)
    if match is None:
        return None
    term = next((g for g in match.groups() if g), "").strip(" '\"")
    return term or None
