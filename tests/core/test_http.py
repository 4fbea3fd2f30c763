"""The one TLS context of the process: built once, and still verifying what it talks to."""

from __future__ import annotations

import ssl

from core.http import tls_context
from core.service.remote import RemoteService


async def test_every_remote_client_shares_one_verifying_context() -> None:
    services = [
        RemoteService("https://a.example", token=None),
        RemoteService("https://b.example", token=None),
    ]
    try:
        # httpx keeps the context in its connection pool; a client built without it makes its own
        assert {id(s._client._transport._pool._ssl_context) for s in services} == {id(tls_context())}
        assert tls_context().verify_mode is ssl.CERT_REQUIRED and tls_context().check_hostname
    finally:
        for service in services:
            await service.aclose()
