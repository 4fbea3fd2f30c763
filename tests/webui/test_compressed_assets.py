"""NiceGUI's immutable assets are compressed once and the same bytes sent to every browser."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from webui.compressed_assets import DYNAMIC, IMMUTABLE, CompressedOnce

SCRIPT = "console.log('a script of NiceGUI');\n" * 200


def served() -> tuple[CompressedOnce, list[str]]:
    asked: list[str] = []

    async def asset(request):
        asked.append(request.url.path)
        return PlainTextResponse(SCRIPT)

    app = Starlette(routes=[Route("/{path:path}", asset)])
    return CompressedOnce(GZipMiddleware(app, minimum_size=500)), asked


async def test_an_asset_is_compressed_once_and_sent_alike() -> None:
    cached, asked = served()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(cached), base_url="http://studio") as client:
        first, second = [await client.get(f"{IMMUTABLE}static/nicegui.js") for _ in range(2)]
    assert asked == [f"{IMMUTABLE}static/nicegui.js"]  # the second never reached the app
    assert first.text == second.text == SCRIPT  # httpx unpacks the gzip of both
    assert second.headers["content-encoding"] == "gzip"
    assert int(second.headers["content-length"]) == int(first.headers["content-length"]) < len(SCRIPT) / 5


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        (f"{DYNAMIC}x.js", {}),  # not immutable
        ("/learn", {}),  # a page
        (f"{IMMUTABLE}static/nicegui.js", {"Accept-Encoding": "identity"}),  # no gzip
        (f"{IMMUTABLE}static/nicegui.js", {"Range": "bytes=0-9"}),
        (f"{IMMUTABLE}static/nicegui.js", {"If-None-Match": '"x"'}),
    ],
)
async def test_other_requests_pass_through(path: str, headers: dict[str, str]) -> None:
    cached, asked = served()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(cached), base_url="http://studio") as client:
        for _ in range(2):
            await client.get(path, headers=headers)
    assert asked == [path, path]
