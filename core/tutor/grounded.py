"""The grounded tutor: offline, deterministic, and bound to one task.

Each learner message is read first (:mod:`core.tutor.intent`): a question about a term gets what
the task's author says about it, or honestly that it cannot be explained from the task
(:mod:`core.tutor.glossary`); a "why?" gets the reason for the last hint; "am I done?" gets not
yet and where the open part is asked for, or yes; a yes/no guess gets no, or "that is part of it";
a demand gets no answer. An attempt is judged by the feedback engine of the task (through
:func:`core.engine.compute_result`): per concept and misconception for free text, per option for
a choice, per gap for blanks. The tutor names a misconception with the author's message,
acknowledges what is new, and aims the next hint at one concept still missing
(:mod:`core.tutor.progress`). Per concept the hints climb, one rung each time the learner moves
(an attempt, a wrong guess, "I don't know", "go on", a request for a hint or the key words):

0. where to look: the sentence of the task that matters for the concept,
1. a guiding question: the author's message for the missing concept,
2. a contrast: what would still be missing if someone followed the answer as written,
3. bottom out: a worked example of a *different* case, never the concept itself;

then the next missing concept's ladder, the worked examples left, and "those were all my hints".
No hint is given twice. A CORRECT attempt solves the conversation: the tutor says what was right
and offers a next step. Every sentence comes from the tutor catalogue in the task's language, in
several phrasings, chosen so that no message of the tutor comes back in the conversation.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from typing import Any

from core.api import (
    AspectDefinition,
    AspectType,
    ContentPiece,
    Correctness,
    FreeformTextAnswer,
    FreeformTextTask,
    InTextChoicesAnswer,
    InTextChoicesTask,
    InTextFillInBlanksAnswer,
    InTextFillInBlanksTask,
    MultipleChoiceAnswer,
    MultipleChoiceTask,
    MultipleResponsesTask,
    SimulationTask,
    TaskBase,
)
from core.api.answers import Answer
from core.engine import EngineContext, EngineUnavailable, compute_result
from core.engine.base import contradictions
from core.engine.text.languages import base_of, lemma
from core.engine.text.segment import sentences
from core.engine.text.tokens import analyse
from core.tutor.base import PlannedEngine, Turn
from core.tutor.glossary import lemmas, look_up
from core.tutor.intent import Intent, Reading, read_message
from core.tutor.leak_guard import LeakGuard, solution_texts
from core.tutor.progress import TASK_WIDE, Progress, hint_mark

RUNGS = ("where_to_look", "guiding_question", "contrast", "worked_example")
"""The hints about one concept, in the order they are given."""
HELPED: dict[Intent, tuple[str, str]] = {
    Intent.STUCK: ("stuck", "stuck"),
    Intent.GO_ON: ("go_on", "go_on"),
    Intent.KEY_WORDS: ("key_words", "key_words"),
    Intent.HINT_REQUEST: ("hint_request", "give_hint"),
    Intent.CONFUSED: ("rephrase", "rephrase"),
}
"""A learner who is stuck, waits for more or asks for help: (the reply's opening, the move); each
of them moves the hint forward."""
RECENT_REPLIES = 4
RECENT_ATTEMPTS = 20
"""The tutor's messages and the learner's the service's leak guard judges a reply with
(core.service.tutors, which this layer does not import)."""
MIN_SENTENCE_WORDS = 3
MISCONCEPTION_WORDS = 2
"""Words a guess shares with a misconception (its name, description, cues) to be read as it."""
PHRASINGS = 6
"""Phrasing variants tried for a reply that would repeat an earlier message (2 × 3 phrasings)."""


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """What the feedback engine found in an attempt."""

    shown: tuple[AspectDefinition, ...]
    misconceptions: tuple[AspectDefinition, ...]
    correct: bool
    answered: bool = False
    """The message reads as a definite answer (an option, a filled gap), so it is an attempt."""
    note: str | None = None
    """The engine's feedback on a definite answer that is not right (the author's word on it)."""
    wrong_parts: tuple[int, ...] = ()
    """For blanks and in-text choices: the numbers (from 1) of the gaps that are not right."""
    opposite: str | None = None
    """The learner's words that say the opposite of a correct answer, as the engine points at them
    ("circuit must not be closed"): quoted back, they tell the learner which part to check."""
    opposed: tuple[AspectDefinition, ...] = ()
    """The concepts those words say the opposite of."""


def _declared_aspects(task: TaskBase | None) -> list[AspectDefinition]:
    if isinstance(task, FreeformTextTask | SimulationTask):
        return list(task.aspects)
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        return [a for option in task.options for a in option.aspects]
    if isinstance(task, InTextFillInBlanksTask):
        return [a for blank in task.blanks for a in blank.aspects]
    return []


def aspects_of(task: TaskBase | None) -> list[AspectDefinition]:
    """The aspects a hint may be about. A correct option's aspects name the answer, so they never are."""
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        return [a for option in task.options if not option.correct for a in option.aspects]
    if isinstance(task, InTextFillInBlanksTask):
        return []  # a gap's concept is its answer; blanks are hinted gap by gap
    return _declared_aspects(task)


_LIST_ITEM_NUMBER = re.compile(r"^\s*(?:\(?\d+[.):]|gap \d+:|lücke \d+:)\s*", re.IGNORECASE)


def _parts(message: str, count: int) -> list[ContentPiece] | None:
    """A message as the gaps of a blanks or in-text choices task: one piece per gap, in order."""
    pieces = [_LIST_ITEM_NUMBER.sub("", p).strip() for p in re.split(r"[,;\n]", message)]
    pieces = [p for p in pieces if p]
    return [ContentPiece(content=p) for p in pieces] if len(pieces) == count else None


def _as_answer(turn: Turn) -> Answer | None:
    """The learner's message as an answer to the task, where it reads as one.

    A freeform message is an answer as it stands; a multiple-choice message is one when it names
    exactly one option (all the option's words are in it); a blanks or in-text choices message
    when it has one piece per gap (separated by commas, semicolons or lines).
    """
    task = turn.task
    if isinstance(task, FreeformTextTask):
        return FreeformTextAnswer(content=turn.message)
    if isinstance(task, MultipleChoiceTask):
        base = base_of(turn.language)
        words = set(_content(turn.message, base))
        named = [
            i
            for i, o in enumerate(task.options)
            if (stems := set(_content(o.content, base))) <= words and stems
        ]
        return MultipleChoiceAnswer(selectedIndex=named[0]) if len(named) == 1 else None
    if isinstance(task, InTextFillInBlanksTask) and (gaps := _parts(turn.message, len(task.blanks))):
        return InTextFillInBlanksAnswer(blanks=gaps)
    if isinstance(task, InTextChoicesTask) and (points := _parts(turn.message, len(task.choices))):
        return InTextChoicesAnswer(choices=points)
    return None


def diagnose(turn: Turn) -> Diagnosis | None:
    """The feedback engine's judgement of the learner's message, or None where it cannot judge."""
    answer = _as_answer(turn)
    if turn.task is None or answer is None:
        return None
    try:
        result = compute_result(turn.task, answer, EngineContext(catalogue=turn.catalogue))
    except EngineUnavailable:
        return None
    by_name = {a.name: a for a in _declared_aspects(turn.task)}
    found = [by_name[d.aspect.name] for d in result.allAspects if d.aspect.name in by_name]
    answered = not isinstance(answer, FreeformTextAnswer)
    wrong = [i for i in result.feedback if i.correctness is not Correctness.CORRECT]
    gapped = isinstance(answer, InTextFillInBlanksAnswer | InTextChoicesAnswer)
    wrong_parts = sorted({c.index + 1 for i in wrong for c in i.context if gapped and hasattr(c, "index")})
    opposite = contradictions(result.feedback) if isinstance(answer, FreeformTextAnswer) else []
    return Diagnosis(
        shown=tuple(a for a in found if a.type is AspectType.CONCEPT),
        misconceptions=tuple(a for a in found if a.type is AspectType.MISCONCEPTION),
        correct=result.points.verdict is Correctness.CORRECT,
        answered=answered,
        note=wrong[0].message if isinstance(answer, MultipleChoiceAnswer) and wrong else None,
        wrong_parts=tuple(wrong_parts),
        opposite=opposite[0].context[0].content if opposite else None,
        opposed=tuple(by_name[a.name] for i in opposite for a in i.aspects if a.name in by_name),
    )


def _content(text: str, base: str) -> list[str]:
    return [t.stem for t in analyse(text, base).content]


def _vocabulary(task: TaskBase, base: str) -> set[str]:
    texts = [task.problemStatement, task.title, *solution_texts(task)]
    for aspect in _declared_aspects(task):
        texts += [aspect.name, aspect.description, *aspect.cues]
    if isinstance(task, MultipleChoiceTask | MultipleResponsesTask):
        texts += [o.content for o in task.options]
    return {stem for text in texts for stem in _content(text, base)}


def about_the_task(turn: Turn, diagnosis: Diagnosis | None) -> bool:
    """A statement about the task: the engine found something in it, or it uses the task's words
    in a sentence ("I take a wire.": one content word, but a sentence of three words; a single
    word alone is not yet a statement)."""
    if diagnosis is not None and (diagnosis.answered or diagnosis.shown or diagnosis.misconceptions):
        return True
    if turn.task is None:
        return False
    base = base_of(turn.language)
    analysis = analyse(turn.message, base)
    words = [t.stem for t in analysis.content]
    sentence = len(words) >= 2 or len(analysis.tokens) >= MIN_SENTENCE_WORDS
    return sentence and bool(set(words) & _vocabulary(turn.task, base))


def is_keyword_list(message: str, base: str) -> bool:
    """Words without a sentence ("circuit, current, filament"): not yet an answer to praise."""
    analysis = analyse(message, base)
    if len(analysis.content) < 2:
        return False
    items = [i for i in re.split(r"[,;\n/]| - ", message) if i.strip()]
    short_items = len(items) >= 3 and all(len(i.split()) <= 3 for i in items)
    no_function_words = len(analysis.tokens) == len(analysis.content) and len(analysis.content) >= 3
    return short_items or no_function_words


def _lemma_features(text: str, base: str, *, every: bool = False) -> set[str]:
    """The content words of a text by lemma (``every``: function words too), a negated one marked
    as such ("not closed")."""
    analysis = analyse(text, base)
    tokens = analysis.tokens if every else analysis.content
    return {("¬" if t.negated else "") + lemma(base, t.norm) for t in tokens if not t.negation}


def _words_verdict(guess: str, task: TaskBase, base: str) -> tuple[str, AspectDefinition | None]:
    """A guess the engine finds no idea in, judged by its words: "no" when it shares more words
    with a misconception than with any concept ("is one wire enough?"), or has a word neither the
    answer nor the task uses ("is the circuit open?", "… made of wood?"); "part" when its words are
    the answer's ("is it the filament?"); else "unsure" ("is it the table?": a word of the task,
    not of the answer), where a yes or a no could both mislead."""
    words = _lemma_features(guess, base)
    if not words:
        return "unsure", None
    aspects = _declared_aspects(task)
    every = _lemma_features(guess, base, every=True)

    def shared(aspect: AspectDefinition) -> int:
        said = " ".join([aspect.name, aspect.description, *aspect.cues])
        return len(every & _lemma_features(said, base, every=True))

    misconceptions = [a for a in aspects if a.type is AspectType.MISCONCEPTION]
    nearest = max(misconceptions, key=shared, default=None)
    wrong = shared(nearest) if nearest is not None else 0
    right = max((shared(a) for a in aspects if a.type is AspectType.CONCEPT), default=0)
    if wrong >= MISCONCEPTION_WORDS and wrong > right:
        return "no", nearest
    texts = [*solution_texts(task)]
    texts += [t for a in aspects if a.type is AspectType.CONCEPT for t in (a.description, *a.cues)]
    answer = set().union(*(_lemma_features(text, base) for text in texts)) if texts else set()
    if words <= answer:
        return "part", None
    seen = _lemma_features(f"{task.problemStatement} {task.title} {task.context}", base)
    return ("no" if words - answer - seen else "unsure"), None


def fingerprint(text: str, base: str) -> str:
    """Equal for the same attempt written again (order, case and inflection aside)."""
    return hashlib.sha1(" ".join(sorted(set(_content(text, base)))).encode()).hexdigest()[:16]


_GAP_MARK = re.compile(r"\{\{\s*\d+\s*\}\}")


def where_to_look(task: TaskBase, aspect: AspectDefinition | None, base: str) -> str:
    """The sentence of the problem statement that shares most words with what the aspect means
    (its name and description; its cues are how a learner might say it, not what it is about),
    word by lemma: a stem joins words apart (French "filament" and "fils" are both "fil").

    Ties, a statement sharing no word with the aspect included, go to the later sentence: a
    statement sets the scene first and asks last, and the question is where every concept is asked
    for ("… and why it then lights up"), not the scene ("On the table lie a bulb …").
    """
    statement = _GAP_MARK.sub("___", task.problemStatement)  # a gap as the learner sees one
    spans = sentences(statement)
    if not spans:
        return statement
    if aspect is None:
        return spans[-1].text(statement)
    target = lemmas(f"{aspect.name} {aspect.description}", base)
    shared = [len(lemmas(s.text(statement), base) & target) for s in spans]
    best = max(range(len(spans)), key=lambda i: (shared[i], i))
    return spans[best].text(statement)


@dataclass(slots=True)
class Planner:
    """One turn's reply, built from the reading of the message and the conversation's progress."""

    turn: Turn
    task: TaskBase
    progress: Progress
    variant: int
    said: tuple[str, ...] = ()
    """Every message the tutor has said in this conversation, oldest first."""
    guard: list[LeakGuard] = field(default_factory=list)
    """The leak guard as the service builds it, made on first use and shared by the phrasings
    tried for one turn (its judgement of the learner's words is the costly part)."""
    verdicts: dict[str, bool] = field(default_factory=dict)
    """What the guard said of each hint, for the phrasings tried for one turn."""

    @property
    def base(self) -> str:
        return base_of(self.turn.language)

    def say(self, key: str, **params: Any) -> str:
        return self.turn.catalogue.phrasing(self.turn.language, f"tutor.{key}", self.variant, **params)

    # --- what to hint at ---------------------------------------------------------------------------

    def missing_concepts(self) -> list[AspectDefinition]:
        return [
            a
            for a in aspects_of(self.task)
            if a.type is AspectType.CONCEPT and a.name not in self.progress.shown
        ]

    def focus(self) -> AspectDefinition | None:
        """The concept the next hint is about: the one hinted at before while still missing, else
        the first missing one."""
        missing = self.missing_concepts()
        current = next((a for a in missing if a.name == self.progress.focus), None)
        return current or (missing[0] if missing else None)

    def examples(self) -> list[str]:
        """The worked examples of other topics, in the conversation's language."""
        found = (
            self.turn.catalogue.phrasing(self.turn.language, "tutor.hint_worked_example", i) for i in range(6)
        )
        return list(dict.fromkeys(found))

    def hint(self, aspect: AspectDefinition | None, rung: int, example: int = 0) -> str:
        """The hint of ``rung`` about ``aspect`` (None: the task as a whole)."""
        rung = min(rung, len(RUNGS) - 1)
        excerpt = where_to_look(self.task, aspect, self.base)
        if RUNGS[rung] == "where_to_look":
            where = self.say("hint_where_to_look", excerpt=excerpt)
            topic = aspect.aspectGroup.name if aspect is not None and aspect.aspectGroup else None
            if topic and topic.casefold() not in {a.name.casefold() for a in self.missing_concepts()}:
                with_topic = f"{self.say('hint_topic', topic=topic)} {where}"
                if self.safe(with_topic):  # the topic is the aspect group's name, a learner's word
                    return with_topic
            return where
        if RUNGS[rung] == "guiding_question":
            if aspect is not None and aspect.message:
                return aspect.message
            return self.say("hint_guiding_question", excerpt=excerpt)
        if RUNGS[rung] == "contrast":
            return self.say("hint_contrast", excerpt=excerpt)
        examples = self.examples()
        return examples[example % len(examples)]

    def hint_mark(self, aspect: AspectDefinition | None, rung: int, example: int) -> str:
        """What the hint says, whatever its phrasing: two concepts pointing at the same sentence of
        the task give one hint, not two."""
        kind = RUNGS[rung]
        if kind == "worked_example":
            return hint_mark(kind, str(example))
        if kind == "guiding_question" and aspect is not None and aspect.message:
            return hint_mark(kind, aspect.message)
        return hint_mark(kind, where_to_look(self.task, aspect, self.base))

    def gap_hint(self, gap: int, *, judged: bool = True) -> str:
        """A hint about one gap of a blanks task: the author's feedback on it, else where it is;
        ``judged``: after an attempt that has it wrong ("gap 2 is not right yet"), else for a
        learner who is stuck ("about gap 2: …")."""
        feedback = self.gap_feedback(gap)
        opening = self.say("hint_gap" if judged else "hint_gap_stuck", number=gap)
        return opening + (f" {feedback}" if feedback else "")

    def gap_feedback(self, gap: int) -> str | None:
        """The author's feedback on a gap of a blanks or in-text choices task (a hint about it)."""
        if isinstance(self.task, InTextFillInBlanksTask) and gap <= len(self.task.blanks):
            return self.task.blanks[gap - 1].feedback
        if isinstance(self.task, InTextChoicesTask) and gap <= len(self.task.choices):
            return self.task.choices[gap - 1].feedback
        return None

    def gaps(self) -> list[int]:
        """The gaps a stuck learner is hinted at, in order: those the last attempt had wrong, else
        all; only gaps the author wrote feedback for ("look at gap 2" alone says nothing)."""
        if isinstance(self.task, InTextFillInBlanksTask):
            count = len(self.task.blanks)
        elif isinstance(self.task, InTextChoicesTask):
            count = len(self.task.choices)
        else:
            return []
        return [g for g in (self.progress.gaps or range(1, count + 1)) if self.gap_feedback(g)]

    def current_hint(self) -> str:
        """The hint the learner has now, said again (after a question, a demand, an attempt said
        again): in another phrasing, or as a reminder of it; a hint about a concept the learner has
        shown since is out of date, so the next one comes instead."""
        last = self.progress.last
        if last is None:
            return self.say("hint_ask_tried") if not self.progress.attempts else self.next_hint()
        name, rung, example = last
        if int(rung) < 0:
            text = self.gap_hint(int(example), judged=False)
            return self.say("hint_again", hint=text) if any(text in m for m in self.said) else text
        missing = {a.name: a for a in self.missing_concepts()}
        if name != TASK_WIDE and name not in missing:
            return self.next_hint()
        text = self.hint(missing.get(name), int(rung), int(example))
        return self.say("hint_again", hint=text) if any(text in m for m in self.said) else text

    def advance(self) -> str | None:
        """The next hint nobody has had yet: up the focus concept's ladder (where to look → the
        question the concept answers → a contrast with the learner's answer → a worked example of
        another topic), then up the next missing concept's, then the worked examples left; None
        when every hint has been given.

        A rung is passed when its hint was given, or its content was (two concepts pointing at one
        sentence of the task); the contrast waits for an answer to contrast ("what your answer
        says"), and a hint the leak guard would stop waits until the learner has said more."""
        focus = self.focus()
        concepts = [focus] + [a for a in self.missing_concepts() if focus is None or a.name != focus.name]
        examples = range(len(self.examples()))
        told = self.progress.told
        for gap in self.gaps():  # a blanks task: the author's word on each gap first
            mark = hint_mark("gap", str(gap))
            if mark not in told and self.safe(text := self.gap_hint(gap, judged=False)):
                self.progress.record(mark)
                self.progress.climb(f"gap {gap}")
                self.progress.last = [f"gap {gap}", -1, gap]
                return text
        for aspect in concepts:
            key = aspect.name if aspect else TASK_WIDE
            for rung, kind in enumerate(RUNGS):
                step = hint_mark("step", f"{key}/{kind}")
                if step in told or (kind == "contrast" and not self.progress.attempts):
                    continue
                example = next((e for e in examples if self.hint_mark(aspect, rung, e) not in told), 0)
                mark = self.hint_mark(aspect, rung, example)
                if mark in told:
                    self.progress.record(step)
                    continue
                text = self.hint(aspect, rung, example)
                if kind == "guiding_question" and not self.safe(text):  # the author's own words
                    continue
                self.progress.record(step)
                self.progress.record(mark)
                self.progress.climb(key)
                self.progress.focus = aspect.name if aspect else None
                self.progress.last = [key, rung, example]
                return text
        for example in examples:
            if self.progress.record(self.hint_mark(None, len(RUNGS) - 1, example)):
                self.progress.last = [TASK_WIDE if focus is None else focus.name, len(RUNGS) - 1, example]
                return self.hint(focus, len(RUNGS) - 1, example)
        return None

    def safe(self, hint: str) -> bool:
        """The hint passes the leak guard as the service will judge it, with the tutor's last
        messages and the learner's: an author's guiding question may say what a cue says ("What
        happens in the bulb when current flows through it?"), and a hint the guard would stop is
        a hint the learner never gets; the next rung is given instead."""
        if not self.guard:
            learner = [m.content for m in self.turn.history if m.role == "user"][-RECENT_ATTEMPTS:]
            said = self.said[-RECENT_REPLIES:]
            self.guard.append(
                LeakGuard.for_task(self.task, self.turn.language, said, [*learner, self.turn.message])
            )
        verdicts = self.verdicts
        if hint not in verdicts:
            verdicts[hint] = self.guard[0].check(hint) is None
        return verdicts[hint]

    def next_hint(self) -> str:
        """The next hint (see :meth:`advance`), or, once every hint is given, "that was all"."""
        hint = self.advance()
        return hint if hint is not None else self.say("out_of_hints")

    def helped(self, opening: str, move: str) -> tuple[list[str], dict[str, Any]]:
        """A reply to a learner who is stuck or waits for more: the next hint after ``opening``;
        once every hint is given, only that."""
        hint = self.advance()
        if hint is None:
            return [self.say("out_of_hints")], {"move": move, "rung": None}
        return [f"{self.say(opening)} {hint}"], {"move": move, "rung": self.rung()}

    def rung(self) -> str | None:
        """The last hint given, for the debug log: concept/rung[/example]."""
        if self.progress.last is None:
            return None
        key, rung, example = self.progress.last
        if int(rung) < 0:
            return str(key)
        suffix = f"/{example}" if RUNGS[int(rung)] == "worked_example" else ""
        return f"{key}/{RUNGS[int(rung)]}{suffix}"

    # --- moves ---------------------------------------------------------------------------------------

    def attempt(self, diagnosis: Diagnosis | None, reading: Reading) -> tuple[list[str], dict[str, Any]]:
        mark = fingerprint(self.turn.message, self.base)
        if mark in self.progress.attempts and not reading.corrects_itself:
            return [self.say("same_attempt"), self.current_hint()], {"move": "same_attempt"}
        if mark not in self.progress.attempts:
            self.progress.attempts.append(mark)
        new = (
            self.progress.show([a.name for a in diagnosis.shown])
            if diagnosis and not diagnosis.answered
            else []
        )
        if diagnosis is not None and diagnosis.correct and not diagnosis.misconceptions:
            self.progress.solved = True
            return self.solved(), {"move": "solved"}
        opening = self.opening(diagnosis, new, reading)
        if diagnosis is not None and diagnosis.wrong_parts:
            gap = diagnosis.wrong_parts[0]
            self.progress.gaps = list(diagnosis.wrong_parts)
            self.progress.climb(f"gap {gap}")
            self.progress.record(hint_mark("gap", str(gap)))
            return [m for m in (opening, self.gap_hint(gap)) if m], {"move": "gap_hint", "gap": gap}
        missing = {a.name for a in self.missing_concepts()}
        if diagnosis is not None and (opposed := [a for a in diagnosis.opposed if a.name in missing]):
            self.progress.focus = opposed[0].name  # the hint is about the part said the other way round
        if (
            self.progress.shown
            and not missing
            and not (diagnosis and (diagnosis.misconceptions or diagnosis.opposite))
        ):
            # Every concept said, over several messages: what is left is to write them as one answer
            # (no opening: "let's see what is still missing" would say the opposite).
            return [self.say("put_together", shown=", ".join(self.progress.shown))], {"move": "put_together"}
        return [m for m in (opening, self.next_hint()) if m], {"move": "hint", "rung": self.rung()}

    def opening(self, diagnosis: Diagnosis | None, new: list[str], reading: Reading) -> str | None:
        """What the tutor makes of an attempt that is not right yet."""
        if diagnosis is not None and diagnosis.note:
            return diagnosis.note
        if diagnosis is not None and diagnosis.wrong_parts:
            return self.say("gaps_not_right", count=len(diagnosis.wrong_parts))
        if diagnosis is not None and diagnosis.misconceptions:
            # The author's message for learners; the description is written for authors and may
            # name the right answer ("… rather than droplets"), so the fallback names the aspect.
            wrong = diagnosis.misconceptions[0]
            return wrong.message or self.say("misconception", description=wrong.name)
        if diagnosis is not None and diagnosis.opposite:
            return self.say("opposite", words=diagnosis.opposite)
        if new:
            return self.say("progress", shown=", ".join(new))
        if reading.corrects_itself:
            return self.say("correction_noted")
        return self.say("attempt_noted")

    def solved(self) -> list[str]:
        shown = ", ".join(self.progress.shown)
        praise = self.say("correct_specific", shown=shown) if shown else self.say("correct")
        return [praise, self.say("next_step")]

    def reply(self, reading: Reading, diagnosis: Diagnosis | None) -> tuple[list[str], dict[str, Any]]:
        """The messages of the reply and what the debug log says of the move."""
        intent = reading.intent
        if intent is Intent.DONE_CHECK:
            return self.done_check()
        if self.progress.solved and intent is not Intent.TERM_QUESTION:
            return [self.say("already_solved"), self.say("next_step")], {"move": "already_solved"}
        if intent is Intent.ATTEMPT:
            if not about_the_task(self.turn, diagnosis):
                return [self.say("off_topic"), self.current_hint()], {"move": "off_topic"}
            answered = diagnosis is not None and diagnosis.answered
            if not answered and is_keyword_list(self.turn.message, self.base):
                return [self.say("keyword_list")], {"move": "keyword_list"}
            return self.attempt(diagnosis, reading)
        if intent is Intent.QUESTION:
            return [self.answer_question(diagnosis), self.current_hint()], {"move": "task_question"}
        if intent is Intent.TERM_QUESTION:
            return [self.explain(reading.term or "")], {"move": "explain_term", "term": reading.term}
        if intent is Intent.WHY:
            return [self.why()], {"move": "why"}
        if intent in HELPED:
            return self.helped(*HELPED[intent])
        if intent is Intent.PROBE:
            return self.probe(reading)
        if intent is Intent.DEMAND:
            return [self.say("no_solution"), self.current_hint()], {"move": "no_solution"}
        welcome = self.say("welcome", title=self.task.display_title)
        return [welcome, self.current_hint()], {"move": "welcome"}

    def done_check(self) -> tuple[list[str], dict[str, Any]]:
        """ "Am I done?": yes once solved; else not yet, what the learner has, and where what is
        still open is asked for in the task (never what it is)."""
        move = {"move": "done_check"}
        if self.progress.solved:
            return [self.say("done_yes"), self.say("next_step")], move
        shown = ", ".join(self.progress.shown)
        if not self.progress.attempts and not shown:
            return [self.say("done_nothing_yet"), self.current_hint()], move
        missing = self.missing_concepts()
        if shown and not missing:
            return [self.say("done_put_together", shown=shown)], move
        opening = self.say("done_not_yet_shown", shown=shown) if shown else self.say("done_not_yet")
        return [
            opening,
            self.say("done_open", excerpt=where_to_look(self.task, self.focus(), self.base)),
        ], move

    def probe(self, reading: Reading) -> tuple[list[str], dict[str, Any]]:
        """A yes/no guess: no when it is wrong (with the author's word on a misconception), "that is
        part of it" when it is right but not the whole answer, naming nothing more; then the next
        hint. A guess the tutor cannot judge (a gap of a blanks task) is asked for as an answer."""
        guess = replace(self.turn, message=reading.guess or self.turn.message)
        diagnosis = diagnose(guess)
        if diagnosis is None:
            return [self.say("probe")], {"move": "probe", "guess": None}
        if diagnosis.answered:  # an option of a choice task: an attempt, asked as a question
            if (mark := fingerprint(guess.message, self.base)) not in self.progress.attempts:
                self.progress.attempts.append(mark)
            if diagnosis.correct:
                self.progress.solved = True
                return self.solved(), {"move": "solved"}
            return self.guessed("no", self.say("probe_no"), diagnosis.note)
        if diagnosis.misconceptions or diagnosis.opposite:
            wrong = diagnosis.misconceptions[0] if diagnosis.misconceptions else None
            why = (wrong.message or self.say("misconception", description=wrong.name)) if wrong else None
            return self.guessed("no", self.say("probe_no"), why)
        verdict, wrong = (
            ("part", None) if diagnosis.shown else _words_verdict(guess.message, self.task, self.base)
        )
        if verdict == "unsure":  # neither a yes nor a no would be true of it
            return [self.say("probe"), self.current_hint()], {"move": "probe", "guess": "unsure"}
        if verdict == "part":
            self.progress.show([a.name for a in diagnosis.shown])
            if self.progress.shown and not self.missing_concepts():
                return [self.say("probe_all")], {"move": "probe", "guess": "all"}
            return self.guessed("part", self.say("probe_part"))
        return self.guessed("no", self.say("probe_no"), wrong.message if wrong is not None else None)

    def guessed(self, verdict: str, *said: str | None) -> tuple[list[str], dict[str, Any]]:
        """The verdict on a guess and the next hint, in one message (a bare "No." said again and
        again would be the same reply each time)."""
        text = " ".join(m for m in (*said, self.next_hint()) if m)
        return [text], {"move": "probe", "guess": verdict, "rung": self.rung()}

    def answer_question(self, diagnosis: Diagnosis | None) -> str:
        """A question about the task: a misconception in it is answered with the author's message
        for it; otherwise the learner is invited to work the question out with the hint."""
        if diagnosis is not None and diagnosis.misconceptions:
            wrong = diagnosis.misconceptions[0]
            return wrong.message or self.say("misconception", description=wrong.name)
        return self.say("task_question")

    def explain(self, term: str) -> str:
        """A glossary-style answer from the task's own words (:mod:`core.tutor.glossary`), never
        one that states a concept the learner has not shown: the whole reply, explanation and the
        sentence of the task that uses the term together, passes the leak guard as the service has
        it (each alone may, and the two together show the concept)."""
        aspects = aspects_of(self.task)
        usage = look_up(term, self.task, aspects, self.base, lambda _: False).usage

        def reply(explanation: str) -> str:
            used = self.say("term_glossary_usage", sentence=usage) if usage else None
            parts = [self.say("term_glossary", term=term, explanation=explanation), used]
            return " ".join(p for p in (*parts, self.say("term_own_words")) if p)

        entry = look_up(term, self.task, aspects, self.base, lambda sentence: self.safe(reply(sentence)))
        return reply(entry.explanation) if entry.explanation is not None else self.say("term_look_up")

    def why(self) -> str:
        if not self.progress.attempts:
            return self.say("why_ask_tried")
        aspect = self.focus()
        return self.say("why_hint", excerpt=where_to_look(self.task, aspect, self.base))


def _joined_where_said(messages: list[str], said: set[str]) -> list[str]:
    """A message said before in the conversation ("I won't give you the solution.") joined to the
    one after it, so that the reply has no message the learner has read already."""
    out: list[str] = []
    for message in messages:
        if out and out[-1] in said:
            out[-1] = f"{out[-1]} {message}"
        else:
            out.append(message)
    return out


def _last_reply(turn: Turn) -> list[str]:
    """The tutor's previous reply: its messages after the learner's last message."""
    reply: list[str] = []
    for message in reversed(turn.history):
        if message.role != "assistant":
            break
        reply.insert(0, message.content)
    return reply


class GroundedTutor(PlannedEngine):
    name = "grounded"

    def plan(self, turn: Turn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """The reply's messages, the new state and the debug entry; pure, so it is tested directly."""
        if turn.task is None:
            return [turn.text("tutor.no_task")], dict(turn.state), {"engine": self.name, "task": None}
        base = base_of(turn.language)
        reading = read_message(turn.message, base)
        diagnosis = diagnose(turn) if reading.intent in (Intent.ATTEMPT, Intent.QUESTION) else None
        before = Progress.of(dict(turn.state))
        previous = _last_reply(turn)
        said = tuple(m.content for m in turn.history if m.role == "assistant")
        said_set = set(said)
        guard: list[LeakGuard] = []
        verdicts: dict[str, bool] = {}
        best: tuple[int, list[str], dict[str, Any], Progress] | None = None
        for shift in range(PHRASINGS):  # a reply that would repeat an earlier message is said another way
            progress = Progress.of(before.state())
            progress.turns += 1
            planner = Planner(
                turn, turn.task, progress, progress.turns + shift, said, guard=guard, verdicts=verdicts
            )
            messages, move = planner.reply(reading, diagnosis)
            messages = _joined_where_said(messages, said_set)
            repeats = sum(m in said_set for m in messages) + len(messages) * (messages == previous)
            if best is None or repeats < best[0]:
                best = (repeats, messages, move, progress)
            if not repeats:
                break
        assert best is not None
        _, messages, move, progress = best
        debug = {
            "engine": self.name,
            "intent": reading.intent.value,
            **move,
            "focus": progress.focus,
            "shown": progress.shown,
            "hints": progress.hints,
            "solved": progress.solved,
            "diagnosis": None
            if diagnosis is None
            else {
                "shown": [a.name for a in diagnosis.shown],
                "misconceptions": [a.name for a in diagnosis.misconceptions],
                "correct": diagnosis.correct,
                "wrongParts": list(diagnosis.wrong_parts),
                "opposite": diagnosis.opposite,
            },
        }
        return messages, progress.state(), debug
