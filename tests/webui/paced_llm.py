"""An OpenAI-compatible chat-completions server that streams its reply a word at a time, slowly.

The browser tests watch a reply grow in its bubble; the offline tutor computes a reply at once, so
they talk to the LLM engine and this server instead, whose pauses make every piece visible.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from tests.conftest import ServerThread, free_port

REPLY = "Good question! What happens to the current when the circuit is open?\n\nTry to trace its path."


def _chunk(text: str) -> str:
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]}) + "\n\n"


async def _completions(request: Request) -> StreamingResponse:
    await request.json()

    async def words() -> AsyncIterator[str]:
        for word in REPLY.split(" "):
            yield _chunk(word + " ")
            await asyncio.sleep(0.06)
        yield "data: [DONE]\n\n"

    return StreamingResponse(words(), media_type="text/event-stream")


@contextmanager
def paced_llm() -> Iterator[str]:
    """The base URL of a running server (its /chat/completions streams REPLY)."""
    port = free_port()
    with ServerThread(
        Starlette(routes=[Route("/v1/chat/completions", _completions, methods=["POST"])]), port
    ):
        yield f"http://127.0.0.1:{port}/v1"
