"""Task files: export and import round trips for all six types, stable content, clear errors."""

from __future__ import annotations

import json

import pytest

from core.api import TestAnswersRequest, VersionConflict
from core.client.files import Replacement, WouldReplace, export_files, import_files, replacements
from core.workspace.files import read_task
from tests.core.workspace.builders import MC_ID, mc_test_answers, six_tasks


@pytest.fixture
async def library(service):
    for task in six_tasks():
        await service.upsert_task("default", task)
    await service.put_test_answers("default", MC_ID, TestAnswersRequest(answers=mc_test_answers()))
    return service


def contents(directory) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("fmt", ["json", "yaml"])
async def test_export_import_export_gives_the_same_bytes_for_all_six_types(library, tmp_path, fmt):
    first, second = tmp_path / "first", tmp_path / "second"
    await export_files(library, "default", first, fmt)
    for task in six_tasks():
        await library.delete_task("default", task.id)

    imported = await import_files(library, "default", [first])
    await export_files(library, "default", second, fmt)

    assert sorted(i.action for i in imported) == ["2 test answers"] + ["CREATED"] * 6
    assert len(contents(first)) == 6 + 1 + 1  # six tasks, one test-answer file, the schema
    assert contents(first) == contents(second)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
async def test_importing_an_export_again_changes_nothing(library, tmp_path, fmt):
    await export_files(library, "default", tmp_path, fmt)
    imported = await import_files(library, "default", [tmp_path])
    assert sorted(i.action for i in imported) == ["2 test answers"] + ["UNCHANGED"] * 6
    assert (await library.list_test_answers("default", MC_ID)).answers == mc_test_answers()


async def test_json_files_refer_to_the_schema_and_keep_the_field_order_of_the_model(library, tmp_path):
    await export_files(library, "default", tmp_path, "json")
    text = (tmp_path / f"{MC_ID}.json").read_text(encoding="utf-8")
    assert text.startswith('{\n  "$schema": "./task.schema.json",\n  "id": "mc-capital",\n  "title"')
    assert text.endswith("}\n")
    assert list(json.loads(text))[1:] == [
        "id",
        "title",
        "problemStatement",
        "language",
        "context",
        "type",
        "options",
    ]
    assert '"feedback": null' not in text  # unset optional fields are left out


async def test_yaml_files_name_the_schema_for_the_yaml_language_server(library, tmp_path):
    await export_files(library, "default", tmp_path, "yaml")
    text = (tmp_path / "sim-customer.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=./task.schema.json"
    assert "title: Fahrkarte kaufen – Übung" in text  # unicode as written, not escaped
    assert (tmp_path / "task.schema.json").is_file()


async def test_a_hand_written_yaml_file_with_the_enum_spelling_imports(service, tmp_path):
    path = tmp_path / "capital.yml"
    path.write_text(
        "# an author's notes\nid: capital\ntype: MULTIPLE_CHOICE\nproblemStatement: Capital?\n"
        "options:\n- {content: Bern, correct: true}\n- {content: Zurich}\n",
        encoding="utf-8",
    )
    [imported] = await import_files(service, "default", [path])
    assert (imported.taskId, imported.action) == ("capital", "CREATED")
    assert (await service.get_task("default", "capital")).definition.type == "MultipleChoiceTask"


async def test_a_broken_file_is_named_and_nothing_is_imported(service, tmp_path):
    (tmp_path / "a-good.json").write_text(
        json.dumps({"id": "good", "type": "FreeformTextTask", "problemStatement": "Why?"}), encoding="utf-8"
    )
    (tmp_path / "b-bad.json").write_text(
        json.dumps({"id": "bad", "type": "MultipleChoiceTask", "problemStatement": "?", "options": []}),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"b-bad\.json: .*at least two options"):
        await import_files(service, "default", [tmp_path])
    assert await service.list_tasks("default") == []


def test_a_file_that_is_no_task_says_which_field_is_wrong(tmp_path):
    path = tmp_path / "task.yaml"
    path.write_text("id: x\ntype: EssayTask\nproblemStatement: Why?\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"task\.yaml: not a task definition .*type must be one of"):
        read_task(path)


async def test_ids_that_are_no_safe_file_names_get_files_of_their_own(service, tmp_path):
    for task_id in ("unit 1: a?", "unit 1_ a_"):
        await service.upsert_task("default", six_tasks()[0].model_copy(update={"id": task_id}))
    written = await export_files(service, "default", tmp_path, "json")
    assert len({p.name for p in written}) == 3
    assert {read_task(p).id for p in written if p.name != "task.schema.json"} == {"unit 1: a?", "unit 1_ a_"}


def capital_file(tmp_path, title: str):
    path = tmp_path / "capital.json"
    task = {"id": "capital", "type": "MultipleChoiceTask", "title": title, "problemStatement": "Capital?"}
    task["options"] = [{"content": "Bern", "correct": True}, {"content": "Zurich", "correct": False}]
    path.write_text(json.dumps(task), encoding="utf-8")
    return path


async def test_an_import_over_a_different_stored_task_refuses_and_says_what_would_change(service, tmp_path):
    await import_files(service, "default", [capital_file(tmp_path, "Capital")])
    changed = capital_file(tmp_path, "The federal city")
    with pytest.raises(WouldReplace) as refused:
        await import_files(service, "default", [changed])
    assert refused.value.replacements == [Replacement("capital", 1, ("title",))]
    assert "capital (version 1: title)" in str(refused.value)
    assert (await service.get_task("default", "capital")).definition.title == "Capital"  # nothing sent

    [imported] = await import_files(service, "default", [changed], agreed=refused.value.replacements)
    assert imported.action == "UPDATED"
    assert (await service.get_task("default", "capital")).definition.title == "The federal city"
    [again] = await import_files(service, "default", [changed])  # the same task again: nothing to ask
    assert again.action == "UNCHANGED"


async def test_an_agreed_replacement_is_not_saved_over_a_save_that_came_in_between(service, tmp_path):
    await import_files(service, "default", [capital_file(tmp_path, "Capital")])
    shown = await replacements(service, "default", [read_task(capital_file(tmp_path, "Mine"))])
    await import_files(service, "default", [capital_file(tmp_path, "Theirs")], agreed=shown)
    with pytest.raises(VersionConflict):
        await import_files(service, "default", [capital_file(tmp_path, "Mine")], agreed=shown)
    assert (await service.get_task("default", "capital")).definition.title == "Theirs"
