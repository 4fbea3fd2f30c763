"""The OpenAPI document: valid for the version it declares, and honest about errors."""

from __future__ import annotations

import httpx
import pytest
from openapi_spec_validator import validate

from core.config import Settings
from core.http import tls_context
from core.server.app import create_app
from tests.server.helpers import bearer, mc_task


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("openapi")
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{folder}/a.sqlite3", seed_demo=False))
    return app.openapi()


def operations(document: dict):
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


def test_the_document_is_valid_openapi_of_the_version_it_declares(document) -> None:
    assert document["openapi"].startswith("3.1")
    validate(document)  # raises with the first violation


def test_every_operation_documents_its_errors_with_the_error_body_and_none_says_422(document) -> None:
    for name, operation in operations(document):
        responses = operation["responses"]
        assert "422" not in responses, name
        assert {"400", "500"} <= responses.keys(), name
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (name, status)
    assert document["components"]["schemas"]["ErrorBody"]["required"] == ["message", "type"]


def test_operations_that_take_a_token_say_so_and_can_refuse_it(document) -> None:
    ops = dict(operations(document))
    assert ops["POST /feedback/compute"]["security"] == [{"bearer": []}]
    assert {"403", "404", "413"} <= ops["POST /feedback/compute"]["responses"].keys()
    assert "412" in ops["POST /tenants/{tenantId}/tasks"]["responses"]
    assert "security" not in ops["POST /webhooks/{token}"]  # its path token is the credential


def test_the_stream_is_described_event_by_event_without_31_incompatible_keywords(document) -> None:
    content = dict(operations(document))["POST /tutor/chat/stream"]["responses"]["200"]["content"]
    assert content["text/event-stream"]["schema"]["required"] == ["event", "data"]
    assert "itemSchema" not in str(document)


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        yield c


async def test_an_aspect_is_documented_as_the_server_reads_and_sends_it(document, client) -> None:
    schemas = document["components"]["schemas"]
    task = {
        "id": "ff-1",
        "type": "FreeformTextTask",
        "problemStatement": "Why does the bulb light up?",
        "sampleSolutions": [{"content": "The circuit is closed."}],
        "aspects": [{"name": "Closed circuit", "cues": ["closed"]}],  # no description: optional
    }
    assert schemas["AspectDefinition"]["required"] == ["name"]
    assert (await client.post("/tenants/default/tasks", json=task)).status_code == 200
    nameless = {**task, "aspects": [{"description": "a circuit without a gap"}]}
    assert (await client.post("/tenants/default/tasks", json=nameless)).status_code == 400

    answered = await client.post(
        "/tasks/aspects/compute", json={"tenantId": "default", "taskDefinition": task}
    )
    assert answered.status_code == 200, answered.text
    required = set(schemas["Aspect"]["required"])
    assert required == {"name", "description", "type"}  # API.md 2.5: required in the response
    assert answered.json() and all(required <= aspect.keys() for aspect in answered.json())


async def test_a_tutor_is_documented_in_the_field_forms_the_server_reads_and_sends(document, client) -> None:
    schemas = document["components"]["schemas"]
    body = {
        "name": "Coach",
        "description": "Helps with capitals",
        "initial_messages": ["Hi!"],
        "topic_ids": [3],
        "taskId": "mc-1",
        "language": "DE_CH",
        "engine": "grounded",
        "instructions": "Be brief.",
    }
    assert body.keys() == schemas["TutorUpsert"]["properties"].keys()  # every documented field, by its name
    assert (await client.post("/tenants/default/tasks", json=mc_task())).status_code == 200
    assert (await client.put("/tenants/default/tutors/coach", json=body)).status_code == 200

    read = (await client.get("/tutor/coach")).json()
    configuration = schemas["TutorConfiguration"]
    assert set(configuration["required"]) <= read.keys() <= configuration["properties"].keys()
    assert {key: read[key] for key in body} == body

    # API.md writes tutor configuration fields in snake_case: task_id binds the tutor, not dropped.
    snake = await client.put("/tenants/default/tutors/snake", json={"name": "Snake", "task_id": "mc-1"})
    assert snake.json()["taskId"] == "mc-1"
    assert (await client.get("/tutor/snake")).json()["taskId"] == "mc-1"


async def test_the_review_order_is_documented_as_the_server_reads_and_answers_it(document, client) -> None:
    operation = dict(operations(document))["POST /tenants/{tenantId}/tasks/{taskId}/review-order"]
    assert "extensions" in operation["tags"]
    assert operation["summary"] and "teaches the judge most" in operation["description"]
    assert operation["security"] == [{"bearer": []}]
    assert {"200", "400", "403", "404", "413", "500"} <= operation["responses"].keys()
    schemas = document["components"]["schemas"]
    request = schemas["ReviewOrderRequest"]["properties"]
    assert (request["answers"]["minItems"], request["answers"]["maxItems"]) == (1, 5_000)
    assert (request["limit"]["minimum"], request["limit"]["maximum"], request["limit"]["default"]) == (
        1,
        5_000,
        10,
    )
    assert schemas["ReviewOrderResponse"]["required"] == ["order"]

    assert (await client.post("/tenants/default/tasks", json=mc_task())).status_code == 200
    answered = await client.post(
        "/tenants/default/tasks/mc-1/review-order", json={"answers": [{"selectedIndex": 1}], "limit": 5}
    )
    assert answered.status_code == 200
    assert answered.json().keys() == schemas["ReviewOrderResponse"]["properties"].keys()
