"""The offline persona of a simulation: the counterpart the learner talks to, driven by the scenario.

A SimulationTask's CONCEPT aspects are what the learner should do; in a simulation each aspect's
``message`` is what the counterpart says while the learner has not done it yet (the customer's
objection, the patient's worried question). The persona raises them one at a time, in the
author's order, and keeps coming back to an objection until the learner's words address it
(found exactly as the feedback will find them, with the simulation engine's detection). A
MISCONCEPTION aspect's ``message`` is how the counterpart reacts when the learner does that.
When every objection is answered, the counterpart says so.
"""

from __future__ import annotations

from typing import Any

from core.api import AspectDefinition, AspectType, SimulationTask
from core.engine.base import EngineContext, EngineUnavailable
from core.engine.simulation import shown_aspects
from core.tutor.base import PlannedEngine, Turn

ACKNOWLEDGEMENTS = 3
"""How many ways the catalogue has to say "that helps" (persona_acknowledge_0 … _2)."""


def objection(turn: Turn, aspect: AspectDefinition) -> str:
    return aspect.message or turn.text(
        "simulation.persona_question", description=aspect.description or aspect.name
    )


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
            messages.append(wrong[0].message or turn.text("simulation.persona_pushback"))
        elif new:
            messages.append(turn.text(f"simulation.persona_acknowledge_{len(addressed) % ACKNOWLEDGEMENTS}"))
        if not open_:
            messages.append(turn.text("simulation.persona_satisfied"))
        else:
            next_ = open_[0]
            line = objection(turn, next_)
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
