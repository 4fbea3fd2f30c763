"""Read the bundled assets: message catalogues, demo tasks, demo tutors and simulation scenarios.

The only place that knows the assets/ layout; engines get what is read here as arguments.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from core.config import ASSETS_DIR
from core.engine.messages import Catalogue, Phrasing


@cache
def load_catalogue(root: Path = ASSETS_DIR / "messages") -> Catalogue:
    """All catalogues: assets/messages/<lang>/<area>.json, each key prefixed with '<area>.'."""
    tables: dict[str, dict[str, Phrasing]] = {}
    for lang_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        table = tables.setdefault(lang_dir.name, {})
        for file in sorted(lang_dir.glob("*.json")):
            for key, text in json.loads(file.read_text(encoding="utf-8")).items():
                table[f"{file.stem}.{key}"] = text
    return Catalogue(tables)


def _read_documents(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def demo_tasks() -> list[dict[str, Any]]:
    """The demo task definitions (assets/tasks/*.json), one task a file."""
    return _read_documents(ASSETS_DIR / "tasks")


def demo_tutors() -> list[dict[str, Any]]:
    """Demo tutor configurations (assets/tutors/*.json): {"id": …, plus a TutorUpsert body}."""
    return _read_documents(ASSETS_DIR / "tutors")
