"""The tutor's model server on the connection screen: found on this machine, its models listed,
a model that fails the check not saved (with the reason), one that answers saved and used."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Input, Select

from core.client import model_servers
from core.config import model_server_file
from tests.conftest import free_port
from tests.fake_model_server import BROKEN, GOOD, fake_model_server
from tests.tui.helpers import text_of, wait_until
from tui.screens.connection import ConnectionScreen


@pytest.fixture(autouse=True)
def own_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def test_a_local_server_is_found_and_only_a_model_that_answers_is_saved(pilot, studio, monkeypatch):
    app = pilot.app
    with fake_model_server() as server:
        monkeypatch.setattr(
            model_servers, "LOCAL_SERVERS", (("Ollama", free_port()), ("LM Studio", server.port))
        )
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        screen = app.screen
        status = screen.query_one("#model-status")
        await wait_until(pilot, lambda: text_of(status).startswith("No model server set"))
        screen.query_one("#find-models", Button).press()
        await wait_until(pilot, lambda: text_of(status).startswith("Found LM Studio"))
        assert screen.query_one("#model-url", Input).value == server.base_url
        choice = screen.query_one("#model-choice", Select)
        assert [value for _, value in choice._options if isinstance(value, str)] == [BROKEN, GOOD]

        choice.value = BROKEN
        screen.query_one("#save-model", Button).press()
        await wait_until(pilot, lambda: text_of(status).startswith("✘ Not saved"))
        assert "answered 500: model failed to load" in text_of(status)
        assert studio.runtime.settings.llm_base_url is None and not model_server_file().exists()

        choice.value = GOOD
        screen.query_one("#save-model", Button).press()
        await wait_until(pilot, lambda: text_of(status).startswith("✔ Saved"))
        assert server.checks == [BROKEN, GOOD]
        settings = studio.runtime.settings
        assert (settings.llm_base_url, settings.llm_model) == (server.base_url, GOOD)
        assert model_server_file().exists()


async def test_models_of_a_typed_address_are_listed_and_a_dead_one_is_reported(pilot):
    app = pilot.app
    with fake_model_server() as server:
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, ConnectionScreen))
        screen = app.screen
        status = screen.query_one("#model-status")
        screen.query_one("#model-url", Input).value = f"127.0.0.1:{server.port}"
        screen.query_one("#list-models", Button).press()
        await wait_until(pilot, lambda: text_of(status).startswith("2 models at"))
        screen.query_one("#model-url", Input).value = f"127.0.0.1:{free_port()}"
        screen.query_one("#list-models", Button).press()
        await wait_until(pilot, lambda: text_of(status).startswith("✘ Nothing answers"))
