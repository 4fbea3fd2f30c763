"""Ids checked in the apps with the API's rules, before anything is sent."""

from __future__ import annotations

import pytest

from core.client.validation import id_problem


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("", "at least 1 character"),
        ("a/b", "no “/”"),
        (" leading", "no space at the start"),
        ("a\u202eb", "control or invisible characters (U+202E)"),
    ],
)
def test_an_id_the_api_would_refuse_is_said_why(value: str, problem: str) -> None:
    found = id_problem(value)
    assert found is not None and problem in found


def test_an_id_the_api_takes_has_no_problem() -> None:
    assert id_problem("mc-photosynthesis-en") is None
    assert id_problem("Übung 1") is None
