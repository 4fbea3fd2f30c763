"""Rules of tutor configurations: each tenant names its own tutors and conversations, the ids the
server makes are reserved, and an engine that cannot work is refused when the tutor is saved, not
at every chat."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from core.api import (
    ChatContext,
    ChatMessage,
    ChatRequest,
    InvalidParameter,
    MissingPermissions,
    NotFound,
    StartSimulationRequest,
    TutorUpsert,
)
from core.auth import ALL_PERMISSIONS, Principal, local_principal
from core.service.local import LocalService
from core.store import conversations, principals
from core.store import models as m
from tests.contract.builders import simulation_task


async def tenants(runtime, *names: str) -> None:
    for name in names:
        await runtime.db.run_write(lambda c, name=name: principals.ensure_tenant(c, name))


@pytest.fixture
async def intruder(runtime) -> LocalService:
    await tenants(runtime, "tenB")
    return LocalService(runtime, local_principal("tenB"))


def chat(
    tutor_id: str, conversation_id: str | None = None, tenant: str | None = None, text: str = "Hello"
) -> ChatRequest:
    return ChatRequest(
        messages=[ChatMessage(role="user", content=text)],
        tutorId=tutor_id,
        conversationId=conversation_id,
        context=ChatContext(tenantId=tenant) if tenant else None,
    )


async def conversation_tenant(runtime, conversation_id: str) -> str:
    """The one tenant that holds a conversation of this id."""
    query = select(m.Conversation.tenant_id).where(m.Conversation.id == conversation_id)
    (tenant,) = await runtime.db.run_read(lambda c: c.execute(query).scalars().all())
    return tenant


async def test_two_tenants_each_have_their_own_tutor_under_one_id(runtime, service, intruder):
    await service.put_tutor("default", "coach", TutorUpsert(name="A's coach", description="A's plan"))
    await intruder.put_tutor("tenB", "coach", TutorUpsert(name="B's coach"))
    assert (await service.get_tutor("coach")).name == "A's coach"
    assert (await intruder.get_tutor("coach")).name == "B's coach"
    assert [t.name for t in await intruder.list_tutors("tenB")] == ["B's coach"]

    await intruder.chat(chat("coach", "conv-b"))
    await service.chat(chat("coach", "conv-a"))
    assert await conversation_tenant(runtime, "conv-b") == "tenB"
    assert await conversation_tenant(runtime, "conv-a") == "default"


async def test_another_tenants_tutor_is_neither_read_nor_chatted_with(service, intruder):
    await service.put_tutor("default", "coach", TutorUpsert(name="A's coach", description="A's plan"))
    with pytest.raises(MissingPermissions) as refused:
        await intruder.get_tutor("coach")
    assert "A's" not in refused.value.message and "default" not in refused.value.message
    with pytest.raises(MissingPermissions):
        await intruder.get_tutor("coach", "default")
    with pytest.raises(MissingPermissions):
        await intruder.chat(chat("coach"))


async def test_a_caller_of_several_tenants_gets_the_default_tenants_tutor_or_names_the_tenant(runtime):
    await tenants(runtime, "tenB", "tenC")
    grants = dict.fromkeys(["default", "tenB", "tenC"], ALL_PERMISSIONS)
    teacher = LocalService(runtime, Principal("teacher", "teacher", "default", grants))
    await teacher.put_tutor("tenB", "coach", TutorUpsert(name="B"))
    assert (await teacher.get_tutor("coach")).name == "B"  # the one tenant of the caller that has it
    await teacher.put_tutor("tenC", "coach", TutorUpsert(name="C"))
    with pytest.raises(InvalidParameter, match="name one"):
        await teacher.get_tutor("coach")
    with pytest.raises(InvalidParameter, match="name one"):
        await teacher.chat(chat("coach"))
    assert (await teacher.get_tutor("coach", "tenC")).name == "C"
    reply = await teacher.chat(chat("coach", "conv-c", tenant="tenC"))
    assert reply.traceId
    assert await conversation_tenant(runtime, "conv-c") == "tenC"
    await teacher.put_tutor("default", "coach", TutorUpsert(name="Default"))
    assert (await teacher.get_tutor("coach")).name == "Default"


async def learner_said(runtime, tenant: str, conversation_id: str) -> list[str]:
    rows = await runtime.db.run_read(lambda c: conversations.read_messages(c, tenant, conversation_id))
    return [r.content for r in rows if r.role == "user"]


async def test_two_tenants_each_hold_their_own_conversation_under_one_id(runtime, service, intruder):
    await service.put_tutor("default", "coach", TutorUpsert(name="A's coach"))
    await intruder.put_tutor("tenB", "coach", TutorUpsert(name="B's coach"))
    await intruder.put_tutor("tenB", "other-coach", TutorUpsert(name="B's other coach"))
    await intruder.chat(chat("coach", "conv-1", text="B's first"))
    await service.chat(chat("coach", "conv-1", text="A's first"))  # B's id does not stop A
    await intruder.chat(chat("coach", "conv-1", text="B's second"))
    assert await learner_said(runtime, "tenB", "conv-1") == ["B's first", "B's second"]
    assert await learner_said(runtime, "default", "conv-1") == ["A's first"]
    # Within a tenant a conversation still has one tutor.
    with pytest.raises(InvalidParameter, match="held with tutor 'coach'"):
        await intruder.chat(chat("other-coach", "conv-1"))


async def test_a_caller_of_several_tenants_goes_on_with_a_conversation_in_its_tenant(runtime):
    await tenants(runtime, "tenB", "tenC")
    grants = dict.fromkeys(["default", "tenB", "tenC"], ALL_PERMISSIONS)
    teacher = LocalService(runtime, Principal("teacher", "teacher", "default", grants))
    for tenant in ("tenB", "tenC"):
        await teacher.put_tutor(tenant, "coach", TutorUpsert(name=tenant))
    await teacher.chat(chat("coach", "conv-c", tenant="tenC", text="first"))
    await teacher.chat(chat("coach", "conv-c", text="second"))  # the one of its tenants that holds it
    assert await learner_said(runtime, "tenC", "conv-c") == ["first", "second"]
    with pytest.raises(InvalidParameter, match="name one"):
        await teacher.chat(chat("coach", "conv-new"))


async def test_the_server_reserves_the_ids_of_simulation_sessions(runtime, service, intruder):
    with pytest.raises(InvalidParameter, match="reserved for the server"):
        await intruder.put_tutor("tenB", "sim:sim-1", TutorUpsert(name="Shadow"))
    await service.put_tutor("default", "coach", TutorUpsert(name="Coach"))
    with pytest.raises(NotFound, match="simulation session"):
        await service.chat(chat("coach", "sim:guessed"))  # a chat never makes a session
    assert await runtime.db.run_read(lambda c: c.execute(select(m.Conversation)).all()) == []


async def test_a_simulation_scenario_stays_in_its_tenant(service, intruder):
    task = simulation_task()
    session = await service.start_simulation(StartSimulationRequest(simulationTask=task, tenantId="default"))
    assert session.tutorId == "sim:sim-1"
    assert session.conversationId.startswith("sim:")
    with pytest.raises(MissingPermissions) as refused:
        await intruder.get_tutor(session.tutorId)
    assert task.scenarioDescription not in refused.value.message
    with pytest.raises(MissingPermissions):
        await intruder.chat(chat(session.tutorId, session.conversationId))
    # Tenant B's own simulation of a task with the same id makes B's tutor and leaves A's alone.
    theirs = simulation_task().model_copy(update={"scenarioDescription": "B's scenario"})
    await intruder.start_simulation(StartSimulationRequest(simulationTask=theirs, tenantId="tenB"))
    assert (await intruder.get_tutor("sim:sim-1")).description == "B's scenario"
    assert (await service.get_tutor("sim:sim-1")).description == task.scenarioDescription


async def test_a_tutor_on_the_llm_engine_is_refused_while_no_model_server_is_configured(service):
    with pytest.raises(InvalidParameter, match="needs a model server"):
        await service.put_tutor("default", "t-llm", TutorUpsert(name="Chatty", engine="llm"))
    assert "t-llm" not in {t.id for t in await service.list_tutors("default")}
