"""A fake OpenAI-compatible model server on 127.0.0.1 (uvicorn, a real port) for the tests of
finding, listing and checking models: it lists two models, answers the check of one ("OK"), says
the other failed to load (500), and knows no third (404)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.conftest import ServerThread, free_port

GOOD, BROKEN = "llama3.2:1b", "broken-model"


@dataclass
class FakeModelServer:
    port: int
    checks: list[str] = field(default_factory=list)
    """The models the check asked, in order."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def app(server: FakeModelServer) -> Starlette:
    async def models(request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": BROKEN, "object": "model"}, {"id": GOOD}]})

    async def completions(request: Request) -> JSONResponse:
        model = (await request.json())["model"]
        server.checks.append(model)
        if model == GOOD:
            message = {"role": "assistant", "content": "OK"}
            return JSONResponse({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
        if model == BROKEN:
            return JSONResponse({"error": {"message": "model failed to load"}}, status_code=500)
        return JSONResponse({"error": f"model '{model}' not found"}, status_code=404)

    return Starlette(
        routes=[
            Route("/v1/models", models),
            Route("/v1/chat/completions", completions, methods=["POST"]),
        ]
    )


@contextmanager
def fake_model_server() -> Iterator[FakeModelServer]:
    server = FakeModelServer(free_port())
    with ServerThread(app(server), server.port):
        yield server
