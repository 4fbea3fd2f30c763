"""Retest: recompute feedback against a task's current definition and show what changed (API.md 3).

Two sources of answers are recomputed: the author's test answers, checked against what they must
get, and the answers of earlier interactions, compared with the feedback they were given. Where the
author has said what an answer must get, that is what counts, not the feedback it was given last: an
earlier answer that is also a test answer is left to the test answer's line (a gold answer judged
WRONG before and after is not "unchanged" when the author expects CORRECT), and one that the author
expects something of elsewhere (a test answer the service keeps while the test answers come from
files) is checked against that. The comparison is pure: it is handed the compute function, so the
same :func:`retest_answers` serves the embedded service (which computes without recording anything)
and core.client.retest, which reaches any service through the public compute calls.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from core.api import (
    AnswerRetest,
    AnswerSource,
    Expectation,
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
    expected_elsewhere: Sequence[TestAnswer] = (),
) -> list[AnswerRetest]:
    """Recompute the test answers, then each distinct answer of the interactions (newest first)
    that is not one of the test answers: the test answer's line checks what the author expects.

    ``expected_elsewhere``: test answers that get no line of their own (the service's, when those
    of files are retested); an earlier answer that is one of them is checked against its
    expectation as well as compared with the feedback it was given."""
    tested = {_key(test.answer) for test in test_answers}
    elsewhere: dict[str, Expectation] = {
        _key(test.answer): test.expected for test in expected_elsewhere if test.expected != Expectation()
    }
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
    earlier = [(key, same) for key, same in _distinct_answers(interactions).items() if key not in tested]
    for key, same in earlier[:MAX_DISTINCT_ANSWERS]:
        newest = same[0]
        after, error = await _attempt(compute, newest.answer)
        expected = elsewhere.get(key)
        results.append(
            AnswerRetest(
                source=AnswerSource.INTERACTION,
                label=newest.interactionId,
                answer=newest.answer,
                occurrences=len(same),
                before=FeedbackSnapshot.of(newest.feedback.result),
                after=after,
                error=error,
                expected=expected,
                failures=expectation_failures(expected, after, error, known_aspects) if expected else [],
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


def _distinct_answers(interactions: Iterable[InteractionRecord]) -> dict[str, list[InteractionRecord]]:
    """The interactions grouped by their answer (in their order, newest first), retests' left out."""
    groups: dict[str, list[InteractionRecord]] = {}
    for record in interactions:
        if record.userId != RETEST_USER:
            groups.setdefault(_key(record.answer), []).append(record)
    return groups


def _key(answer: dict[str, Any]) -> str:
    """The same answer, whichever order its keys came in."""
    return json.dumps(answer, sort_keys=True)
