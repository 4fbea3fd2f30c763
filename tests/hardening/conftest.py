"""Servers for the hardening tests: in a thread with chosen settings, or as a real `serve` process.

The thread server shares the test's process (fast to start, its log lands in caplog); the process
server is what an operator runs, and the only kind that can be killed with SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.config import Settings
from core.http import tls_context
from tests.conftest import LiveServer, ServerThread, free_port
from tests.server.helpers import bearer

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def thread_server(database_url: str, **overrides: Any) -> Iterator[LiveServer]:
    """The API in uvicorn on 127.0.0.1 in a thread, on the given database and settings."""
    from core.server.app import create_app

    port = free_port()
    defaults = dict(seed_demo=False, port=port, public_base_url=f"http://127.0.0.1:{port}")
    settings = Settings(database_url=database_url, **{**defaults, **overrides})
    with ServerThread(create_app(settings), port):
        yield LiveServer(f"http://127.0.0.1:{port}", settings)


@pytest.fixture
def server(database_url) -> Iterator[LiveServer]:
    """A live server on SQLite and, where configured, on PostgreSQL (database_url's params)."""
    with thread_server(database_url) as live:
        yield live


@pytest.fixture
async def client(server) -> AsyncIterator[httpx.AsyncClient]:
    """A client with a token of every permission on the default tenant; room for 64 connections."""
    token = await server.token("default")
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=server.base_url, headers=bearer(token), limits=limits, timeout=60
    ) as c:
        yield c


class ServeProcess:
    """`feedback-studio serve` in a subprocess on one database and port; start, kill, start again."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.port = free_port(reserve=False)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "FEEDBACK_STUDIO_SEED_DEMO": "false", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"}
        command = [sys.executable, "-m", "core.cli", "serve", "--database", self.database_url]
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{self.base_url}/tutor/healthcheck", timeout=1, verify=tls_context())
                return
            except httpx.TransportError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"serve did not start: {self.process.stderr.read().decode()[-2000:]}"
                    ) from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed by the process itself."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
