"""How the tutor's replies leave the server: the stream writes the events that are ready together
in one go, a run of MESSAGE events as one; POST /tutor/chat sends its headers with the whole
reply, while the stream has sent its first line before the model's first word."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from core.http import tls_context
from tests.core.tutor.helpers import chat_body, fake_llm, install_tutor, stream_chat
from tests.server.helpers import bearer
from tests.server.test_tutor_llm import TUTOR, llm_server


@pytest.fixture
async def client(live_server):
    token = await live_server.token("default")
    async with httpx.AsyncClient(
        verify=tls_context(), base_url=live_server.base_url, headers=bearer(token)
    ) as c:
        await install_tutor(c, TUTOR)
        yield c


async def test_a_planned_reply_is_one_message_event_a_message(client):
    streamed = await stream_chat(client, chat_body(TUTOR, "hi", "conv-w"))
    assert streamed.names == "MESSAGE BOUNDARY MESSAGE TRACE DONE "
    whole = await client.post("/tutor/chat", json=chat_body(TUTOR, "hi", "conv-w2"))
    assert streamed.messages == whole.json()["messages"]


async def test_the_whole_reply_call_answers_only_with_the_whole_reply(tmp_path):
    with fake_llm() as llm:
        llm.gate = threading.Event()
        async with llm_server(tmp_path, llm, "ok", first_text=10) as client:
            whole = asyncio.create_task(client.post("/tutor/chat", json=chat_body(TUTOR, "hi")))
            await asyncio.sleep(1.5)
            assert not whole.done()  # no status line, no headers while the model holds back
            llm.gate.set()
            response = await asyncio.wait_for(whole, 20)
    assert response.status_code == 200
    assert response.json()["messages"] == ["What have you tried so far?", "Tell me your first idea."]
