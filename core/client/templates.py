"""Starting points for new tasks: a small valid example of each type, so an editor opens on the
shape an author has to fill rather than on an empty form that cannot be saved. The terminal app's
editor opens on these."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from core.api import (
    TASK_MODELS,
    AspectDefinition,
    AspectType,
    Blank,
    ChoiceOption,
    ChoicePoint,
    Persona,
    SampleSolutionText,
    TaskBase,
    TaskType,
)

_EXAMPLES: dict[TaskType, dict[str, Any]] = {
    TaskType.FREEFORM_TEXT: dict(
        problemStatement="Explain why the days are longer in summer.",
        sampleSolutions=[SampleSolutionText(content="The Earth's axis is tilted towards the sun in summer.")],
        aspects=[
            AspectDefinition(
                name="Axial tilt", cues=["tilt", "axis"], message="Mention the tilt of the axis."
            ),
            AspectDefinition(
                name="Distance to the sun",
                type=AspectType.MISCONCEPTION,
                cues=["closer to the sun"],
                message="The distance to the sun hardly changes the seasons.",
            ),
        ],
    ),
    TaskType.IN_TEXT_FILL_IN_BLANKS: dict(
        problemStatement="Water boils at {{1}} °C and freezes at {{2}} °C.",
        blanks=[Blank(acceptedAnswers=["100"]), Blank(acceptedAnswers=["0"])],
    ),
    TaskType.IN_TEXT_CHOICES: dict(
        problemStatement="She {{1}} to school every day.",
        choices=[ChoicePoint(options=["go", "goes", "going"], correct="goes")],
    ),
    TaskType.MULTIPLE_CHOICE: dict(
        problemStatement="Which planet is closest to the sun?",
        options=[ChoiceOption(content="Mercury", correct=True), ChoiceOption(content="Venus")],
    ),
    TaskType.MULTIPLE_RESPONSES: dict(
        problemStatement="Which of these are mammals?",
        options=[ChoiceOption(content="Whale", correct=True), ChoiceOption(content="Shark")],
    ),
    TaskType.SIMULATION: dict(
        problemStatement="Calm an upset customer whose parcel is late.",
        scenarioDescription="A customer calls the help desk because a parcel is a week late.",
        initialMessage="Hello? My parcel is a week late and nobody answers my emails!",
        persona=Persona(name="Alex", description="Impatient but fair; calms down when taken seriously."),
        sampleSolution="Apologise, look up the parcel, give a concrete date and a way to follow up.",
        aspects=[AspectDefinition(name="Apologises", cues=["sorry", "apologise"])],
    ),
}

_ID_STEMS: dict[TaskType, str] = {
    TaskType.FREEFORM_TEXT: "freeform",
    TaskType.IN_TEXT_FILL_IN_BLANKS: "blanks",
    TaskType.IN_TEXT_CHOICES: "choices",
    TaskType.MULTIPLE_CHOICE: "multiple-choice",
    TaskType.MULTIPLE_RESPONSES: "multiple-responses",
    TaskType.SIMULATION: "simulation",
}


def free_id(stem: str, taken: Collection[str]) -> str:
    """``stem-1``, ``stem-2`` …: the first not taken (readable, and stable in snapshots)."""
    n = 1
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


def new_task(task_type: TaskType, taken: Collection[str]) -> TaskBase:
    """The example of ``task_type`` under the first id of its stem that ``taken`` does not hold."""
    return TASK_MODELS[task_type](id=free_id(_ID_STEMS[task_type], taken), title="", **_EXAMPLES[task_type])
