"""The access log: one structured line per request, at INFO, with what the client got."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx

from core.http import tls_context
from core.server.log_output import LOG_FORMAT, LogFormatter
from tests.server.helpers import bearer, compute_body, mc_task

ACCESS = "feedback_studio.access"


async def access_lines(caplog, count: int) -> list[dict]:
    """The access lines logged so far, once there are `count` (a line is written as its response
    ends, in the server's thread, so it may come just after the client has the response)."""
    for _ in range(500):
        lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == ACCESS]
        if len(lines) >= count:
            return lines
        await asyncio.sleep(0.01)
    return lines


async def test_every_request_gets_one_json_line_at_info(live_server, caplog):
    token = await live_server.token("default")
    caplog.set_level(logging.INFO, logger=ACCESS)
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as client:
        computed = await client.post("/feedback/compute", json=compute_body(mc_task(), {"selectedIndex": 0}))
        refused = await client.post("/feedback/compute", json={"userId": "u"})
        unknown = await client.get("/no/such/path")
    assert [r.status_code for r in (computed, refused, unknown)] == [200, 400, 404]

    lines = await access_lines(caplog, 3)
    assert [(line["method"], line["path"], line["status"]) for line in lines] == [
        ("POST", "/feedback/compute", 200),
        ("POST", "/feedback/compute", 400),
        ("GET", "/no/such/path", 404),
    ]
    assert lines[0]["interactionId"] == computed.headers["X-Interaction-Id"]
    assert "interactionId" not in lines[1]
    assert all(line["ms"] >= 0 and line["client"] == "127.0.0.1" for line in lines)
    assert all(r.levelno == logging.INFO for r in caplog.records if r.name == ACCESS)


async def test_no_line_while_the_level_drops_info(live_server, caplog):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as client:
        caplog.set_level(logging.WARNING, logger=ACCESS)
        assert (await client.get("/tutor/healthcheck")).status_code == 200
        caplog.set_level(logging.INFO, logger=ACCESS)
        assert (await client.get("/studio/info")).status_code == 200
    assert [line["path"] for line in await access_lines(caplog, 1)] == ["/studio/info"]


def test_a_line_is_json_whatever_the_path_holds():
    from core.server.access_log import access_line

    for path in ['/tasks/"quoted"/x', "/tasks/back\\slash", "/tasks/Übung 1/😀", "/a\x00b\x7f\n"]:
        line = access_line("GET", path, 404, 1.5, None, None)
        assert json.loads(line) == {"method": "GET", "path": path, "status": 404, "ms": 1.5, "client": None}
    line = access_line("POST", "/feedback/compute", 200, 0.25, "::1", b"0192-abc")
    assert json.loads(line)["interactionId"] == "0192-abc" and json.loads(line)["client"] == "::1"


def test_log_lines_carry_the_time_as_the_logging_module_writes_it():
    """The server's formatter remembers the second's text; a line reads as logging's own would,
    within a second, across seconds and at any milliseconds."""
    ours, theirs = LogFormatter(), logging.Formatter(LOG_FORMAT)
    for created in (1_700_000_000.0, 1_700_000_000.999, 1_700_000_001.5, 1_700_000_000.25, 1_800_000_000.042):
        record = logging.makeLogRecord(
            {"name": ACCESS, "levelno": logging.INFO, "levelname": "INFO", "msg": "{}"}
        )
        record.created, record.msecs = created, (created - int(created)) * 1000
        assert ours.format(record) == theirs.format(record)
