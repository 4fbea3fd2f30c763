"""The side-by-side diff of two task versions."""

from __future__ import annotations

from core.client.task_history import Change, differs, side_by_side, task_lines
from tests.contract.builders import mc_task


def test_the_same_version_has_no_changes() -> None:
    rows = side_by_side(mc_task(), mc_task())
    assert not differs(rows)
    assert [row.old for row in rows] == task_lines(mc_task())


def test_a_changed_field_is_one_changed_row_beside_its_old_value() -> None:
    rows = side_by_side(mc_task(title="Old title"), mc_task(title="New title"))
    changed = [row for row in rows if row.change is not Change.SAME]
    assert changed == [type(changed[0])(Change.CHANGED, "title: Old title", "title: New title")]


def test_an_added_option_is_on_the_right_only() -> None:
    old = mc_task()
    new = old.model_copy(
        update={"options": [*old.options, old.options[-1].model_copy(update={"content": "Basel"})]}
    )
    rows = side_by_side(old, new)
    added = [row for row in rows if row.change is Change.ADDED]
    assert added and all(row.old is None for row in added)
    assert any("Basel" in (row.new or "") for row in added)
    assert [row.old for row in rows if row.old is not None] == task_lines(old)
    assert [row.new for row in rows if row.new is not None] == task_lines(new)


def test_a_long_text_is_one_row_so_a_changed_word_is_one_changed_row() -> None:
    long = "Which city is the federal city of Switzerland, where the parliament meets? " * 3
    old = mc_task().model_copy(update={"problemStatement": long})
    new = mc_task().model_copy(update={"problemStatement": long.replace("parliament", "government", 1)})
    [changed] = [row for row in side_by_side(old, new) if row.change is not Change.SAME]
    assert changed.old is not None and changed.new is not None
    assert changed.old.startswith("problemStatement: ") and changed.new.startswith("problemStatement: ")
    assert "parliament meets" in changed.old and "government meets" in changed.new
