"""The baseline of bench/realistic.py: a bare FastAPI app that echoes any JSON body on any path.

Every benchmark row sends the echo the same requests (methods, paths, bodies) as the studio, so
that the ratio compares the work behind the routes and not the sizes of the bodies.
"""

from typing import Any

from fastapi import FastAPI

app = FastAPI()


@app.api_route("/{path:path}", methods=["POST", "PUT"])
async def echo(body: dict[str, Any]) -> dict[str, Any]:
    return body
