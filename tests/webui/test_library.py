"""Journeys of the library page: see the tasks, filter them, duplicate, delete, import, export."""

from __future__ import annotations

import asyncio
import json

import pytest
import yaml
from nicegui import ui
from nicegui.elements.upload_files import SmallFileUpload
from nicegui.testing import User

from core.api import ChoiceOption, MultipleChoiceTask
from core.assets import demo_tasks
from core.auth import local_principal
from core.service.local import LocalService
from tests.webui import harness
from tests.webui.helpers import SLOW, count, eventually
from webui.components.task_types import type_label

DEMO = len(demo_tasks())
OPTIONS = [ChoiceOption(content="A", correct=True), ChoiceOption(content="B")]
CHOICE = sum(t["type"] == "MultipleChoiceTask" for t in demo_tasks())


async def test_the_library_shows_the_tasks_with_their_type_and_language(user: User) -> None:
    await user.open("/")
    await user.should_see("The water cycle")
    await user.should_see("Fill in the blanks")
    await user.should_see("EN_US")
    await user.should_see(f"{DEMO} of {DEMO} tasks")


async def test_the_filter_narrows_the_library_and_says_when_nothing_matches(user: User) -> None:
    await user.open("/")
    user.find(marker="library-filter").type("water")
    await user.should_see(f"1 of {DEMO} tasks")
    await user.should_not_see("Photosynthesis: the gas plants take in")
    user.find(marker="library-filter").type("xyz")
    await user.should_see("No task matches the filter")


async def test_the_type_filter_keeps_one_kind(user: User) -> None:
    await user.open("/")
    user.find("All types").click()
    user.find("Multiple choice").click()
    await user.should_see(f"{CHOICE} of {DEMO} tasks")


async def test_the_library_filters_by_language_and_sorts_by_type_or_language(user: User) -> None:
    await user.open("/")
    swiss = sum(t.get("language") == "DE_CH" for t in demo_tasks())
    with user:
        user.find(marker="library-language").elements.pop().value = "DE_CH"
    await user.should_see(f"{swiss} of {DEMO} tasks")
    await user.should_not_see("The water cycle")
    with user:
        user.find(marker="library-language").elements.pop().value = None
        user.find(marker="library-order").elements.pop().value = "type"
    labels = {t["id"]: type_label(t["type"]) for t in demo_tasks()}
    await eventually(lambda: len(shown_cards(user)) == DEMO, "every card shown again")
    by_type = [labels[task_id] for task_id in shown_cards(user)]
    assert by_type == sorted(by_type, key=str.casefold) and len(set(by_type)) > 1
    with user:
        user.find(marker="library-order").elements.pop().value = "language"
    language_of = {t["id"]: t.get("language", "EN_US") for t in demo_tasks()}
    await eventually(
        lambda: [language_of[i] for i in shown_cards(user)] == sorted(language_of.values()),
        "sorted by language",
    )


def shown_cards(user: User) -> list[str]:
    """The task ids of the cards in the order shown (cards are made in that order)."""
    cards = sorted(user.find(marker="task-card").elements, key=lambda card: card.id)
    return [next(m for m in card._markers if m.startswith("card-")).removeprefix("card-") for card in cards]


async def test_duplicating_a_task_adds_a_copy(user: User) -> None:
    await user.open("/")
    with user.scope(marker="card-mc-photosynthesis-en"):
        user.find(marker="duplicate").click()
    with user.scope(marker="dialog"):
        await user.should_see("Id of the copy")
        user.find("Create copy").click()
    await user.should_see("Duplicated as mc-photosynthesis-en-copy", retries=SLOW)
    await user.should_see(f"{DEMO + 1} of {DEMO + 1} tasks")

    with user.scope(marker="card-mc-photosynthesis-en"):
        user.find(marker="duplicate").click()
    with user.scope(marker="dialog"):  # the first free id, as the terminal app offers (copy_id)
        assert user.find("Id of the copy").elements.pop().value == "mc-photosynthesis-en-copy-2"


async def test_deleting_a_task_asks_first_and_then_removes_it(user: User) -> None:
    await user.open("/")
    with user.scope(marker="card-blanks-water-cycle-en"):
        user.find(marker="delete").click()
    await user.should_see("Its answers, feedback and ratings are deleted with it. This cannot be undone.")
    user.find("Cancel").click()
    await user.should_see(f"{DEMO} of {DEMO} tasks")
    with user.scope(marker="card-blanks-water-cycle-en"):
        user.find(marker="delete").click()
    with user.scope(marker="dialog"):
        user.find("Delete").click()
    await user.should_see("Deleted blanks-water-cycle-en", retries=SLOW)
    await user.should_not_see("The water cycle")


@pytest.mark.parametrize(("label", "load"), [("JSON file", json.loads), ("YAML file", yaml.safe_load)])
async def test_export_downloads_the_task_file(user: User, label: str, load) -> None:
    await user.open("/")
    with user.scope(marker="card-mc-photosynthesis-en"):
        user.find(marker="export").click()
    with user.scope(marker="dialog"):
        user.find(label).click()
    for _ in range(20):
        if user.download.http_responses:
            break
        await asyncio.sleep(0.05)
    assert load(user.download.http_responses[-1].content)["id"] == "mc-photosynthesis-en"


async def test_importing_task_files_adds_them_and_names_a_bad_one(user: User) -> None:
    await user.open("/")
    user.find("Import").click()
    upload = user.find(ui.upload).elements.pop()
    good = b"id: imported-task\ntype: MULTIPLE_CHOICE\nproblemStatement: Which?\noptions:\n- content: A\n  correct: true\n- content: B\n"
    await upload.handle_uploads([SmallFileUpload("imported.yaml", "application/yaml", good)])
    await user.should_see("imported.yaml: task imported-task created", retries=SLOW)
    await user.should_see(f"{DEMO + 1} of {DEMO + 1} tasks")
    await upload.handle_uploads([SmallFileUpload("broken.json", "application/json", b'{"id": "x"}')])
    await user.should_see("broken.json: not a task definition", retries=SLOW)


async def test_importing_over_a_different_stored_task_asks_first_and_shows_what_changes(user: User) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    await user.open("/")
    user.find("Import").click()
    upload = user.find(ui.upload).elements.pop()
    other = b"id: mc-photosynthesis-en\ntype: MULTIPLE_CHOICE\ntitle: Gases\nproblemStatement: Which?\noptions:\n- content: A\n  correct: true\n- content: B\n"
    await upload.handle_uploads([SmallFileUpload("other.yaml", "application/yaml", other)])
    await user.should_see("Replace the task mc-photosynthesis-en?", retries=SLOW)
    fields = user.find(marker="replace-fields").elements.pop().text
    assert "other.yaml" in fields and "changes: title, problemStatement, context, options." in fields
    stored = await service.get_task("default", "mc-photosynthesis-en")
    assert stored.definition.title != "Gases"  # nothing sent yet

    user.find("Keep the stored task").click()
    assert (await service.get_task("default", "mc-photosynthesis-en")).version == stored.version
    await upload.handle_uploads([SmallFileUpload("other.yaml", "application/yaml", other)])
    await user.should_see("Replace the task mc-photosynthesis-en?", retries=SLOW)
    user.find(marker="confirm-replace").click()
    await user.should_see("other.yaml: task mc-photosynthesis-en updated", retries=SLOW)
    assert (await service.get_task("default", "mc-photosynthesis-en")).definition.title == "Gases"


async def test_a_big_library_shows_its_cards_a_page_at_a_time(user: User) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    for i in range(40):
        await service.upsert_task(
            "default", MultipleChoiceTask(id=f"bulk-{i:02}", problemStatement="?", options=OPTIONS)
        )
    total = DEMO + 40
    await user.open("/")
    await user.should_see(f"{total} of {total} tasks")
    assert len(user.find(marker="duplicate").elements) == 30
    more = f"Show {min(total - 30, 30)} more"
    user.find(more).click()
    shown = min(60, total)  # the refresh runs in the background: wait for it, however long it takes
    await eventually(lambda: count(user, "duplicate") == shown, f"{shown} cards")
    await user.should_not_see(more)


@pytest.mark.parametrize(
    ("new_id", "problem"),
    [("", "at least 1 character"), ("a/b", "no “/”"), ("blanks-water-cycle-en", "already exists")],
)
async def test_duplicating_under_an_empty_a_broken_or_a_taken_id_is_refused(
    user: User, new_id: str, problem: str
) -> None:
    service = LocalService(harness.runtime, local_principal("default"))
    await user.open("/")
    with user.scope(marker="card-mc-photosynthesis-en"):
        user.find(marker="duplicate").click()
    with user.scope(marker="dialog"):
        id_input = user.find("Id of the copy")
        with user:
            id_input.elements.pop().value = new_id
        user.find("Create copy").click()
    await user.should_see(problem, retries=SLOW)
    assert (
        await service.get_task("default", "blanks-water-cycle-en")
    ).definition.type == "InTextFillInBlanksTask"
    assert len(await service.list_tasks("default")) == DEMO


async def test_the_language_is_switched_in_settings_and_every_page_then_speaks_it(user: User) -> None:
    await user.open("/settings")
    with user:
        user.find(marker="ui-language").elements.pop().value = "de"
    await user.open("/")
    await user.should_see("Neue Aufgabe")
    await user.should_see("Nach Titel oder Kennung filtern")
    await user.open("/tasks/default/mc-photosynthesis-en")
    await user.should_see("Feedback erhalten")  # the task page too; the task itself stays as written
    await user.should_see("Which gas does a plant take in from the air to build sugar during photosynthesis?")
    await user.open("/settings")
    with user:
        user.find(marker="ui-language").elements.pop().value = "en"
    await user.open("/")
    await user.should_see("New task")


async def test_a_file_too_big_for_the_server_is_refused_with_a_message_naming_it(user: User) -> None:
    await user.open("/")
    user.find("Import").click()
    await user.should_see("At most 984 kB a file.")
    upload = user.find(ui.upload).elements.pop()
    assert upload.props["max-file-size"] == 1_000_000 - 16 * 1024  # the browser sends no bigger file
    # what the browser says of the files it refused (Quasar's "rejected", names and sizes only)
    user.find(ui.upload).trigger("rejected", [{"name": "huge.json", "size": 2_000_000}])
    await user.should_see("huge.json is larger than 984 kB, the most a task file may have: not imported")
    # a big file that reached the page anyway is refused the same way
    big = b'{"id": "big", "context": "' + b"x" * 2_000_000 + b'"}'
    await upload.handle_uploads([SmallFileUpload("big.json", "application/json", big)])
    await user.should_see("big.json is larger than 984 kB", retries=SLOW)
    # an upload the server refused (413) says so too
    user.find(ui.upload).trigger("failed", [{"name": "other.json", "status": 413}])
    await user.should_see("other.json was not imported: the upload failed (413)")


async def test_a_binary_file_is_refused_naming_it(user: User) -> None:
    await user.open("/")
    user.find("Import").click()
    upload = user.find(ui.upload).elements.pop()
    await upload.handle_uploads([SmallFileUpload("logo.json", "application/json", b"\x89PNG\r\n\x1a\n\x00")])
    await user.should_see("logo.json: not a text file (byte 0 is not UTF-8)", retries=SLOW)
