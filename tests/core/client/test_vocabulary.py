"""The product's words are the same in both apps: one table in core.client.vocabulary."""

from __future__ import annotations

from core.api import RatingType, TaskType
from core.client.vocabulary import RATING_SUBTYPES, TYPE_LABELS, type_label_source
from tui.labels import type_label as terminal_label
from webui.components.task_types import type_label as web_label


def test_both_apps_call_every_task_type_by_the_same_name() -> None:
    for task_type in TaskType:
        assert terminal_label(task_type) == web_label(task_type) == TYPE_LABELS[task_type]
        assert terminal_label(task_type.schema_name) == terminal_label(task_type.value)


def test_a_type_this_client_does_not_know_is_shown_as_named() -> None:
    assert type_label_source("HotspotTask") == "HotspotTask"


def test_every_rating_reason_belongs_to_exactly_one_kind_of_rating() -> None:
    good, bad = set(RATING_SUBTYPES[RatingType.GOOD]), set(RATING_SUBTYPES[RatingType.BAD])
    assert not good & bad
    assert len(good | bad) == 12


def test_both_apps_show_a_rating_reason_in_their_language(monkeypatch) -> None:
    """The reasons are marked in core.client.vocabulary and translated where each app shows them."""
    import tui.labels
    from core.api import RatingSubtype
    from core.client.vocabulary import SUBTYPE_LABELS
    from webui.components import rating

    assert set(SUBTYPE_LABELS) == set(RatingSubtype)
    # The globals of the very functions each app translates with: NiceGUI's user simulation of
    # an earlier test may have imported the web app's modules afresh.
    monkeypatch.setitem(tui.labels._.__globals__, "LANGUAGE", "de")
    monkeypatch.setitem(rating._.__globals__, "language", lambda: "de")
    assert tui.labels.subtype_label(RatingSubtype.TOO_STRICT) == "Zu streng"
    assert rating.subtype_label(RatingSubtype.TOO_STRICT) == "Zu streng"


def test_the_verdicts_a_person_gives_are_listed_once_for_both_apps() -> None:
    """The apps take them from core.client.vocabulary; the engine keeps its own order of labels."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    defining = [
        str(path.relative_to(root))
        for folder in ("core", "tui", "webui")
        for path in (root / folder).rglob("*.py")
        if "\nVERDICTS" in path.read_text(encoding="utf-8")
    ]
    assert sorted(defining) == ["core/client/vocabulary.py", "core/engine/freeform/grading.py"]
