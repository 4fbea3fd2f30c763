"""Shared pieces of the HTTP benchmarks: servers in their own process, a load loop, a table.

The load generator and the server run in separate processes so that the client's own work does
not count against the server; every comparison is measured in the same run on the same machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parent.parent


def bench_headers(database: str) -> dict[str, str]:
    """Authorization headers of a new principal that may write to tenant "default" of `database`."""
    token = subprocess.run(
        [
            sys.executable,
            "-m",
            "core.cli",
            "token",
            "create",
            "--name",
            "bench",
            "--tenant",
            "default",
            "--permission",
            "write",
            "--database",
            database,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "FEEDBACK_STUDIO_SEED_DEMO": "false", "FEEDBACK_STUDIO_LOG_LEVEL": "WARNING"},
    ).stdout.strip()
    return {"Authorization": f"Bearer {token}"}


def free_ports(count: int) -> list[int]:
    """Distinct free ports of 127.0.0.1, for servers in other processes, which bind them themselves.
    They are found while all are bound: one at a time, the kernel may hand out the same port twice."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]


def free_port() -> int:
    return free_ports(1)[0]


@contextmanager
def server_process(
    args: list[str], port: int, env: dict[str, str] | None = None, log: Path | None = None
) -> Iterator[str]:
    """Start a server command in its own process and wait until it answers on 127.0.0.1:port.

    Its stderr goes to a file (`log`, else a temporary one), not a pipe: a server that logs more
    than a pipe holds would block.
    """
    with open(log, "w+b") if log is not None else tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            args, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=log
        )
        base_url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base_url}/docs", timeout=1)
                    break
                except httpx.TransportError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        raise RuntimeError(f"server did not start: {log.read().decode()[-2000:]}") from None
                    time.sleep(0.1)
            yield base_url
        finally:
            process.terminate()
            process.wait(timeout=10)


@contextmanager
def server_log() -> Iterator[Path]:
    """In-process benches: the server's log lines (access log at INFO) through `serve`'s own
    handler into a file of their own, as a served process writes them to its standard error."""
    import logging

    from core.server.log_output import server_handler

    with tempfile.TemporaryDirectory() as directory, open(Path(directory) / "server.log", "w") as stream:
        handler = server_handler(stream)
        logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
        try:
            yield Path(directory) / "server.log"
        finally:
            handler.flush()
            logging.getLogger().removeHandler(handler)


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new PostgreSQL database on the server of admin_url, dropped afterwards."""
    plain = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"fs_bench_{uuid.uuid4().hex[:10]}"

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(plain)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@dataclass
class LoadResult:
    name: str
    concurrency: int
    requests: int
    seconds: float
    latencies_ms: list[float]
    errors: int

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run_load(
    name: str,
    call: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
    base_url: str,
    concurrency: int,
    requests: int,
    warmup: int = 50,
    headers: dict[str, str] | None = None,
    seconds: float | None = None,
) -> LoadResult:
    """`requests` calls spread over `concurrency` workers, each on its own keep-alive connection.

    With `seconds`, the workers call for that long instead of until `requests` calls are made.
    """
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, headers=headers, limits=limits, timeout=30) as client:
        for _ in range(warmup):
            await call(client)
        latencies: list[float] = []
        errors = 0
        remaining = requests
        deadline = None if seconds is None else time.perf_counter() + seconds

        async def worker() -> None:
            nonlocal remaining, errors
            while remaining > 0 if deadline is None else time.perf_counter() < deadline:
                remaining -= 1
                start = time.perf_counter()
                response = await call(client)
                latencies.append((time.perf_counter() - start) * 1000)
                errors += response.status_code != 200

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return LoadResult(name, concurrency, len(latencies), elapsed, latencies, errors)


@dataclass
class WrkResult:
    """What wrk reports: the same columns as LoadResult, percentiles computed by wrk itself."""

    name: str
    concurrency: int
    requests: int
    seconds: float
    percentiles_ms: dict[int, float]
    errors: int

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        return self.percentiles_ms[int(p)]


WRK_REPORT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %f %f %f %d\\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout + e.status))
end
"""


def have_wrk() -> bool:
    return shutil.which("wrk") is not None


Request = tuple[str, str, dict]
"""(method, path, JSON body) of one request."""


def wrk_script(requests: list[Request], headers: dict[str, str]) -> str:
    """A wrk script that sends `requests` in turn (each thread from its own place in the list)."""
    all_headers = {"Content-Type": "application/json", **headers}
    entries = []
    for method, path, body in requests:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        if "]==]" in text:
            raise ValueError("a body must not contain ]==] (it closes the Lua string)")
        entries.append(f"{{{json.dumps(method)}, {json.dumps(path)}, [==[{text}]==]}}")
    lua_headers = ", ".join(f"[{json.dumps(k)}] = {json.dumps(v)}" for k, v in all_headers.items())
    return (
        "local requests = {\n" + ",\n".join(entries) + "\n}\n"
        f"local headers = {{{lua_headers}}}\n"
        "local threads = 0\n"
        "setup = function(thread) thread:set('offset', threads * 7919); threads = threads + 1 end\n"
        "init = function(args) i = offset or 0 end\n"
        "request = function()\n"
        "  i = i % #requests + 1\n"
        "  local r = requests[i]\n"
        "  return wrk.format(r[1], r[2], headers, r[3])\n"
        "end\n" + WRK_REPORT
    )


def run_wrk(
    name: str,
    base_url: str,
    requests: list[Request],
    headers: dict[str, str],
    concurrency: int,
    seconds: float,
) -> WrkResult:
    """Send `requests` in turn to `base_url` for `seconds` with `concurrency` connections, measured by
    wrk (a C load generator: unlike a Python client it leaves the CPU to the server it measures).
    A response that is not 2xx or 3xx counts as an error."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(wrk_script(requests, headers))
    threads = min(concurrency, 2)
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{concurrency}", f"-d{seconds}s", "-s", script.name, base_url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    Path(script.name).unlink()
    requests_done, duration, p50, p99, errors = output.split("RESULT", 1)[1].split()
    return WrkResult(
        name, concurrency, int(requests_done), float(duration), {50: float(p50), 99: float(p99)}, int(errors)
    )


def table(results: list[LoadResult | WrkResult]) -> str:
    header = (
        f"| {'endpoint':<34} | {'conc.':>5} | {'req/s':>8} | {'p50 ms':>7} | {'p99 ms':>7} | {'errors':>6} |"
    )
    rule = "|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|"
    rows = [
        f"| {r.name:<34} | {r.concurrency:>5} | {r.throughput:>8.0f} | {r.percentile(50):>7.2f} | "
        f"{r.percentile(99):>7.2f} | {r.errors:>6} |"
        for r in results
    ]
    return "\n".join([header, rule, *rows])


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    return f"{platform.node()}: {os.cpu_count()} CPUs ({cpu}), Python {sys.version.split()[0]}, {platform.platform()}"


def median(values: list[float]) -> float:
    return statistics.median(values)
