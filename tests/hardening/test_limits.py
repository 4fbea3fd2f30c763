"""Limits a hosted service needs, each refused with the API's error body {message, type}.

A body over the size limit (declared or streamed without a length) gets 413; strings, lists,
options, blanks, aspects and conversations over their caps get 400 naming the field, and nothing
is stored; a token over its rate limit gets 429 with Retry-After, and other tokens go on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from core.http import tls_context
from tests.conftest import sqlite_url
from tests.hardening.conftest import thread_server
from tests.server.helpers import bearer, blanks_task, compute_body, mc_task

BODY_LIMIT = 50_000


def assert_error_body(response: httpx.Response, status: int, error_type: str) -> dict[str, Any]:
    assert response.status_code == status, response.text[:500]
    body = response.json()
    assert set(body) == {"message", "type"}
    assert body["type"] == error_type
    assert isinstance(body["message"], str) and body["message"]
    return body


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> Iterator[httpx.Client]:
    with thread_server(sqlite_url(tmp_path_factory.mktemp("limits")), max_body_bytes=BODY_LIMIT) as live:
        token = asyncio.run(live.token("default"))
        with httpx.Client(
            verify=tls_context(), base_url=live.base_url, headers=bearer(token), timeout=30
        ) as client:
            yield client


def test_a_body_declared_over_the_limit_gets_413(api):
    body = compute_body({**mc_task(), "problemStatement": "x" * BODY_LIMIT}, {"selectedIndex": 0})
    refused = api.post("/feedback/compute", json=body)
    assert "larger than the limit" in assert_error_body(refused, 413, "REQUEST_SCHEMA_MALFORMED")["message"]
    assert api.get("/tenants/default/tasks").json() == []


def test_a_body_streamed_over_the_limit_without_a_length_gets_413(api):
    chunks = (b"x" * 10_000 for _ in range(BODY_LIMIT // 10_000 + 1))
    refused = api.post("/feedback/compute", content=chunks, headers={"Content-Type": "application/json"})
    assert "content-length" not in refused.request.headers
    assert_error_body(refused, 413, "REQUEST_SCHEMA_MALFORMED")


@pytest.mark.parametrize("depth", [100, 950, 1_000, 5_000])
@pytest.mark.parametrize(
    ("path", "authorised"),
    [("/feedback/compute", True), ("/webhooks/wh_unknown", False), ("/tenants/default/tasks", True)],
)
def test_deeply_nested_json_is_refused_before_anything_runs_never_a_500(api, path, authorised, depth):
    nested = "[" * depth + "]" * depth
    body = (
        '{"userId": "u", "taskType": "MULTIPLE_CHOICE", "answer": {"selectedIndex": 0, "x": ' + nested + "}}"
    )
    headers = {"Content-Type": "application/json"} | ({} if authorised else {"Authorization": ""})
    refused = api.post(path, content=body.encode(), headers=headers)
    assert (
        "nests deeper than 64 levels"
        in assert_error_body(refused, 400, "REQUEST_SCHEMA_MALFORMED")["message"]
    )
    assert api.get("/tenants/default/tasks").json() == []


def test_brackets_inside_strings_do_not_count_as_nesting(api):
    task = {**mc_task("mc-brackets"), "problemStatement": "[[[[" * 40 + "{{{{" * 40}
    assert api.post("/tenants/default/tasks", json=task).status_code == 200
    assert api.delete("/tenants/default/tasks/mc-brackets").status_code in (200, 204)


def freeform_task(aspects: int) -> dict[str, Any]:
    aspect = {"name": "a", "description": "d", "type": "CONCEPT", "cues": ["c"]}
    return {
        "id": "ff-limits",
        "type": "FreeformTextTask",
        "problemStatement": "Why?",
        "sampleSolutions": [{"content": "Because."}],
        "aspects": [{**aspect, "name": f"aspect {i}"} for i in range(aspects)],
    }


def choices_task(options: int) -> dict[str, Any]:
    return {
        "id": "choices-limits",
        "type": "InTextChoicesTask",
        "problemStatement": "I {{1}} home.",
        "choices": [{"options": [f"went {i}" for i in range(options)], "correct": "went 0"}],
    }


MC_OPTIONS = {**mc_task("mc-limits"), "options": [{"content": f"o{i}", "correct": i == 0} for i in range(51)]}
BLANKS = {
    **blanks_task("blanks-limits"),
    "problemStatement": " ".join(f"{{{{{i}}}}}" for i in range(1, 102)),
    "blanks": [{"acceptedAnswers": ["x"]}] * 101,
}
MANY_MESSAGES = [{"role": "user", "content": "hi"}] * 501

TOO_BIG = {
    "problem statement over 20,000 characters": (
        "/tenants/default/tasks",
        {**mc_task("mc-long"), "problemStatement": "x" * 20_001},
        "problemStatement",
    ),
    "task id over 200 characters": ("/tenants/default/tasks", mc_task("t" * 201), "id"),
    "title over 500 characters": (
        "/tenants/default/tasks",
        {**mc_task("mc-title"), "title": "x" * 501},
        "title",
    ),
    "freeform answer over 20,000 characters": (
        "/feedback/compute",
        {**compute_body(mc_task(), {}), "taskType": "FREEFORM_TEXT", "taskDefinition": freeform_task(1)}
        | {"answer": {"content": "x" * 20_001}},
        "content",
    ),
    "blank answer over 5,000 characters": (
        "/feedback/compute",
        compute_body(blanks_task("blanks-long"), {"blanks": [{"content": "1" * 5_001}, {"content": "0"}]}),
        "content",
    ),
    "user id over 200 characters": (
        "/feedback/compute",
        {**compute_body(mc_task("mc-user"), {"selectedIndex": 0}), "userId": "u" * 201},
        "userId",
    ),
    "51 options": ("/tenants/default/tasks", MC_OPTIONS, "options"),
    "21 options of a choice point": ("/tenants/default/tasks", choices_task(21), "options"),
    "101 blanks": ("/tenants/default/tasks", BLANKS, "blanks"),
    "101 aspects": ("/tenants/default/tasks", freeform_task(101), "aspects"),
    "101 answered blanks": (
        "/feedback/compute",
        compute_body(blanks_task("blanks-answer"), {"blanks": [{"content": "1"}] * 101}),
        "blanks",
    ),
    "chat of 501 messages": ("/tutor/chat", {"tutorId": "any", "messages": MANY_MESSAGES}, "messages"),
    "simulation transcript of 501 messages": (
        "/tasks/sim-limits/feedback/compute",
        {"userId": "u", "taskType": "SIMULATION", "answer": {"messages": MANY_MESSAGES}},
        "messages",
    ),
}


@pytest.mark.parametrize(("path", "body", "field"), TOO_BIG.values(), ids=TOO_BIG.keys())
def test_over_a_cap_is_refused_naming_the_field_and_nothing_is_stored(api, path, body, field):
    refused = api.post(path, json=body)
    assert field in assert_error_body(refused, 400, "REQUEST_SCHEMA_MALFORMED")["message"]
    assert api.get("/tenants/default/tasks").json() == []


async def test_rate_limit_answers_429_with_retry_after_per_token(tmp_path):
    with thread_server(sqlite_url(tmp_path), rate_limit_per_minute=3) as live:
        limited, other = await live.token("default"), await live.token("default")
        async with httpx.AsyncClient(verify=tls_context(), base_url=live.base_url) as client:
            answered = [await client.get("/tenants/default/tasks", headers=bearer(limited)) for _ in range(4)]
            assert [r.status_code for r in answered] == [200, 200, 200, 429]
            body = assert_error_body(answered[-1], 429, "INVALID_PARAMETER")
            retry_after = int(answered[-1].headers["Retry-After"])
            assert 1 <= retry_after <= 20
            assert "rate limit" in body["message"]

            assert (await client.get("/tenants/default/tasks", headers=bearer(other))).status_code == 200


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ('{"name": "T", "description": NaN}', "NaN is not a JSON number"),
        ('{"name": "T", "topic_ids": [Infinity]}', "Infinity is not a JSON number"),
        ('{"name": "T", "description": "half \\ud800 a pair"}', "lone UTF-16 surrogate"),
    ],
    ids=["nan", "infinity", "lone-surrogate"],
)
def test_json_that_is_not_standard_is_refused_and_nothing_is_stored(api, raw, says):
    refused = api.put(
        "/tenants/default/tutors/t-odd", content=raw.encode(), headers={"Content-Type": "application/json"}
    )
    assert says in assert_error_body(refused, 400, "REQUEST_SCHEMA_MALFORMED")["message"]
    assert api.get("/tutor/t-odd").status_code == 404


def test_a_pair_of_surrogates_and_the_words_nan_in_text_are_fine(api):
    body = '{"name": "T 😀", "description": "NaN and Infinity are words here \\ud83d\\ude00"}'
    saved = api.put(
        "/tenants/default/tutors/t-fine", content=body.encode(), headers={"Content-Type": "application/json"}
    )
    assert saved.status_code == 200 and saved.json()["description"].endswith("😀")
