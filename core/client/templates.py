"""Starting points for new tasks: a small valid example of each type, so an editor opens on the
shape an author has to fill rather than on an empty form that cannot be saved. Both apps' editors
open on these, written in the app's language (the task's language set to match): a German author
starts from a German example, which is what the task will be written in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from core.api import (
    TASK_MODELS,
    AspectDefinition,
    AspectType,
    Blank,
    ChoiceOption,
    ChoicePoint,
    Language,
    Persona,
    SampleSolutionText,
    TaskBase,
    TaskType,
)
from core.client.i18n import N_, SOURCE_LANGUAGE, translate

TASK_LANGUAGES: dict[str, Language] = {
    "en": Language.EN_US,
    "de": Language.DE_DE,
    "fr": Language.FR_FR,
    "it": Language.IT_IT,
}
"""The language a new task is written in, by the app's language."""


def _examples(task_type: TaskType, _: Callable[[str], str]) -> dict[str, Any]:
    """The example of a task type, its words through ``_``."""
    if task_type is TaskType.FREEFORM_TEXT:
        return dict(
            problemStatement=_(N_("Explain why the days are longer in summer.")),
            sampleSolutions=[
                SampleSolutionText(content=_(N_("The Earth's axis is tilted towards the sun in summer.")))
            ],
            aspects=[
                AspectDefinition(
                    name=_(N_("Axial tilt")),
                    cues=[_(N_("tilt")), _(N_("axis"))],
                    message=_(N_("Mention the tilt of the axis.")),
                ),
                AspectDefinition(
                    name=_(N_("Distance to the sun")),
                    type=AspectType.MISCONCEPTION,
                    cues=[_(N_("closer to the sun"))],
                    message=_(N_("The distance to the sun hardly changes the seasons.")),
                ),
            ],
        )
    if task_type is TaskType.IN_TEXT_FILL_IN_BLANKS:
        return dict(
            problemStatement=_(N_("Water boils at {{1}} °C and freezes at {{2}} °C.")),
            blanks=[Blank(acceptedAnswers=["100"]), Blank(acceptedAnswers=["0"])],
        )
    if task_type is TaskType.IN_TEXT_CHOICES:
        # a grammar choice: each language gives the three forms of its own verb
        options = [_(N_("go")), _(N_("goes")), _(N_("going"))]
        return dict(
            problemStatement=_(N_("She {{1}} to school every day.")),
            choices=[ChoicePoint(options=options, correct=options[1])],
        )
    if task_type is TaskType.MULTIPLE_CHOICE:
        return dict(
            problemStatement=_(N_("Which planet is closest to the sun?")),
            options=[
                ChoiceOption(content=_(N_("Mercury")), correct=True),
                ChoiceOption(content=_(N_("Venus"))),
            ],
        )
    if task_type is TaskType.MULTIPLE_RESPONSES:
        return dict(
            problemStatement=_(N_("Which of these are mammals?")),
            options=[
                ChoiceOption(content=_(N_("Whale")), correct=True),
                ChoiceOption(content=_(N_("Shark"))),
            ],
        )
    return dict(
        problemStatement=_(N_("Calm an upset customer whose parcel is late.")),
        scenarioDescription=_(N_("A customer calls the help desk because a parcel is a week late.")),
        initialMessage=_(N_("Hello? My parcel is a week late and nobody answers my emails!")),
        persona=Persona(
            name="Alex", description=_(N_("Impatient but fair; calms down when taken seriously."))
        ),
        sampleSolution=_(N_("Apologise, look up the parcel, give a concrete date and a way to follow up.")),
        aspects=[AspectDefinition(name=_(N_("Apologises")), cues=[_(N_("sorry")), _(N_("apologise"))])],
    )


ID_STEMS: dict[TaskType, str] = {
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


def new_task(task_type: TaskType, taken: Collection[str], language: str = SOURCE_LANGUAGE) -> TaskBase:
    """The example of ``task_type`` in the app's ``language`` ("de"), under the first id of its
    stem that ``taken`` does not hold."""
    example = _examples(task_type, lambda message: translate(language, message))
    return TASK_MODELS[task_type](
        id=free_id(ID_STEMS[task_type], taken),
        title="",
        language=TASK_LANGUAGES.get(language, Language.EN_US),
        **example,
    )
