"""An idle keep-alive connection outlives the idle expiry of common clients (httpx: 5 s).

With uvicorn's default (5 s) the server closed such connections just as httpx reused them, and
the request on it was lost (a mixed load benchmark saw about one in a thousand fail with ReadError).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from tests.conftest import sqlite_url
from tests.hardening.conftest import ServeProcess

REQUEST = b"GET /docs HTTP/1.1\r\nHost: studio\r\n\r\n"


@pytest.fixture
def serve(tmp_path) -> Iterator[ServeProcess]:
    process = ServeProcess(sqlite_url(tmp_path))
    process.start()
    yield process
    process.stop()


def answered(connection: socket.socket) -> bool:
    connection.sendall(REQUEST)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:  # the server had closed the connection
            return False
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(
        next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[
            1
        ]
    )
    while len(body) < length:
        body += connection.recv(65536)
    return head.startswith(b"HTTP/1.1 200")


def test_a_connection_idle_for_six_seconds_is_still_served(serve):
    with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as connection:
        assert answered(connection)
        time.sleep(6)  # longer than httpx's keep-alive expiry, and uvicorn's default timeout
        assert answered(connection)
