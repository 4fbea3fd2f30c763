"""`feedback-studio tutor create`: the tutor is stored and printed; a bad task is a clear error."""

from __future__ import annotations

import json

from core.cli import main
from tests.conftest import sqlite_url


def test_tutor_create_prints_the_configuration(tmp_path, monkeypatch, capsys):
    database = sqlite_url(tmp_path)
    monkeypatch.setenv("FEEDBACK_STUDIO_DATABASE_URL", database)
    args = ["tutor", "create", "--database", database, "--tenant", "acme", "--id", "coach", "--name", "Coach"]
    assert main([*args, "--language", "DE_DE", "--engine", "grounded"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["id"] == "coach" and printed["tenantId"] == "acme"
    assert printed["language"] == "DE_DE" and printed["engine"] == "grounded"

    assert main([*args, "--task", "no-such-task"]) == 2
    assert "task 'no-such-task' does not exist" in capsys.readouterr().err
