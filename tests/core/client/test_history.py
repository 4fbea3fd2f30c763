"""Filtering a task's history and exporting it as CSV, on the embedded service's real records."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

from core.api import ComputeFeedbackRequest, Correctness, EndUserRating, RatingType
from core.client.history import HistoryFilter, csv_bytes, interactions_csv
from tests.contract.builders import mc_task


async def answered(service, *answers: tuple[str, int]):
    task = mc_task()
    for user, index in answers:
        request = ComputeFeedbackRequest.model_validate(
            {
                "userId": user,
                "taskType": task.task_type.value,
                "taskDefinition": task,
                "answer": {"selectedIndex": index},
            }
        )
        await service.compute_feedback(request)
    return await service.list_interactions("default", task.id)


async def test_filters_by_learner_verdict_and_day(service):
    records = await answered(service, ("anna", 0), ("ben", 1), ("Anna-2", 1))
    assert {r.userId for r in HistoryFilter(user="ANNA").apply(records)} == {"anna", "Anna-2"}
    wrong = HistoryFilter(verdicts=frozenset({Correctness.WRONG})).apply(records)
    assert {r.userId for r in wrong} == {"ben", "Anna-2"}
    assert (
        HistoryFilter(user="anna", verdicts=frozenset({Correctness.CORRECT})).apply(records)[0].userId
        == "anna"
    )
    today = datetime.now(UTC).date()
    assert len(HistoryFilter(since=today, until=today).apply(records)) == 3
    assert HistoryFilter(until=today - timedelta(days=1)).apply(records) == []
    assert HistoryFilter().apply(records) == records


async def test_the_csv_has_a_row_per_interaction_that_a_spreadsheet_reads_back(service):
    records = await answered(service, ('Jörg "J", Zürich', 0), ("ben", 1))
    await service.rate_interaction(records[0].interactionId, EndUserRating(type=RatingType.GOOD))
    records = await service.list_interactions("default", "mc-1")
    rows = list(csv.DictReader(io.StringIO(interactions_csv(records))))
    assert [row["userId"] for row in rows] == [r.userId for r in records]
    by_user = {row["userId"]: row for row in rows}
    assert by_user['Jörg "J", Zürich']["verdict"] == "CORRECT"
    assert by_user['Jörg "J", Zürich']["answer"] == '{"selectedIndex":0}'
    assert by_user["ben"]["verdict"] == "WRONG" and by_user["ben"]["achievedPoints"] == "0.0"
    assert {row["rating"] for row in rows} == {"GOOD", ""}
    assert csv_bytes(records).startswith(b"\xef\xbb\xbf")  # Excel's cue for UTF-8


def test_a_free_text_answer_is_its_text_and_any_other_its_json():
    from core.client.history import answer_text

    assert (
        answer_text({"content": "Der Glühdraht, heiß;\nzweite Zeile"}) == "Der Glühdraht, heiß;\nzweite Zeile"
    )
    assert answer_text({"selectedIndices": [2, 0]}) == '{"selectedIndices":[2,0]}'


async def test_a_teachers_verdict_counts_in_the_filter_and_travels_in_the_csv(service):
    from core.api import VerdictOverride

    records = await answered(service, ("anna", 1), ("ben", 1))
    anna = next(r for r in records if r.userId == "anna")
    await service.override_verdict(
        anna.interactionId, VerdictOverride(verdict=Correctness.CORRECT, note="fair")
    )
    records = await service.list_interactions("default", "mc-1")
    correct = HistoryFilter(verdicts=frozenset({Correctness.CORRECT})).apply(records)
    assert [r.userId for r in correct] == ["anna"]
    assert [r.userId for r in HistoryFilter(verdicts=frozenset({Correctness.WRONG})).apply(records)] == [
        "ben"
    ]
    rows = {row["userId"]: row for row in csv.DictReader(io.StringIO(interactions_csv(records)))}
    assert (rows["anna"]["verdict"], rows["anna"]["teacherVerdict"], rows["anna"]["teacherNote"]) == (
        "WRONG",
        "CORRECT",
        "fair",
    )
    assert rows["anna"]["teacherName"] == (await service.info()).principal and rows["anna"]["teacherAt"]
    assert (rows["ben"]["teacherVerdict"], rows["ben"]["teacherName"]) == ("", "")
