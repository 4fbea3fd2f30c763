"""A remote that hangs: `feedback-studio serve` in a process of its own, stopped with SIGSTOP.

A stopped process is not a dead one: the kernel still accepts connections on its port, and then
nothing answers. That is the remote the web app must not wait for.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from core.http import tls_context
from tests.conftest import create_token, free_port, migrated_sqlite_url

ROOT = Path(__file__).resolve().parents[2]


class HungRemote:
    def __init__(self, process: subprocess.Popen[bytes], base_url: str, token: str) -> None:
        self.process, self.base_url, self.token = process, base_url, token

    def stop(self) -> None:
        """SIGSTOP: the process keeps its port and answers nothing."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    @contextmanager
    def hung(self) -> Iterator[None]:
        self.stop()
        try:
            yield
        finally:
            self.resume()


@contextmanager
def serve_process(tmp_path: Path) -> Iterator[HungRemote]:
    """A running `feedback-studio serve` with the demo tasks and a token of every permission."""
    database_url = migrated_sqlite_url(tmp_path)
    token = asyncio.run(create_token(database_url, "default", name="remote-teacher"))
    port = free_port(reserve=False)
    env = {**os.environ, "FEEDBACK_STUDIO_SEED_DEMO": "true", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"}
    command = [sys.executable, "-m", "core.cli", "serve", "--database", database_url, "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base_url}/tutor/healthcheck", timeout=1, verify=tls_context())
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    assert process.stderr is not None
                    raise RuntimeError(
                        f"serve did not start: {process.stderr.read().decode()[-2000:]}"
                    ) from None
                time.sleep(0.1)
        # the first judgement or chat waits for the text models: loaded now, not in a timed test
        for path in ("/tutor/healthcheck/chat", "/tutor/healthcheck"):
            httpx.get(f"{base_url}{path}", timeout=60, verify=tls_context())
        yield HungRemote(process, base_url, token)
    finally:
        process.send_signal(signal.SIGCONT)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
