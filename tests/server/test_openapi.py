"""The OpenAPI document: valid for the version it declares, and honest about errors."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from core.config import Settings
from core.server.app import create_app


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
