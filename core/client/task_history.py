"""The history of a task in both apps: two versions side by side, and an old version restored.

A version is compared as its task file reads (YAML in the field order of the model, but a field's
text on one line however long: the apps wrap it), so the diff shows what an author changed in the
words they wrote, one row per field or list item. Restoring
writes the old definition as a new version on top of the version the author was looking at (the
editors' conditional upsert): if someone saved meanwhile, nothing is overwritten
(VersionConflict).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import StrEnum

import yaml

from core.api import TaskBase, TaskVersion, UpsertTaskResponse
from core.service.base import Service
from core.workspace.files import task_document

UNFOLDED = 1_000_000
"""A line width YAML never reaches: no field is folded over several lines."""


class Change(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    REMOVED = "removed"
    """Only in the older (left) version."""
    ADDED = "added"
    """Only in the newer (right) version."""


@dataclass(frozen=True)
class DiffRow:
    """One row of a side-by-side diff; a side without a line (an addition's left) is None."""

    change: Change
    old: str | None
    new: str | None


def task_lines(task: TaskBase) -> list[str]:
    text = yaml.safe_dump(task_document(task), sort_keys=False, allow_unicode=True, width=UNFOLDED)
    return text.splitlines()


def side_by_side(old: TaskBase, new: TaskBase) -> list[DiffRow]:
    """The rows of both versions aligned: unchanged lines beside each other, a changed block line by
    line (the shorter side padded with empty cells), removals on the left, additions on the right."""
    left, right = task_lines(old), task_lines(new)
    rows: list[DiffRow] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=left, b=right, autojunk=False).get_opcodes():
        if tag == "equal":
            rows.extend(DiffRow(Change.SAME, a, b) for a, b in zip(left[i1:i2], right[j1:j2], strict=True))
        elif tag == "delete":
            rows.extend(DiffRow(Change.REMOVED, a, None) for a in left[i1:i2])
        elif tag == "insert":
            rows.extend(DiffRow(Change.ADDED, None, b) for b in right[j1:j2])
        else:
            olds, news = left[i1:i2], right[j1:j2]
            for k in range(max(len(olds), len(news))):
                rows.append(
                    DiffRow(
                        Change.CHANGED,
                        olds[k] if k < len(olds) else None,
                        news[k] if k < len(news) else None,
                    )
                )
    return rows


def differs(rows: list[DiffRow]) -> bool:
    return any(row.change is not Change.SAME for row in rows)


async def restore_version(
    service: Service, version: TaskVersion, *, current_version: int
) -> UpsertTaskResponse:
    """Write ``version``'s definition as the task's next version, only on top of ``current_version``
    (VersionConflict otherwise). Restoring what is stored already is UNCHANGED and writes nothing."""
    return await service.upsert_task(version.tenantId, version.definition, expected_version=current_version)
