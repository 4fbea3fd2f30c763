"""Reading and writing one document as a JSON or YAML file, the same way for every kind of file.

The output is stable so that files can live in version control: keys stay in the order given
(the field order of the models), JSON is indented by two spaces, and every file ends with a
newline. A document may name the JSON Schema it follows: JSON files carry it as ``"$schema"``,
YAML files as the modeline comment the YAML language server reads.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import TypeAdapter, ValidationError

Format = Literal["json", "yaml"]
FORMATS: dict[str, Format] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}
SCHEMA_KEY = "$schema"
YAML_MODELINE = "# yaml-language-server: $schema="
T = TypeVar("T")


def format_of(path: Path) -> Format | None:
    return FORMATS.get(path.suffix.lower())


def dump(document: dict[str, Any], fmt: Format, schema: str | None = None) -> str:
    if fmt == "json":
        head = {SCHEMA_KEY: schema} if schema else {}
        return json.dumps({**head, **document}, indent=2, ensure_ascii=False) + "\n"
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    return f"{YAML_MODELINE}{schema}\n{body}" if schema else body


def load(path: Path) -> dict[str, Any]:
    """The document of a file, without its schema reference; ValueError names the file and the fault."""
    fmt = format_of(path)
    if fmt is None:
        raise ValueError(f"{path}: not a .json, .yaml or .yml file")
    text = path.read_text(encoding="utf-8")
    try:
        document = json.loads(text) if fmt == "json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: not valid {fmt.upper()} ({exc})") from None
    if not isinstance(document, dict):
        raise ValueError(f"{path}: expected an object at the top level")
    document.pop(SCHEMA_KEY, None)
    return document


def parse(path: Path, adapter: TypeAdapter[T], what: str) -> T:
    """The file's document validated by the adapter; ValueError names the file and every fault."""
    try:
        return adapter.validate_python(load(path))
    except ValidationError as exc:
        faults = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'document'}: {error['msg']}"
            for error in exc.errors()
        )
        raise ValueError(f"{path}: not {what} ({faults})") from None


def write(path: Path, document: dict[str, Any], fmt: Format, schema: str | None = None) -> Path:
    path.write_text(dump(document, fmt, schema), encoding="utf-8")
    return path


def safe_file_stem(identifier: str) -> str:
    """A file name for an id: the id itself, or, where some file systems would refuse it, the id with
    those characters replaced and a short hash of the id appended so that two ids never share a file."""
    stem = "".join(c if c.isalnum() or c in "-_.@+" else "_" for c in identifier).strip(".")
    if stem == identifier:
        return stem
    return f"{stem or 'task'}-{hashlib.sha256(identifier.encode()).hexdigest()[:8]}"
