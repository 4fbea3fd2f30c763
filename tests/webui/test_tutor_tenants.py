"""The web app's chats name the tenant of their tutor: each tenant names its own tutors, so a
token on several tenants would otherwise be answered by its default tenant's tutor of that id."""

from __future__ import annotations

import httpx
from nicegui import ui
from nicegui.testing import User
from sqlalchemy import Connection, select

from core.auth import ALL_PERMISSIONS, new_token
from core.http import tls_context
from core.store import models as m
from core.store import principals
from core.store.db import Database
from tests.core.tutor.helpers import demo_task, demo_tutor
from tests.server.helpers import bearer
from tests.webui import harness
from tests.webui.helpers import SLOW

TUTOR = "tutor-bulb-circuit-en"
B_GREETING = "Tenant B's tutor speaking: what do you know about circuits?"


async def teacher_of_two_tenants(database_url: str) -> str:
    """A token whose principal works in "default" (its default tenant) and in "tenB"."""
    token = new_token("fs")
    db = Database(database_url)
    try:

        def create(connection: Connection) -> None:
            teacher = principals.create_principal(connection, "teacher", "default", ALL_PERMISSIONS, token)
            principals.grant(connection, teacher, "tenB", ALL_PERMISSIONS)

        await db.run_write(create)
    finally:
        await db.aclose()
    return token


async def give_tenant_b_its_own_tutor(base_url: str, token: str) -> None:
    """Tenant B gets the demo task and a tutor under the demo tutor's id ("default" has the demo one)."""
    async with httpx.AsyncClient(verify=tls_context(), base_url=base_url, headers=bearer(token)) as api:
        task = demo_task("ff-bulb-circuit-en")
        assert (await api.post("/tenants/tenB/tasks", json=task)).status_code == 200
        body = {**demo_tutor(TUTOR), "initial_messages": [B_GREETING]}
        assert (await api.put(f"/tenants/tenB/tutors/{TUTOR}", json=body)).status_code == 200


async def connect_to(user: User, base_url: str, token: str) -> None:
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type(base_url)
    user.find("Bearer token").type(token)
    user.find("Save and check").click()
    await user.should_see(f"Service: OK ({base_url})", retries=SLOW)


async def chats_by_tenant(database_url: str) -> dict[str, list[str]]:
    """The learner's messages stored in each tenant, over all its conversations."""
    db = Database(database_url)
    try:
        query = (
            select(m.ConversationMessage.tenant_id, m.ConversationMessage.content)
            .where(m.ConversationMessage.role == "user")
            .order_by(m.ConversationMessage.id)
        )
        said: dict[str, list[str]] = {}
        for tenant, content in await db.run_read(lambda c: c.execute(query).all()):
            said.setdefault(tenant, []).append(content)
        return said
    finally:
        await db.aclose()


async def test_the_learner_page_of_a_tenant_chats_with_that_tenants_tutor(user: User, live_server) -> None:
    database_url = live_server.settings.database_url
    token = await teacher_of_two_tenants(database_url)
    await give_tenant_b_its_own_tutor(live_server.base_url, token)
    await connect_to(user, live_server.base_url, token)

    await user.open("/learn/tenB/ff-bulb-circuit-en")
    await user.should_see(B_GREETING, retries=SLOW)
    user.find(marker="chat-input").type("Does the bulb need both wires?").trigger("keydown.enter")
    await user.should_see(marker="thumb-up", retries=SLOW)  # the reply's trace: the turn is stored

    # The token's default tenant has a tutor of this id too; the page's tenant is B, and so is the chat.
    assert await chats_by_tenant(database_url) == {"tenB": ["Does the bulb need both wires?"]}


async def test_the_tutor_page_names_its_tenant_in_every_chat(user: User) -> None:
    await user.open("/tutor")
    await user.should_see(ui.chat_message)
    user.find(marker="chat-input").type("Hello")
    user.find(marker="send").click()
    await user.should_see(marker="thumb-up", retries=SLOW)
    assert harness.runtime is not None
    [request] = await harness.runtime.db.run_read(
        lambda c: c.execute(select(m.Trace.request)).scalars().all()
    )
    assert request["context"]["tenantId"] == "default"
