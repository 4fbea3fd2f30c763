"""Feedback of the four choice and blank types over HTTP: verdicts, context shapes, interactions, ratings."""

from __future__ import annotations

import httpx
import pytest

from core.http import tls_context
from tests.server.helpers import bearer, compute_body

MR_TASK = {
    "id": "mr-1",
    "type": "MultipleResponsesTask",
    "title": "Renewables",
    "problemStatement": "Which are renewable?",
    "options": [
        {"content": "Wind", "correct": True},
        {"content": "Coal", "correct": False},
        {"content": "Solar", "correct": True},
    ],
}
BLANKS_TASK = {
    "id": "blanks-1",
    "type": "InTextFillInBlanksTask",
    "title": "Water",
    "problemStatement": "Water boils at {{1}} °C at sea level; ice is {{2}} water.",
    "blanks": [
        {"acceptedAnswers": ["100"], "matching": "NUMERIC"},
        {"acceptedAnswers": ["frozen"], "matching": "FUZZY"},
    ],
}
CHOICES_TASK = {
    "id": "choices-1",
    "type": "InTextChoicesTask",
    "title": "Tenses",
    "problemStatement": "She {{1}} to school. Yesterday we {{2}} football.",
    "choices": [
        {"options": ["go", "goes"], "correct": "goes"},
        {"options": ["play", "played"], "correct": "played"},
    ],
}
MC_TASK = {
    "id": "mc-1",
    "type": "MultipleChoiceTask",
    "title": "Capital",
    "problemStatement": "The federal city of Switzerland?",
    "options": [{"content": "Bern", "correct": True}, {"content": "Zurich"}],
}

CASES = [
    (MC_TASK, {"selectedIndex": 0}, "CORRECT"),
    (MC_TASK, {"selectedIndex": 1}, "WRONG"),
    (MR_TASK, {"selected": [True, False, True]}, "CORRECT"),
    (MR_TASK, {"selected": [True, True, False]}, "PARTIAL"),
    (MR_TASK, {"selected": [False, True, False]}, "WRONG"),
    (BLANKS_TASK, {"blanks": [{"content": "100"}, {"content": "frozen"}]}, "CORRECT"),
    (BLANKS_TASK, {"blanks": [{"content": "100,0"}, {"content": "frozn"}]}, "PARTIAL"),
    (BLANKS_TASK, {"blanks": [{"content": "90"}, {"content": "liquid"}]}, "WRONG"),
    (CHOICES_TASK, {"choices": [{"content": "goes"}, {"content": "played"}]}, "CORRECT"),
    (CHOICES_TASK, {"choices": [{"content": "goes"}, {"content": "play"}]}, "PARTIAL"),
    (CHOICES_TASK, {"choices": [{"content": "go"}, {"content": "play"}]}, "WRONG"),
]

ITEM_CONTEXT_KEYS = {
    "MultipleChoiceTask": {"index", "selected"},
    "MultipleResponsesTask": {"index", "selected"},
    "InTextFillInBlanksTask": {"content", "index"},
    "InTextChoicesTask": {"content", "index"},
}


def verdict(points: dict) -> str:
    if points["achievedPoints"] == points["achievablePoints"]:
        return "CORRECT"
    return "WRONG" if points["achievedPoints"] == 0 else "PARTIAL"


@pytest.fixture(scope="module")
def client(module_live_server):
    import asyncio

    token = asyncio.run(module_live_server.token("default"))
    with httpx.Client(verify=tls_context(), base_url=module_live_server.base_url, headers=bearer(token)) as c:
        yield c


@pytest.mark.parametrize(
    ("task", "answer", "expected"), CASES, ids=lambda v: v if isinstance(v, str) else None
)
def test_verdicts_and_context_shapes(client, task, answer, expected):
    response = client.post("/feedback/compute", json=compute_body(task, answer))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["taskType"] == compute_body(task, answer)["taskType"]
    assert body["result"]["type"] == task["type"].replace("Task", "Feedback")
    assert verdict(body["result"]["points"]) == expected
    assert body["result"]["answer"] == answer
    assert response.headers["X-Interaction-Id"] == body["metaData"]["interactionId"]
    items = body["result"]["feedback"]
    assert items, "every answer gets at least one feedback item"
    for item in items:
        assert {"message", "correctness", "topic", "aspects", "context"} <= item.keys()
        assert isinstance(item["context"], list)
        for context in item["context"]:
            assert set(context) == ITEM_CONTEXT_KEYS[task["type"]]
    if expected == "CORRECT":
        assert any(item["correctness"] == "CORRECT" for item in items)
    else:
        assert any(item["correctness"] in ("WRONG", "PARTIAL") for item in items)


def test_sample_solutions_have_the_documented_shapes(client):
    shapes = {
        "mc-1": {"selectedIndex": 0},
        "mr-1": {"selected": [True, False, True]},
        "blanks-1": {"blanks": [{"content": "100"}, {"content": "frozen"}]},
        "choices-1": {"choices": [{"content": "goes"}, {"content": "played"}]},
    }
    for task, answer, _ in CASES[::3]:
        body = client.post("/feedback/compute", json=compute_body(task, answer)).json()
        assert body["result"]["sampleSolution"] == shapes[task["id"]]


def test_detected_aspects_carry_a_single_context(client):
    task = {
        **MC_TASK,
        "id": "mc-aspects",
        "options": [
            {"content": "Bern", "correct": True},
            {
                "content": "Zurich",
                "aspects": [{"name": "Largest city is the capital", "type": "MISCONCEPTION"}],
            },
        ],
    }
    body = client.post("/feedback/compute", json=compute_body(task, {"selectedIndex": 1})).json()
    [detected] = body["result"]["allAspects"]
    assert detected["aspect"]["name"] == "Largest city is the capital"
    assert detected["aspect"]["type"] == "MISCONCEPTION"
    assert detected["context"] == {"index": 1, "selected": True}


def test_rating_is_created_on_the_first_put_and_updated_after(client):
    feedback = client.post("/feedback/compute", json=compute_body(MC_TASK, {"selectedIndex": 1})).json()
    interaction = feedback["metaData"]["interactionId"]

    first = client.put(
        f"/interactions/{interaction}/end-user-rating", json={"type": "BAD", "subtype": "TOO_STRICT"}
    )
    assert first.status_code == 200
    assert first.json()["type"] == "BAD"
    second = client.put(
        f"/interactions/{interaction}/end-user-rating",
        json={"type": "GOOD", "subtype": "HELPFUL_HINT", "message": "Got it now"},
    )
    assert second.json()["createdAt"] == first.json()["createdAt"]
    assert second.json()["updatedAt"] >= first.json()["updatedAt"]

    stored = client.get(f"/interactions/{interaction}").json()
    assert stored["rating"] == {"type": "GOOD", "subtype": "HELPFUL_HINT", "message": "Got it now"}
    assert stored["verdict"] == "WRONG"
    assert stored["feedback"]["metaData"]["interactionId"] == interaction


def test_the_record_of_an_interaction_holds_the_feedback_as_it_was_answered(client):
    """The first compute of a new task creates it, the next ones find it unchanged; either way the
    record holds exactly what the learner was shown."""
    task = {**MC_TASK, "id": "mc-record", "title": "Recorded"}
    for action in ("CREATED", "UNCHANGED", "UNCHANGED"):
        response = client.post("/feedback/compute", json=compute_body(task, {"selectedIndex": 1}))
        feedback = response.json()
        assert feedback["metaData"]["taskAction"] == action
        stored = client.get(f"/interactions/{feedback['metaData']['interactionId']}").json()
        assert stored["feedback"] == feedback


def test_history_lists_every_interaction_of_a_task(client):
    before = len(client.get("/tenants/default/tasks/mc-1/interactions").json())
    client.post("/feedback/compute", json=compute_body(MC_TASK, {"selectedIndex": 0}))
    history = client.get("/tenants/default/tasks/mc-1/interactions").json()
    assert len(history) == before + 1
    assert history[0]["verdict"] == "CORRECT"  # newest first
    summary = next(t for t in client.get("/tenants/default/tasks").json() if t["taskId"] == "mc-1")
    assert summary["interactionCount"] == before + 1
    assert summary["lastVerdicts"][0] == "CORRECT"
