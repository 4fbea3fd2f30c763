"""The JSON Schema of task files: generated from the wire models and kept current in docs/."""

from __future__ import annotations

from pathlib import Path

from core.api import TASK_MODELS
from core.cli import main
from core.workspace.schema import schema_text, task_schema

COMMITTED = Path(__file__).resolve().parents[3] / "docs" / "task.schema.json"


def test_the_committed_schema_is_current():
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), "run `feedback-studio schema` and commit"


def test_every_kind_requires_its_type_in_either_spelling():
    definitions = task_schema()["$defs"]
    for kind, model in TASK_MODELS.items():
        definition = definitions[model.__name__]
        assert definition["properties"]["type"]["enum"] == [kind.schema_name, kind.value]
        assert definition["required"][:2] == ["id", "type"]
    assert len(task_schema()["oneOf"]) == 6


def test_the_command_writes_the_schema_where_asked(tmp_path, capsys):
    out = tmp_path / "schemas" / "task.schema.json"
    assert main(["schema", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == schema_text()
    assert capsys.readouterr().out.strip() == str(out)
