"""The `feedback-studio` command, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from core.http import tls_context
from tests.conftest import ServerThread, free_port

pytestmark = pytest.mark.process


def run_cli(*args: str, database: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", *args, "--database", database],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_token_create_prints_a_working_token_alone(tmp_path):
    database = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    created = run_cli(
        "token", "create", "--name", "ci", "--tenant", "school", "--permission", "write", database=database
    )
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip()
    assert token.startswith("fs_") and "\n" not in token

    from core.config import Settings
    from core.server.app import create_app

    port = free_port()
    with ServerThread(create_app(Settings(database_url=database, seed_demo=False)), port):
        headers = {"Authorization": f"Bearer {token}"}
        listing = httpx.get(
            f"http://127.0.0.1:{port}/tenants/school/tasks", headers=headers, verify=tls_context()
        )
        other = httpx.get(
            f"http://127.0.0.1:{port}/tenants/default/tasks", headers=headers, verify=tls_context()
        )
    assert listing.status_code == 200
    assert other.status_code == 403


def test_seed_demo_and_webhook_create(tmp_path):
    database = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    seeded = run_cli("seed-demo", "--tenant", "demo", database=database)
    assert seeded.returncode == 0, seeded.stderr
    assert "seeded" in seeded.stdout
    hook = run_cli("webhook", "create", "--tenant", "demo", database=database)
    assert hook.stdout.strip().startswith("wh_")


def test_unknown_permission_is_a_usage_error(tmp_path):
    database = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    result = run_cli(
        "token", "create", "--name", "x", "--tenant", "t", "--permission", "admin", database=database
    )
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_tasks_import_over_a_different_stored_task_needs_overwrite(tmp_path):
    """The second import of an edited file names what would change and imports nothing;
    --overwrite replaces it."""
    database = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    path = tmp_path / "why.json"

    def write(title: str) -> None:
        path.write_text(
            f'{{"id": "why", "type": "FreeformTextTask", "title": "{title}", "problemStatement": "Why?"}}',
            encoding="utf-8",
        )

    write("Why")
    assert run_cli("tasks", "import", str(path), database=database).returncode == 0
    write("Why it lights")
    refused = run_cli("tasks", "import", str(path), database=database)
    assert refused.returncode == 2
    assert "REPLACES   why  (version 1: title)" in refused.stdout
    assert "nothing was imported" in refused.stderr and "--overwrite" in refused.stderr
    replaced = run_cli("tasks", "import", str(path), "--overwrite", database=database)
    assert replaced.returncode == 0, replaced.stderr
    assert replaced.stdout.startswith("UPDATED    why")
