"""The task's glossary in the web app's editor: a term added, saved and kept by the service."""

from __future__ import annotations

from nicegui.testing import User

from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW


async def test_a_glossary_term_is_added_in_the_editor_and_saved(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("Edit").click()
    await user.should_see(marker="glossary")
    user.find("Add term").click()
    await user.should_see(marker="glossary-term")
    user.find(marker="glossary-term").type("photosynthesis")
    user.find(marker="glossary-explanation").type("How a plant makes its food from light.")
    user.find("Save task").click()
    await user.should_see("Task updated", retries=SLOW)
    service = LocalService(harness.runtime, local_principal("default"))
    stored = (await service.get_task("default", "mc-photosynthesis-en")).definition
    assert [(e.term, e.explanation) for e in stored.glossary or []] == [
        ("photosynthesis", "How a plant makes its food from light.")
    ]


async def test_an_empty_glossary_row_is_reported_not_saved(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    user.find("Edit").click()
    user.find("Add term").click()
    await user.should_see(marker="glossary-term")
    user.find("Save task").click()
    await user.should_see("glossary › 1 › term", retries=SLOW)
