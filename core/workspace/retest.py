"""Retest: recompute feedback against a task's current definition and show what changed (API.md 3).

Two sources of answers are recomputed: the author's test answers, checked against what they must
get, and the answers of earlier interactions, compared with the feedback they were given. The
comparison is pure: it is handed the compute function, so the same :func:`retest_answers` serves
the embedded service (which computes without recording anything) and core.client.retest, which
reaches any service through the public compute calls.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from core.api import (
    AnswerRetest,
    AnswerSource,
    FeedbackResult,
    FeedbackSnapshot,
    InteractionRecord,
    ServiceError,
    TestAnswer,
)
from core.workspace.expectations import expectation_failures

RETEST_USER = "feedback-studio-retest"
"""The userId of the computations a retest makes through the public calls; its interactions are
not earlier answers and are left out of later retests."""
MAX_DISTINCT_ANSWERS = 200
"""Distinct answers of earlier interactions recomputed per task, the newest first."""

Compute = Callable[[dict[str, Any]], Awaitable[FeedbackResult]]


async def retest_answers(
    test_answers: Sequence[TestAnswer],
    interactions: Sequence[InteractionRecord],
    compute: Compute,
    known_aspects: set[str] | None = None,
) -> list[AnswerRetest]:
    """Recompute the test answers, then each distinct answer of the interactions (newest first)."""
    results = []
    for test in test_answers:
        after, error = await _attempt(compute, test.answer)
        results.append(
            AnswerRetest(
                source=AnswerSource.TEST_ANSWER,
                label=test.label,
                answer=test.answer,
                after=after,
                error=error,
                expected=test.expected,
                failures=expectation_failures(test.expected, after, error, known_aspects),
            )
        )
    for same in _distinct_answers(interactions)[:MAX_DISTINCT_ANSWERS]:
        newest = same[0]
        after, error = await _attempt(compute, newest.answer)
        results.append(
            AnswerRetest(
                source=AnswerSource.INTERACTION,
                label=newest.interactionId,
                answer=newest.answer,
                occurrences=len(same),
                before=FeedbackSnapshot.of(newest.feedback.result),
                after=after,
                error=error,
            )
        )
    return results


async def _attempt(compute: Compute, answer: dict[str, Any]) -> tuple[FeedbackSnapshot | None, str | None]:
    """The new feedback, or why there is none: an answer may no longer fit the edited task."""
    try:
        return FeedbackSnapshot.of(await compute(answer)), None
    except ServiceError as exc:
        return None, exc.message
    except ValueError as exc:
        return None, str(exc)


def _distinct_answers(interactions: Iterable[InteractionRecord]) -> list[list[InteractionRecord]]:
    groups: dict[str, list[InteractionRecord]] = {}
    for record in interactions:
        if record.userId != RETEST_USER:
            groups.setdefault(json.dumps(record.answer, sort_keys=True), []).append(record)
    return list(groups.values())
