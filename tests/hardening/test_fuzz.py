"""Property-based fuzzing of every operation of the project's own OpenAPI, with a valid token.

Schemathesis generates requests from the schema of create_app (valid ones and ones that break it)
and sends them over real HTTP to a live server: none may answer 5xx, every 4xx carries the
API's error body {message, type}, and every answer conforms to the document (its status is one the
operation declares, its content type and body match the declared schema). Path parameters named tenantId are the token's tenant and chats
name a demo tutor (the server seeds the demo tasks and tutors), so that requests get past the
permission check and the lookup into the service. In the suite the run is small (the
examples and random phases, 10 cases per operation); bench/fuzz_long.py runs this same test with
FEEDBACK_STUDIO_FUZZ_LONG set: many more cases and the coverage phase (boundary values of every
field).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from core.config import Settings
from core.server.app import create_app
from tests.conftest import sqlite_url
from tests.hardening.conftest import thread_server
from tests.server.helpers import bearer

DEMO_TUTOR = "tutor-bulb-circuit-en"
LONG_RUN_EXAMPLES = int(os.environ.get("FEEDBACK_STUDIO_FUZZ_LONG", "0"))
"""Set by bench/fuzz_long.py: examples per operation, with the coverage phase on."""

OPENAPI = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:", seed_demo=False)).openapi()
SCHEMA = schemathesis.openapi.from_dict(
    OPENAPI,
    config=SchemathesisConfig.from_dict(
        {
            "phases": {"coverage": {"enabled": LONG_RUN_EXAMPLES > 0}},
            "parameters": {"tenantId": "default"},
        }
    ),
)


@SCHEMA.hook
def map_body(context, body):
    """Chats name a demo tutor, so that they reach the tutor engine and not only its 404."""
    if isinstance(body, dict) and isinstance(body.get("tutorId"), str):
        return {**body, "tutorId": DEMO_TUTOR}
    return body


CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]
"""Every answer is one the OpenAPI document declares: its status, its content type, its body."""


@dataclass(frozen=True)
class Target:
    base_url: str
    headers: dict[str, str]


def check_response(response: schemathesis.Response | requests.Response) -> None:
    """The property every answer must have."""
    assert response.status_code < 500, f"{response.status_code}: {response.text[:500]}"
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and set(body) == {"message", "type"}, body
        assert isinstance(body["message"], str) and isinstance(body["type"], str)


@pytest.fixture(scope="module")
def target(tmp_path_factory) -> Iterator[Target]:
    with thread_server(sqlite_url(tmp_path_factory.mktemp("fuzz")), seed_demo=True) as live:
        token = asyncio.run(live.token("default"))
        yield Target(live.base_url, bearer(token))


@SCHEMA.parametrize()
@settings(
    max_examples=LONG_RUN_EXAMPLES or 10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not LONG_RUN_EXAMPLES,  # the suite's run is the same on every machine; the long run explores
)
def test_no_5xx_and_every_4xx_has_the_error_body(case, target):
    response = case.call(base_url=target.base_url, headers=target.headers, timeout=30)
    check_response(response)
    case.validate_response(response, checks=CONFORMANCE)


def test_a_webhook_body_that_is_not_text_is_a_400(target):
    """Found by the fuzzing above: such a body once made json.loads fail with a 500."""
    response = requests.post(
        f"{target.base_url}/webhooks/any",
        data=b"\x00\x00\x00{\x00",
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 400
    check_response(response)
