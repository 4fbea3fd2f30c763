"""The offline persona of a simulation: the counterpart the learner talks to, driven by the scenario.

A SimulationTask's CONCEPT aspects are what the learner should do; in a simulation each aspect's
``message`` is what the counterpart says while the learner has not done it yet (the customer's
objection, the patient's worried question). The persona raises them one at a time, in the
author's order, and keeps coming back to an objection until the learner's words address it
(found exactly as the feedback will find them, with the simulation engine's detection). A
MISCONCEPTION aspect's ``message`` is how the counterpart reacts when the learner does that.
When every objection is answered, the counterpart says so.

The counterpart stays in its role: an author's message that reads as feedback to the learner
(it coaches: "you should …", "remember to …") is never spoken; the counterpart asks an
in-character question instead.
Nor does it ever speak an aspect's description, which is written for authors.
"""

from __future__ import annotations

import re
from typing import Any

from core.api import AspectDefinition, AspectType, SimulationTask
from core.engine.base import EngineContext, EngineUnavailable
from core.engine.simulation import shown_aspects
from core.engine.text.languages import base_of
from core.tutor.base import PlannedEngine, Turn

ACKNOWLEDGEMENTS = 3
"""How many ways the catalogue has to say "that helps" (persona_acknowledge_0 … _2)."""


COACHING: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(?:you should|remember to|make sure|don't forget|try to|it is important to|a good answer)\b", re.I
    ),
    "de": re.compile(
        r"\b(?:sie sollten|du solltest|denken sie daran|denk daran|achten sie|achte darauf|vergessen sie nicht|"
        r"vergiss nicht|versuchen sie|versuch\w*)\b",
        re.I,
    ),
    "fr": re.compile(
        r"(?:vous devriez|tu devrais|pensez à|pense à|n'oubliez pas|n'oublie pas|veillez à|essayez de)", re.I
    ),
    "it": re.compile(
        r"\b(?:dovrebbe|dovresti|si ricordi|ricorda di|non dimenticare|faccia attenzione|cerca di)\b", re.I
    ),
    "es": re.compile(
        r"\b(?:debería|deberías|recuerde|recuerda|no olvide|no olvides|asegúrese|intenta)\b", re.I
    ),
}
"""Words of a coach, not of a counterpart: a message with them is feedback for the learner."""


def in_character(turn: Turn, aspect: AspectDefinition) -> bool:
    """Whether the author's message for an aspect can be spoken by the counterpart.

    Naming the topic is in character ("And the price?"); coaching is not ("You should name the
    price early"), nor is an empty message."""
    line = aspect.message or ""
    return bool(line.strip()) and not COACHING[base_of(turn.language)].search(line)


def objection(turn: Turn, aspect: AspectDefinition, variant: int) -> str:
    if in_character(turn, aspect):
        return aspect.message or ""
    return turn.catalogue.phrasing(turn.language, "simulation.persona_question", variant)


class PersonaEngine(PlannedEngine):
    name = "persona"

    def plan(self, turn: Turn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        task = turn.task
        if not isinstance(task, SimulationTask):
            raise TypeError("the persona plays simulation tasks only")
        addressed = list(turn.state.get("addressed", []))
        raised = list(turn.state.get("raised", []))
        try:
            found = [a for a, _ in shown_aspects(task, turn.message, EngineContext(catalogue=turn.catalogue))]
        except EngineUnavailable:  # a build without the freeform engine: objections in order, none answered
            found = []
        new = [a.name for a in found if a.type is AspectType.CONCEPT and a.name not in addressed]
        addressed += new
        wrong = [a for a in found if a.type is AspectType.MISCONCEPTION]
        open_ = [a for a in task.aspects if a.type is AspectType.CONCEPT and a.name not in addressed]

        messages: list[str] = []
        if wrong:
            reaction = wrong[0].message if in_character(turn, wrong[0]) else None
            messages.append(reaction or turn.text("simulation.persona_pushback"))
        elif new:
            messages.append(turn.text(f"simulation.persona_acknowledge_{len(addressed) % ACKNOWLEDGEMENTS}"))
        if not open_:
            messages.append(turn.text("simulation.persona_satisfied"))
        else:
            next_ = open_[0]
            line = objection(turn, next_, variant=len(raised) + len(turn.history))
            if next_.name in raised and not new and not wrong:
                line = f"{turn.text('simulation.persona_insist')} {line}"
            messages.append(line)
            if next_.name not in raised:
                raised.append(next_.name)
        debug = {
            "engine": self.name,
            "shown": [a.name for a in found],
            "addressed": addressed,
            "open": [a.name for a in open_],
        }
        return messages, {"addressed": addressed, "raised": raised}, debug
