"""Which engine answers a turn: the tutor's choice, else the setting; simulations get a persona."""

from __future__ import annotations

from core.api import SimulationTask, TaskBase, TutorConfiguration
from core.config import Settings
from core.tutor.base import TutorEngine
from core.tutor.grounded import GroundedTutor
from core.tutor.persona import PersonaEngine


def engine_for(tutor: TutorConfiguration, task: TaskBase | None, settings: Settings) -> TutorEngine:
    """The LLM when chosen (it plays the persona of a simulation too), else the offline engines."""
    if (tutor.engine or settings.tutor_engine) == "llm":
        from core.tutor.llm import LlmEngine

        return LlmEngine.from_settings(settings)
    if isinstance(task, SimulationTask):
        return PersonaEngine()
    return GroundedTutor()
