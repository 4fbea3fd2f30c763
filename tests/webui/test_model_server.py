"""The tutor's model server in Settings: found on this machine, a model that fails the check not
saved (with the reason), one that answers saved and used by the embedded service."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from core.client import model_servers
from core.config import model_server_file
from tests.conftest import free_port
from tests.fake_model_server import BROKEN, GOOD, fake_model_server
from tests.webui import harness
from tests.webui.helpers import SLOW


async def test_a_local_server_is_found_and_only_a_model_that_answers_is_saved(
    user: User, monkeypatch
) -> None:
    with fake_model_server() as server:
        monkeypatch.setattr(
            model_servers, "LOCAL_SERVERS", (("Ollama", free_port()), ("llama.cpp", server.port))
        )
        await user.open("/settings")
        await user.should_see("No model server set")
        user.find("Find on this machine").click()
        await user.should_see("Found llama.cpp", retries=SLOW)
        [address] = user.find(marker="model-url").elements
        assert address.value == server.base_url
        [choice] = user.find(marker="model-choice").elements
        assert isinstance(choice, ui.select) and choice.options == [BROKEN, GOOD]

        with user:
            choice.value = BROKEN
        user.find("Check and save").click()
        await user.should_see("Not saved: The server at", retries=SLOW)
        await user.should_see("model failed to load")
        assert harness.runtime is not None and harness.runtime.settings.llm_base_url is None
        assert not model_server_file().exists()

        with user:
            choice.value = GOOD
        user.find("Check and save").click()
        await user.should_see(f"Saved: {GOOD} answered “OK”", retries=SLOW)
        assert (harness.runtime.settings.llm_base_url, harness.runtime.settings.llm_model) == (
            server.base_url,
            GOOD,
        )
        assert server.checks == [BROKEN, GOOD]


async def test_an_address_where_nothing_answers_is_reported(user: User) -> None:
    await user.open("/settings")
    with user:
        user.find(marker="model-url").elements.pop().value = f"127.0.0.1:{free_port()}"
    user.find("List models").click()
    await user.should_see("Nothing answers at", retries=SLOW)
