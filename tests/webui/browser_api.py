"""The API of the web server under test, as the browser journeys read what they stored through it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx

from core.http import tls_context
from tests.conftest import create_token
from tests.webui.conftest import WebServer


def api_client(web_server: WebServer) -> httpx.Client:
    """A client with a new token of every permission on the default tenant."""
    with ThreadPoolExecutor(1) as thread:  # a journey runs inside Playwright's event loop
        token = thread.submit(asyncio.run, create_token(web_server.settings.database_url, "default")).result()
    return httpx.Client(
        verify=tls_context(), base_url=web_server.base_url, headers={"Authorization": f"Bearer {token}"}
    )


def interactions(web_server: WebServer, task_id: str) -> list[dict]:
    """The task's stored interactions, newest first."""
    with api_client(web_server) as api:
        response = api.get(f"/tenants/default/tasks/{task_id}/interactions")
        response.raise_for_status()
        return response.json()
