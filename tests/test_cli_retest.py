"""`feedback-studio tasks import/export` and `retest` as an author's CI runs them: a real process
over a temporary SQLite database, judged by its output and its exit status."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[1]


def mc_document(correct: int) -> dict:
    return {
        "id": "capital",
        "type": "MultipleChoiceTask",
        "problemStatement": "Which city is the federal city of Switzerland?",
        "options": [{"content": c, "correct": i == correct} for i, c in enumerate(["Bern", "Zurich"])],
    }


TEST_ANSWERS = {
    "taskId": "capital",
    "answers": [{"label": "bern", "answer": {"selectedIndex": 0}, "expected": {"verdict": "CORRECT"}}],
}


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'ci.sqlite3'}"


@pytest.fixture
def cli(database):
    """The command in a process of its own, as CI runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDBACK_STUDIO_")}
    env["FEEDBACK_STUDIO_SEED_DEMO"] = "false"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "core.cli", *args, "--database", database],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    return run


@pytest.fixture
def cli_on_a_terminal(database):
    """The command with its standard error on a pseudo-terminal, as an author at a shell sees it:
    (exit status, standard output, what the terminal showed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDBACK_STUDIO_")}
    env |= {"FEEDBACK_STUDIO_SEED_DEMO": "false", "TERM": "xterm-256color", "COLUMNS": "100"}

    def run(*args: str) -> tuple[int, str, str]:
        terminal, seen_by_process = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "core.cli", *args, "--database", database],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=seen_by_process,
            text=True,
        )
        os.close(seen_by_process)
        shown = b""
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # the process closed its end
                break
            if not chunk:
                break
            shown += chunk
        os.close(terminal)
        out, _ = process.communicate(timeout=60)
        return process.returncode, out, shown.decode(errors="replace")

    return run


@pytest.fixture
def in_process(database, monkeypatch, capsys):
    """The command's main() in this process (quicker); the settings it exports are undone after."""
    monkeypatch.setenv("FEEDBACK_STUDIO_SEED_DEMO", "false")
    monkeypatch.setenv("FEEDBACK_STUDIO_DATABASE_URL", database)

    def run(*args: str) -> tuple[int, str]:
        status = main([*args, "--database", database])
        return status, capsys.readouterr().out

    return run


@pytest.fixture
def task_files(tmp_path) -> Path:
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "capital.json").write_text(json.dumps(mc_document(correct=0)), encoding="utf-8")
    (folder / "capital.tests.json").write_text(json.dumps(TEST_ANSWERS), encoding="utf-8")
    return folder


@pytest.mark.process
def test_retest_exits_0_while_expectations_hold_1_after_an_edit_breaks_one_2_for_usage(cli, task_files):
    imported = cli("tasks", "import", str(task_files))
    assert imported.returncode == 0, imported.stderr
    assert "CREATED" in imported.stdout and "1 test answers" in imported.stdout

    passing = cli("retest", "capital")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "passed" in passing.stdout

    (task_files / "capital.json").write_text(json.dumps(mc_document(correct=1)), encoding="utf-8")
    failing = cli("retest", "--files", str(task_files))
    assert failing.returncode == 1
    assert "FAIL: expected CORRECT, got WRONG" in failing.stdout
    assert "1 failing expectations: FAILED" in failing.stdout

    unknown = cli("retest", "nope")
    assert unknown.returncode == 2 and "nope" in unknown.stderr
    assert cli("retest", "--no-such-option").returncode == 2


@pytest.mark.process
def test_import_and_retest_show_their_progress_on_a_terminal_and_keep_standard_output_plain(
    cli_on_a_terminal, task_files
):
    status, out, shown = cli_on_a_terminal("tasks", "import", str(task_files))
    assert status == 0
    assert "importing" in shown and "2/2" in shown
    assert out.splitlines()[0].startswith("CREATED    capital")

    status, out, shown = cli_on_a_terminal("retest")
    assert status == 0
    assert "retesting" in shown and "1/1" in shown
    assert "\x1b" not in out and "passed" in out


def test_retest_of_the_stored_tasks_after_an_import_of_the_edit(in_process, task_files):
    assert in_process("tasks", "import", str(task_files))[0] == 0
    (task_files / "capital.json").write_text(json.dumps(mc_document(correct=1)), encoding="utf-8")
    assert in_process("tasks", "import", "--overwrite", str(task_files / "capital.json")) == (
        0,
        f"UPDATED    capital  ({task_files / 'capital.json'})\n",
    )
    status, out = in_process("retest")
    assert status == 1
    assert "bern" in out and "WRONG 0/1" in out


def test_export_writes_files_that_import_unchanged(in_process, task_files, tmp_path):
    in_process("tasks", "import", str(task_files))
    assert in_process("tasks", "export", "--format", "yaml", str(tmp_path / "out"))[0] == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "capital.tests.yaml",
        "capital.yaml",
        "task.schema.json",
    ]
    status, out = in_process("tasks", "import", str(tmp_path / "out"))
    assert status == 0 and "UNCHANGED" in out
