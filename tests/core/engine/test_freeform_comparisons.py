"""A comparison turned round through the real engine, in the five languages the product speaks:
the things compared swapped ("red light is scattered more than blue light") or the degree turned
("less strongly than") says the opposite of the fact and is not correct; both turned at once
("red light is scattered less than blue light") says the same and is."""

from __future__ import annotations

import pytest

from core.api import Correctness, FreeformTextTask, Language
from tests.core.engine.test_freeform import judge

SKY = FreeformTextTask(
    id="himmel-blau-de",
    title="Warum ist der Himmel blau?",
    problemStatement="Warum ist der Himmel am Tag blau?",
    language=Language.DE_DE,
    maxPoints=2,
    sampleSolutions=[
        {
            "content": "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Blaues, kurzwelliges Licht "
            "wird viel stärker gestreut als rotes, langwelliges Licht."
        }
    ],
)


def sky(language: Language, statement: str, solution: str) -> FreeformTextTask:
    """A task whose sample solution is one comparison."""
    return FreeformTextTask(
        id=f"sky-{language.value}",
        problemStatement=statement,
        language=language,
        sampleSolutions=[{"content": solution}],
    )


SKY_EN = sky(
    Language.EN_US, "Why is the sky blue?", "Blue light is scattered much more strongly than red light."
)
SKY_FR = sky(
    Language.FR_FR,
    "Pourquoi le ciel est-il bleu ?",
    "La lumière bleue est beaucoup plus diffusée que la lumière rouge.",
)
SKY_IT = sky(
    Language.IT_IT, "Perché il cielo è blu?", "La luce blu viene diffusa molto più della luce rossa."
)
SKY_ES = sky(
    Language.ES_ES, "¿Por qué el cielo es azul?", "La luz azul se dispersa mucho más que la luz roja."
)

TURNED = [
    # the two answers on the demo task
    (SKY, "Rotes Licht wird stärker gestreut als blaues Licht"),
    (SKY, "Blaues Licht wird weniger stark gestreut als rotes"),
    # German siblings: the noun left out after "als", a low word's comparative, a degree word, the
    # first sentence of the solution kept, a subordinate clause with "als" before or after the verb
    (SKY, "Rotes Licht wird stärker gestreut als blaues."),
    (SKY, "Blaues Licht wird schwächer gestreut als rotes."),
    (SKY, "Rotes Licht wird mehr gestreut als blaues."),
    (
        SKY,
        "Das Sonnenlicht wird an den Molekülen der Luft gestreut. Rotes Licht wird viel stärker gestreut als blaues Licht.",
    ),
    (SKY, "Der Himmel ist blau, weil rotes Licht stärker gestreut wird als blaues."),
    (SKY, "Der Himmel ist blau, weil rotes Licht stärker als blaues gestreut wird."),
    (SKY, "Rotes, langwelliges Licht wird viel stärker gestreut als blaues, kurzwelliges Licht."),
    (SKY_EN, "Red light is scattered much more strongly than blue light."),
    (SKY_EN, "Blue light is scattered less strongly than red light."),
    (SKY_EN, "Blue light is scattered more weakly than red light."),
    (SKY_EN, "Red light is scattered more than blue light."),
    (SKY_FR, "La lumière rouge est beaucoup plus diffusée que la lumière bleue."),
    (SKY_FR, "La lumière bleue est moins diffusée que la lumière rouge."),
    (SKY_FR, "La lumière rouge est beaucoup plus diffusée qu'une lumière bleue."),  # "qu'" elided
    (SKY_FR, "La lumière rouge est davantage diffusée que la lumière bleue."),
    (SKY_IT, "La luce rossa viene diffusa molto più della luce blu."),
    (SKY_IT, "La luce blu viene diffusa meno della luce rossa."),
    (SKY_IT, "La luce rossa viene diffusa più di quella blu."),
    (SKY_IT, "La luce rossa viene diffusa maggiormente della luce blu."),
    (SKY_IT, "La luce rossa viene diffusa molto più della luce blu del cielo."),  # "del" opens no side
    (SKY_ES, "La luz roja se dispersa mucho más que la luz azul."),
    (SKY_ES, "La luz azul se dispersa menos que la luz roja."),
    # what a relative clause or an apposition between commas parts from its verb
    (SKY, "Rotes Licht, das langwellig ist, wird stärker gestreut als blaues."),
    (SKY_EN, "Red light, which has a long wavelength, is scattered more than blue light."),
    (SKY_FR, "La lumière rouge, de grande longueur d'onde, est plus diffusée que la lumière bleue."),
]


@pytest.mark.parametrize(("task", "content"), TURNED)
def test_a_comparison_turned_round_says_the_opposite_of_the_fact(
    task: FreeformTextTask, content: str
) -> None:
    result = judge(task, content)
    assert result.points.verdict is not Correctness.CORRECT
    assert result.points.achievedPoints <= result.points.achievablePoints / 2  # at best half right


RIGHT = [
    (SKY, SKY.sampleSolutions[0].content),
    (SKY, "Blaues Licht wird stärker gestreut als rotes Licht"),
    (SKY, "Rotes Licht wird schwächer gestreut als blaues"),
    (SKY, "Rotes Licht wird weniger stark gestreut als blaues Licht."),
    (SKY, "Der Himmel ist blau, weil blaues Licht stärker gestreut wird als rotes."),
    (SKY, "Blaues Licht, das kurzwellig ist, wird stärker gestreut als rotes."),
    (SKY_EN, SKY_EN.sampleSolutions[0].content),
    (SKY_EN, "Red light is scattered less than blue light."),
    (SKY_EN, "Red light is scattered less strongly than blue light."),
    (SKY_EN, "Blue light is scattered more than red light."),
    (SKY_EN, "Blue light, which has a short wavelength, is scattered more than red light."),
    (SKY_FR, SKY_FR.sampleSolutions[0].content),
    (SKY_FR, "La lumière rouge est moins diffusée que la lumière bleue."),
    (SKY_FR, "La lumière bleue est davantage diffusée que la lumière rouge."),
    (SKY_IT, SKY_IT.sampleSolutions[0].content),
    (SKY_IT, "La luce rossa viene diffusa meno della luce blu."),
    (SKY_IT, "La luce blu viene diffusa maggiormente della luce rossa."),
    (SKY_ES, SKY_ES.sampleSolutions[0].content),
    (SKY_ES, "La luz roja se dispersa menos que la luz azul."),
]


@pytest.mark.parametrize(("task", "content"), RIGHT)
def test_a_comparison_said_right_or_from_its_other_side_is_correct(
    task: FreeformTextTask, content: str
) -> None:
    assert judge(task, content).points.verdict is Correctness.CORRECT
