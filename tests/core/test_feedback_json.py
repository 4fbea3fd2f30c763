"""A feedback's JSON is assembled from its envelope and its result's kept JSON: it must be exactly
the text pydantic would write for the whole feedback, which clients and the stored record read."""

from __future__ import annotations

import json

import pytest

from core.api import Feedback, FeedbackMetaData, TaskAction, TaskDefinition, parse_answer
from core.assets import load_catalogue
from core.engine import EngineContext, compute_result
from tests.core.test_demo_tasks import CLOSED, FIRST_ATTEMPT


@pytest.mark.parametrize("task", CLOSED, ids=[task.id for task in CLOSED])
def test_the_feedback_json_is_pydantics_json_of_the_whole_feedback(task: TaskDefinition) -> None:
    result = compute_result(
        task,
        parse_answer(task.task_type, FIRST_ATTEMPT[task.task_type](task)),
        EngineContext(catalogue=load_catalogue()),
    )
    feedback = Feedback(
        userId='learner "7" – Zoë',
        taskId=task.id,
        taskType=task.task_type,
        metaData=FeedbackMetaData(
            taskAction=TaskAction.UNCHANGED, tenantId="default", taskLink="http://x/t", interactionId="i-1"
        ),
        result=result,
    )
    result.to_wire_json()  # kept by the result before the feedback embeds it, as on a cache hit

    text = feedback.to_wire_json()

    assert text == feedback.model_dump_json(by_alias=True, exclude_none=True)
    assert json.loads(text) == feedback.to_wire()
    assert feedback.to_wire_json() is text
