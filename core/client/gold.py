"""Gold answers from the apps: an author reads the feedback on an answer, decides "this should be
CORRECT" (or PARTIAL, WRONG), and the answer becomes a test answer of the task that expects that
verdict, so every later retest checks it. Optionally it also becomes a graded answer, which the
freeform engine learns from. The answer is retested at once, so the author sees whether the engine
already agrees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.api import (
    AnswerRetest,
    AnswerSource,
    Correctness,
    Expectation,
    GradedAnswer,
    GradedAnswersRequest,
    TestAnswer,
    TestAnswersRequest,
)
from core.service.base import Service
from core.workspace.table import answer_summary

LABEL_LENGTH = 60


async def mark_gold(
    service: Service,
    tenant: str,
    task_id: str,
    answer: dict[str, Any],
    verdict: Correctness,
    *,
    learn: bool = False,
) -> AnswerRetest:
    """Keep ``answer`` as a test answer expecting ``verdict`` (in place of a test answer with the
    same answer), also as a graded answer when ``learn``, and return its retest line."""
    kept = [t for t in (await service.list_test_answers(tenant, task_id)).answers if t.answer != answer]
    label = label_for(answer, {t.label for t in kept})
    gold = TestAnswer(label=label, answer=answer, expected=Expectation(verdict=verdict))
    await service.put_test_answers(tenant, task_id, TestAnswersRequest(answers=[*kept, gold]))
    if learn:
        graded = GradedAnswer(answer=answer, correctness=verdict)
        await service.add_graded_answers(tenant, task_id, GradedAnswersRequest(answers=[graded]))
    [task] = (await service.retest(tenant, [task_id])).tasks
    return next(a for a in task.answers if a.source is AnswerSource.TEST_ANSWER and a.label == label)


async def remove_test_answer(service: Service, tenant: str, task_id: str, label: str) -> None:
    current = (await service.list_test_answers(tenant, task_id)).answers
    remaining = [t for t in current if t.label != label]
    await service.put_test_answers(tenant, task_id, TestAnswersRequest(answers=remaining))


def gold_outcome(line: AnswerRetest, _: Callable[[str], str]) -> str:
    """What the immediate retest of a gold answer says, in a sentence in the app's language: ``_``
    is the app's own translation (webui.i18n, tui.i18n), as each app has its language its way."""
    expected = line.expected.verdict.value if line.expected and line.expected.verdict else "?"
    if line.passed:
        return _("Kept as test answer “{label}”: the engine agrees ({expected}).").format(
            label=line.label, expected=expected
        )
    got = line.after.verdict.value if line.after else _("no feedback")
    return _(
        "Kept as test answer “{label}”, expecting {expected}; the engine says {got}, so retests flag it."
    ).format(label=line.label, expected=expected, got=got)


def label_for(answer: dict[str, Any], taken: set[str]) -> str:
    """The answer in a few words, as a label no other test answer of the task has ('/' is not
    allowed in labels, which name files)."""
    words = " ".join(answer_summary(answer).replace("/", "∕").split()) or "answer"
    base = words if len(words) <= LABEL_LENGTH else words[: LABEL_LENGTH - 1].rstrip() + "…"
    label, number = base, 1
    while label in taken:
        number += 1
        label = f"{base} ({number})"
    return label
