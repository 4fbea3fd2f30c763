"""The test answers of a task as both apps list and edit them: the answer as text an author can
change, its expected verdict and its label; deleting one is the service's own call.

An edit rewrites the task's whole set with the one answer changed in its place, so the order the
author knows stays, and the aspects the answer must (or must not) show are kept as they were.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from core.api import Correctness, InvalidParameter, NotFound, TestAnswer, TestAnswerSet, TestAnswersRequest
from core.service.base import Service


def answer_from_text(original: dict[str, Any], text: str) -> dict[str, Any]:
    """The answer an edited text stands for: a free-text answer takes the text as its content, any
    other answer is read as the JSON it was shown as (core.client.history.answer_text)."""
    content = original.get("content")
    if isinstance(content, str) and len(original) == 1:
        return {"content": text}
    try:
        answer = json.loads(text)
    except ValueError as exc:
        raise InvalidParameter(f"the answer is not JSON: {exc}") from None
    if not isinstance(answer, dict):
        raise InvalidParameter('the answer is a JSON object, such as {"selectedIndex": 0}')
    return answer


async def edit_test_answer(
    service: Service,
    tenant: str,
    task_id: str,
    label: str,
    *,
    new_label: str,
    answer: dict[str, Any],
    verdict: Correctness | None,
) -> TestAnswerSet:
    """Change the test answer labelled ``label``: its label, its answer and the verdict it must get
    (None: any verdict). The service refuses an answer that does not fit the task and a label that
    another test answer has."""
    current = (await service.list_test_answers(tenant, task_id)).answers
    old = next((t for t in current if t.label == label), None)
    if old is None:
        raise NotFound(f"task {task_id!r} has no test answer labelled {label!r}")
    try:
        edited = TestAnswer(
            label=new_label.strip(),
            answer=answer,
            expected=old.expected.model_copy(update={"verdict": verdict}),
        )
    except ValidationError:
        raise InvalidParameter("a label has 1 to 200 characters and no “/”") from None
    answers = [edited if t.label == label else t for t in current]
    return await service.put_test_answers(tenant, task_id, TestAnswersRequest(answers=answers))
