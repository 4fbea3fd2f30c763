"""The baseline of bench/throughput.py: a bare FastAPI endpoint that echoes a JSON body."""

from typing import Any

from fastapi import FastAPI

app = FastAPI()


@app.post("/echo")
async def echo(body: dict[str, Any]) -> dict[str, Any]:
    return body
