"""Bad input gets 400 (or 413) with a clear message in the API's error body, and nothing is stored."""

from __future__ import annotations

import httpx
import pytest

from core.http import tls_context
from tests.server.helpers import bearer, compute_body, mc_task


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        yield c


async def assert_nothing_stored(client: httpx.AsyncClient) -> None:
    assert (await client.get("/tenants/default/tasks")).json() == []


@pytest.mark.parametrize(
    ("body", "message_part"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"userId": "u", "taskType": "MULTIPLE_CHOICE"', "not valid JSON"),
    ],
    ids=["garbage", "truncated"],
)
async def test_malformed_json(client, body, message_part):
    response = await client.post(
        "/feedback/compute", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    assert message_part in response.json()["message"]
    await assert_nothing_stored(client)


@pytest.mark.parametrize(
    ("body", "message_part"),
    [
        (compute_body(mc_task(), {"selectedIndex": "first"}), "selectedIndex"),
        ({**compute_body(mc_task(), {"selectedIndex": 0}), "userId": 42}, "userId"),
        ({**compute_body(mc_task(), {"selectedIndex": 0}), "taskType": "ESSAY"}, "unknown task type 'ESSAY'"),
        (
            compute_body(mc_task(), {"selectedIndex": 0})
            | {"taskDefinition": {**mc_task(), "type": "EssayTask"}},
            "type must be one of",
        ),
        (compute_body(mc_task(), {"content": "Bern"}), "does not fit a MULTIPLE_CHOICE task"),
        ({**compute_body(mc_task(), {"selectedIndex": 0}), "taskType": "FREEFORM_TEXT"}, "does not fit"),
        (
            {"taskType": "MULTIPLE_CHOICE", "taskDefinition": mc_task(), "answer": {"selectedIndex": 0}},
            "userId",
        ),
    ],
    ids=[
        "answer-field-type",
        "user-id-type",
        "unknown-task-type",
        "unknown-schema-name",
        "answer-shape",
        "types-disagree",
        "missing-user",
    ],
)
async def test_schema_errors_name_the_field(client, body, message_part):
    response = await client.post("/feedback/compute", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    assert message_part in response.json()["message"]
    await assert_nothing_stored(client)


@pytest.mark.parametrize(
    ("task", "message_part"),
    [
        (
            {**mc_task(), "options": [{"content": "a", "correct": True}, {"content": "b", "correct": True}]},
            "exactly one option must be correct, found 2",
        ),
        (
            {
                "id": "b",
                "type": "InTextFillInBlanksTask",
                "problemStatement": "No gaps here.",
                "blanks": [{"acceptedAnswers": ["x"]}],
            },
            "must mark {{1}}",
        ),
        ({**mc_task(), "id": "a/b"}, "id"),
    ],
    ids=["two-correct", "gaps-missing", "bad-id"],
)
async def test_invalid_task_definitions(client, task, message_part):
    response = await client.post("/tenants/default/tasks", json=task)
    assert response.status_code == 400, response.text
    assert message_part in response.json()["message"]
    await assert_nothing_stored(client)


async def test_out_of_range_answer_is_an_invalid_parameter(client):
    response = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 7}))
    assert response.status_code == 400
    assert response.json()["type"] == "INVALID_PARAMETER"
    await assert_nothing_stored(client)


async def test_oversized_body_gets_413(client):
    huge = compute_body({**mc_task(), "problemStatement": "x" * 2_000_000}, {"selectedIndex": 0})
    response = await client.post("/feedback/compute", json=huge)
    assert response.status_code == 413
    assert response.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    assert "larger than the limit" in response.json()["message"]
    await assert_nothing_stored(client)


async def test_bad_rating_values(client):
    feedback = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 0}))
    interaction = feedback.json()["metaData"]["interactionId"]
    wrong_type = await client.put(f"/interactions/{interaction}/end-user-rating", json={"type": "MEH"})
    assert wrong_type.status_code == 400
    assert "type" in wrong_type.json()["message"]
    unknown = await client.put("/interactions/nope/end-user-rating", json={"type": "GOOD"})
    assert unknown.status_code == 404


async def test_unknown_paths_answer_in_the_error_body(client):
    response = await client.get("/no/such/thing")
    assert response.status_code == 404
    assert response.json() == {"message": "no such endpoint: GET /no/such/thing", "type": "INVALID_PARAMETER"}


async def test_a_failing_request_does_not_break_the_connection(client, monkeypatch):
    """An internal error answers 500 with an error id, and the same connection serves the next call."""
    from core.service.tasks import TaskOperations

    async def explode(self, tenant_id):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(TaskOperations, "list_tasks", explode)
    failed = await client.get("/tenants/default/tasks")
    assert failed.status_code == 500
    assert failed.json()["type"] == "INTERNAL"
    assert "logged with error id" in failed.json()["message"]
    monkeypatch.undo()
    assert (await client.get("/tenants/default/tasks")).status_code == 200


@pytest.mark.parametrize(
    ("answer_or_task", "field"),
    [
        ({"selectedIndex": "1"}, "selectedIndex"),
        ({"selectedIndex": True}, "selectedIndex"),
        ({"selectedIndex": 1.0}, "selectedIndex"),
        ({"task": {"options": [{"content": "Bern", "correct": 1}, {"content": "Zurich"}]}}, "correct"),
        ({"task": {"options": [{"content": "Bern", "correct": "yes"}, {"content": "Zurich"}]}}, "correct"),
    ],
    ids=["index-as-string", "index-as-bool", "index-as-float", "correct-as-number", "correct-as-string"],
)
async def test_numbers_and_booleans_are_not_read_from_other_types(client, answer_or_task, field):
    task = {**mc_task(), **answer_or_task.get("task", {})}
    answer = {k: v for k, v in answer_or_task.items() if k != "task"} or {"selectedIndex": 0}
    response = await client.post("/feedback/compute", json=compute_body(task, answer))
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "REQUEST_SCHEMA_MALFORMED" and field in response.json()["message"]
    await assert_nothing_stored(client)


async def test_a_trace_score_and_topic_ids_are_strict_too(client):
    refused = await client.put("/tenants/default/tutors/t1", json={"name": "T", "topic_ids": [1e30]})
    assert refused.status_code == 400 and "topic_ids" in refused.json()["message"]
    assert (
        await client.put("/tenants/default/tutors/t1", json={"name": "T", "topic_ids": [3]})
    ).status_code == 200


async def test_an_id_is_one_id_in_nfc_and_nfd_and_invisible_characters_are_refused(client):
    import unicodedata
    from urllib.parse import quote

    composed, decomposed = "Übung-1", unicodedata.normalize("NFD", "Übung-1")
    assert composed != decomposed
    created = await client.post("/tenants/default/tasks", json=mc_task(decomposed))
    assert created.status_code == 200 and created.json()["action"] == "CREATED"
    assert created.json()["taskLink"].endswith("/tasks/default/%C3%9Cbung-1")
    again = await client.post("/tenants/default/tasks", json=mc_task(composed))
    assert again.json()["action"] == "UNCHANGED"
    assert [t["taskId"] for t in (await client.get("/tenants/default/tasks")).json()] == [composed]
    for spelling in (composed, decomposed):
        found = await client.get(f"/tenants/default/tasks/{quote(spelling)}")
        assert found.status_code == 200 and found.json()["definition"]["id"] == composed
    for hidden in ("mc\u202eevil", "mc\u200bone", "mc\x00"):
        refused = await client.post("/tenants/default/tasks", json=mc_task(hidden))
        assert refused.status_code == 400 and "control or invisible" in refused.json()["message"]


async def test_a_chat_reads_its_ids_in_nfc_too(client):
    import unicodedata

    composed, decomposed = "Übung-1", unicodedata.normalize("NFD", "Übung-1")
    assert (await client.post("/tenants/default/tasks", json=mc_task(composed))).status_code == 200
    tutor = await client.put(f"/tenants/default/tutors/{composed}", json={"name": "T", "taskId": decomposed})
    assert tutor.status_code == 200 and tutor.json()["taskId"] == composed
    body = {"tutorId": decomposed, "messages": [{"role": "user", "content": "Hi"}], "conversationId": "c-1"}
    assert (await client.post("/tutor/chat", json=body)).status_code == 200
    grounded = {**body, "conversationId": "c-2", "context": {"taskId": decomposed}}
    assert (await client.post("/tutor/chat", json=grounded)).status_code == 200
    hidden = {**body, "conversationId": "c\u202e3"}
    assert (await client.post("/tutor/chat", json=hidden)).status_code == 400


async def test_a_method_the_path_does_not_take_is_405_with_allow(client):
    refused = await client.delete("/feedback/compute")
    assert refused.status_code == 405
    assert refused.headers["allow"] == "POST"
    assert set(refused.json()) == {"message", "type"}


async def test_a_client_gone_mid_response_is_logged_as_a_disconnect_not_an_internal_error(caplog):
    """A stream's keep-alive finds the client gone (anyio raises it inside a task group)."""
    import logging

    import anyio

    from core.server.middleware import RequestMiddleware

    async def streaming_app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise ExceptionGroup("keep-alive", [anyio.BrokenResourceError()])

    async def crashing_app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise ExceptionGroup("keep-alive", [anyio.BrokenResourceError(), KeyError("a real fault")])

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        pass

    scope = {"type": "http", "method": "POST", "path": "/tutor/chat/stream", "headers": []}
    caplog.set_level(logging.INFO)
    await RequestMiddleware(streaming_app, max_body_bytes=0)(scope, receive, send)
    assert "the client went away during POST /tutor/chat/stream" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    with pytest.raises(ExceptionGroup):  # a real fault beside it is still one, logged with its id
        await RequestMiddleware(crashing_app, max_body_bytes=0)(scope, receive, send)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR]


REVIEW_ORDER = "/tenants/default/tasks/mc-1/review-order"


@pytest.mark.parametrize(
    ("body", "message_part"),
    [
        ({"answers": []}, "answers"),
        ({"answers": [{"selectedIndex": 0}] * 5_001}, "answers"),
        ({"answers": [{"selectedIndex": 0}], "limit": 0}, "limit"),
        ({"answers": [{"selectedIndex": 0}], "limit": 5_001}, "limit"),
        ({"answers": [{"selectedIndex": 0}], "limit": "3"}, "limit"),
        ({"answers": [{"selectedIndex": 0}], "limit": 2.0}, "limit"),
        ({"answers": {"selectedIndex": 0}}, "answers"),
        ({"answers": [{"selectedIndex": 0}, "Bern"]}, "answers.1"),
        ({"limit": 3}, "answers"),
    ],
    ids=[
        "no-answers",
        "too-many-answers",
        "limit-zero",
        "limit-too-high",
        "limit-as-string",
        "limit-as-float",
        "answers-not-a-list",
        "answer-not-an-object",
        "answers-missing",
    ],
)
async def test_a_malformed_review_order_is_refused_naming_the_field(client, body, message_part):
    assert (await client.post("/tenants/default/tasks", json=mc_task())).status_code == 200
    response = await client.post(REVIEW_ORDER, json=body)
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "REQUEST_SCHEMA_MALFORMED"
    assert message_part in response.json()["message"]


async def test_a_review_order_answer_must_fit_the_task_and_the_task_must_exist(client):
    assert (await client.post("/tenants/default/tasks", json=mc_task())).status_code == 200
    misfit = await client.post(REVIEW_ORDER, json={"answers": [{"selectedIndex": 0}, {"content": "Bern"}]})
    assert misfit.status_code == 400, misfit.text
    assert misfit.json()["type"] == "INVALID_PARAMETER"
    assert "answers[1]" in misfit.json()["message"]
    unknown = await client.post(
        "/tenants/default/tasks/no-such-task/review-order", json={"answers": [{"selectedIndex": 0}]}
    )
    assert unknown.status_code == 404
    assert unknown.json()["type"] == "INVALID_PARAMETER"
    assert "no-such-task" in unknown.json()["message"]


async def test_a_review_order_answer_has_the_size_limits_of_any_answer(client):
    task = {
        "id": "ff-1",
        "type": "FreeformTextTask",
        "problemStatement": "Why does the bulb light up?",
        "sampleSolutions": [{"content": "The circuit is closed."}],
    }
    assert (await client.post("/tenants/default/tasks", json=task)).status_code == 200
    long = {"answers": [{"content": "closed"}, {"content": "x" * 20_001}]}
    response = await client.post("/tenants/default/tasks/ff-1/review-order", json=long)
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "INVALID_PARAMETER"
    assert "answers[1]" in response.json()["message"] and "20000" in response.json()["message"]
    largest = {"answers": [{"selectedIndex": i % 3} for i in range(5_000)], "limit": 5_000}
    assert (await client.post("/tenants/default/tasks", json=mc_task())).status_code == 200
    accepted = await client.post(REVIEW_ORDER, json=largest)
    assert accepted.status_code == 200, accepted.text
    assert sorted(accepted.json()["order"]) == list(range(5_000))
