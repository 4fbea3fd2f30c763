"""Gold answers from the apps: an author reads the feedback on an answer, decides "this should be
CORRECT" (or PARTIAL, WRONG), and the answer becomes a test answer of the task that expects that
verdict, so every later retest checks it (and the retest reads an earlier answer that is one by
that verdict, not by the feedback it was given). The answer is retested at once, so the author sees
whether the engine already agrees.

On a free-text task it can also become a graded answer. The free-text judge blends its graded
answers with the judgement against the sample solutions: each counts from the first one on, and
pulls answers close to it towards its verdict, the more the closer they are and the more graded
answers agree; the sample solutions still count, so one graded answer does not overturn the
judgement of a clearly different answer. No other task type uses graded answers, so the apps offer
it on free-text tasks only (:func:`learns_from_graded`), in the words of :data:`LEARN_LABEL` and
:data:`LEARN_HINT`.
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
    TaskType,
    TestAnswer,
    TestAnswersRequest,
)
from core.client.i18n import N_
from core.service.base import Service
from core.workspace.table import answer_summary

LABEL_LENGTH = 60
LEARN_LABEL = N_("and the judge learns from it")
"""The gold bar's checkbox that also keeps the answer as a graded answer (translated by the app)."""
LEARN_HINT = N_(
    "Also keep it as a graded answer: answers close to it lean towards this verdict, more so as graded "
    "answers agree; the sample solution still counts."
)
"""The checkbox's tooltip: what a graded answer does to the judgement, no more."""


def learns_from_graded(task_type: TaskType) -> bool:
    """Whether the task's judge uses graded answers: the free-text judge only."""
    return task_type is TaskType.FREEFORM_TEXT


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


def gold_outcome(line: AnswerRetest, _: Callable[[str], str], *, learnt: bool = False) -> str:
    """What the immediate retest of a gold answer says, in a sentence in the app's language: ``_``
    is the app's own translation (webui.i18n, tui.i18n), as each app has its language its way.

    ``learnt``: it was kept as a graded answer too, so the retest counted it; the sentence says so,
    and, where the judge does not agree even then, that the rest still counts."""
    expected = line.expected.verdict.value if line.expected and line.expected.verdict else "?"
    got = line.after.verdict.value if line.after else _("no feedback")
    if learnt and line.passed:
        return _(
            "Kept as test answer “{label}” and as a graded answer; counting it, the judge agrees ({expected})."
        ).format(label=line.label, expected=expected)
    if learnt:
        return _(
            "Kept as test answer “{label}” and as a graded answer, expecting {expected}; even counting it "
            "the judge says {got} (the sample solution and other graded answers count too), so retests "
            "flag it."
        ).format(label=line.label, expected=expected, got=got)
    if line.passed:
        return _("Kept as test answer “{label}”: the engine agrees ({expected}).").format(
            label=line.label, expected=expected
        )
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
