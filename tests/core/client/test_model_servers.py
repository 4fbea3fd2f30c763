"""Model servers for the tutor: listed, found on this machine's usual ports, and a chosen model
checked with one short request before it is saved; against a fake server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from core.client import model_servers
from core.client.model_servers import (
    ModelServerError,
    base_url_of,
    check_and_save,
    current_choice,
    find_local,
    list_models,
)
from core.config import Settings, model_server_file
from tests.conftest import free_port
from tests.fake_model_server import BROKEN, GOOD, fake_model_server


@pytest.fixture(autouse=True)
def own_data_directory(tmp_path, monkeypatch):
    """Where the saved model server's file goes: this test's own folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def server():
    with fake_model_server() as running:
        yield running


async def test_the_models_of_a_server_are_listed_by_name(server):
    assert await list_models(server.base_url) == [BROKEN, GOOD]


async def test_a_server_on_a_usual_port_is_found_and_closed_ports_are_not(server, monkeypatch):
    closed = free_port()
    monkeypatch.setattr(model_servers, "LOCAL_SERVERS", (("Ollama", closed), ("llama.cpp", server.port)))
    [found] = await find_local()
    assert (found.name, found.base_url, found.models) == ("llama.cpp", server.base_url, (BROKEN, GOOD))


async def test_nothing_found_when_no_port_answers(monkeypatch):
    monkeypatch.setattr(model_servers, "LOCAL_SERVERS", (("Ollama", free_port()),))
    assert await find_local() == []


async def test_an_address_without_a_server_says_so():
    with pytest.raises(ModelServerError, match=r"Nothing answers at http://127\.0\.0\.1:"):
        await list_models(f"http://127.0.0.1:{free_port()}/v1")


def test_an_address_is_read_as_a_teacher_types_it():
    assert base_url_of("localhost:11434") == "http://localhost:11434/v1"
    assert base_url_of(" http://127.0.0.1:8080/ ") == "http://127.0.0.1:8080/v1"
    assert base_url_of("https://models.example.org/openai/v1") == "https://models.example.org/openai/v1"
    with pytest.raises(ModelServerError):
        base_url_of("ftp://example.org")


async def test_a_model_that_answers_is_saved_for_now_and_the_next_start(server, service):
    settings = service.runtime.settings
    assert await check_and_save(service, f"127.0.0.1:{server.port}", GOOD) == "OK"
    assert server.checks == [GOOD]
    assert (settings.llm_base_url, settings.llm_model) == (server.base_url, GOOD)
    assert current_choice(service).model == GOOD
    saved = json.loads(model_server_file().read_text())
    assert saved == {"llm_base_url": server.base_url, "llm_model": GOOD}
    assert (Settings().llm_base_url, Settings().llm_model) == (server.base_url, GOOD)


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (BROKEN, "answered 500: model failed to load"),
        ("no-such-model", "has no model 'no-such-model'"),
    ],
)
async def test_a_model_that_fails_the_check_is_not_saved_and_says_why(server, service, model, message):
    settings = service.runtime.settings
    before = (settings.llm_base_url, settings.llm_model)
    with pytest.raises(ModelServerError, match=message):
        await check_and_save(service, server.base_url, model)
    assert (settings.llm_base_url, settings.llm_model) == before
    assert not model_server_file().exists()
