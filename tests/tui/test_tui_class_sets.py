"""Class sets in the terminal app: import a class's answers from a file with progress, grade from
the review order with one key a verdict and see the counts move, export CSV, reopen after a
restart; every bad file refused in words with no set left; a stopped import keeps nothing; a task
deleted under an open set; the same journey against a remote; snapshots of the set screen."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from core.api import Correctness, parse_task
from core.api.class_sets import ClassSetCreate, ClassSetJudgeRequest, GradedBy
from core.assets import demo_tasks
from core.config import Settings
from core.service import Service, connect
from tests.class_set_files import BAD_CLASS_FILES
from tests.contract.builders import CLASS_ANSWERS
from tests.tui.conftest import studio_settings
from tests.tui.helpers import (
    SIZE,
    library_loaded,
    notifications,
    notified,
    open_task,
    settle,
    text_of,
    wait_until,
)
from tui.app import FeedbackStudioApp
from tui.dialogs.class_sets import ClassSetFileScreen, ClassSetPathScreen, ClassSetProgressScreen
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.class_set import ClassSetScreen
from tui.screens.library import LibraryScreen
from tui.screens.task import TaskScreen
from tui.widgets.class_sets import ClassSetsPanel

TASK = "ff-bulb-circuit-en"
ANSWERS = [
    *CLASS_ANSWERS[:8],
    "The battery uses up the current in the bulb.",
    "Current needs a path from one pole of the battery through the bulb to the other pole.",
    "The switch makes it glow.",
    "The wires bring energy from the battery to the bulb and back.",
]


def class_file(tmp_path: Path, answers: list[str] = ANSWERS, name: str = "7b.csv") -> Path:
    path = tmp_path / name
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["learner", "answer"])
        writer.writerows([f"L{i}", a] for i, a in enumerate(answers))
    return path


def loading(panel: ClassSetsPanel) -> bool:
    return any(w.group == "class-sets" and not w.is_finished for w in panel.workers)


async def class_sets_tab(pilot: Pilot) -> ClassSetsPanel:
    """Open the task and its Class sets tab (F10), its list read."""
    await open_task(pilot, TASK)
    await pilot.press("f10")
    panel = pilot.app.screen.query_one(ClassSetsPanel)
    await wait_until(pilot, lambda: not loading(panel))
    return panel


async def choose_file(pilot: Pilot, path: Path, name: str | None = None) -> ClassSetFileScreen:
    app = pilot.app
    await pilot.press("i")
    await wait_until(pilot, lambda: isinstance(app.screen, ClassSetFileScreen))
    dialog = app.screen
    dialog.query_one("#class-set-path", Input).value = str(path)
    if name is not None:
        dialog.query_one("#class-set-name", Input).value = name
    await pilot.pause()
    dialog.query_one("#class-set-path", Input).focus()
    await pilot.press("enter")
    return dialog


async def import_file(pilot: Pilot, path: Path) -> ClassSetsPanel:
    """Import ``path`` from the Class sets tab and wait until the set is listed."""
    await choose_file(pilot, path)
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen), within=90)
    panel = app.screen.query_one(ClassSetsPanel)
    await wait_until(pilot, lambda: panel.sets and not loading(panel))
    return panel


async def open_set(pilot: Pilot) -> ClassSetScreen:
    app = pilot.app
    app.screen.query_one("#class-sets-table", DataTable).focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ClassSetScreen))
    screen = app.screen
    await wait_until(pilot, lambda: screen.rows and not reading(screen), within=60)
    return screen


def reading(screen: ClassSetScreen) -> bool:
    return any(not w.is_finished for w in screen.workers)


async def grade_five_from_the_review_order(pilot: Pilot, screen: ClassSetScreen) -> list[str]:
    """Press o for the review order, then grade five answers, each against the judge's verdict (so
    the counts must move): the key pressed, and the answer then selected next."""
    await pilot.press("o")
    await wait_until(pilot, lambda: screen.order == "REVIEW" and not reading(screen))
    assert "Review order" in text_of(screen.query_one("#class-set-order", Static))
    graded = []
    for n in range(5):
        answer = screen.selected()
        assert answer is not None and answer.gradedBy is GradedBy.JUDGE
        key = "w" if answer.verdict is Correctness.CORRECT else "c"
        await pilot.press(key)
        await wait_until(pilot, lambda n=n: screen.current.gradedCount > n and not reading(screen))
        graded.append(answer.text)
        after = screen.selected()
        assert after is None or after.text not in graded  # the next one in the review order
    return graded


def counts(screen: ClassSetScreen) -> str:
    return text_of(screen.query_one("#class-set-counts", Static))


async def export(
    pilot: Pilot, screen: ClassSetScreen, path: Path, *, replacing: bool = False
) -> list[dict[str, str]]:
    app = pilot.app

    def exported() -> int:
        return sum(t == "Exported" for t, _ in notifications(app))

    before = exported()
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, ClassSetPathScreen))
    app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    if replacing:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#confirm")
    await wait_until(pilot, lambda: exported() > before)
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.journey  # import, grade, export and reopen: the screens each have a shorter test
async def test_import_grade_export_and_reopen_after_a_restart(database, tmp_path) -> None:
    settings = studio_settings(database)
    app = FeedbackStudioApp(settings)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        panel = await class_sets_tab(pilot)
        assert panel.query_one("#class-sets-empty").display
        assert "No class sets yet" in text_of(panel.query_one("#class-sets-empty"))

        panel = await import_file(pilot, class_file(tmp_path))
        _, summary = await notified(pilot, "Class set “7b” imported")
        assert summary == "12 answers · 1 repeat an earlier answer (kept; a grade goes to all)"
        [listed] = panel.sets
        assert (listed.name, listed.answerCount, listed.judgedCount, listed.gradedCount) == ("7b", 12, 12, 0)

        screen = await open_set(pilot)
        assert screen.order == "GROUPED" and None in screen.rows  # a header row per verdict
        before = counts(screen)
        graded = await grade_five_from_the_review_order(pilot, screen)
        assert screen.current.gradedCount == 5
        assert counts(screen) != before
        assert "12 answers · 5 graded by you" in text_of(screen.query_one("#class-set-bar", Static))
        said = [m for t, m in notifications(pilot.app) if t in ("Graded CORRECT", "Graded WRONG")]
        assert len(said) == 5 and all(m.endswith("in view changed.") for m in said)

        out = tmp_path / "out" / "7b-judged.csv"
        out.parent.mkdir()
        rows = await export(pilot, screen, out)
        assert [r["answer"] for r in rows] == ANSWERS
        by_author = {r["answer"] for r in rows if r["graded_by"] == "AUTHOR"}
        assert set(graded) <= by_author
        rows = await export(pilot, screen, out, replacing=True)  # again: asked before the file is replaced
        assert len(rows) == len(ANSWERS)
        await settle(pilot)

    app = FeedbackStudioApp(settings)  # a new start on the same database
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: library_loaded(app))
        panel = await class_sets_tab(pilot)
        await wait_until(pilot, lambda: panel.sets)
        assert (panel.sets[0].name, panel.sets[0].gradedCount) == ("7b", 5)
        screen = await open_set(pilot)
        shown = [a for a in screen.rows if a is not None]
        assert {a.text for a in shown if a.gradedBy is GradedBy.AUTHOR} >= set(graded)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen))
        await settle(pilot)


@pytest.mark.parametrize(
    ("name", "data", "message"), BAD_CLASS_FILES, ids=[case[0] for case in BAD_CLASS_FILES]
)
async def test_a_bad_file_is_refused_in_words_and_leaves_no_set(
    pilot, studio: Service, tmp_path, name, data, message
) -> None:
    await class_sets_tab(pilot)
    path = tmp_path / name
    path.write_bytes(data)
    dialog = await choose_file(pilot, path)
    problem = dialog.query_one("#class-set-problem", Static)
    await wait_until(pilot, lambda: problem.display)
    assert text_of(problem) == message
    assert isinstance(pilot.app.screen, ClassSetFileScreen)  # still open: pick another file
    await pilot.press("escape")
    assert await studio.list_class_sets("default", TASK) == []


async def test_the_problem_is_said_in_the_apps_language(pilot, tmp_path, monkeypatch) -> None:
    import tui.i18n

    monkeypatch.setattr(tui.i18n, "LANGUAGE", "de")
    await class_sets_tab(pilot)
    path = tmp_path / "leer.txt"
    path.write_bytes(b"")
    dialog = await choose_file(pilot, path)
    problem = dialog.query_one("#class-set-problem", Static)
    await wait_until(pilot, lambda: problem.display)
    assert text_of(problem) == "leer.txt enthält keine Antworten."


async def test_a_missing_file_is_named(pilot, tmp_path) -> None:
    await class_sets_tab(pilot)
    dialog = await choose_file(pilot, tmp_path / "nowhere.csv")
    problem = dialog.query_one("#class-set-problem", Static)
    await wait_until(pilot, lambda: problem.display)
    assert text_of(problem).startswith(f"Could not read {tmp_path / 'nowhere.csv'}")
    assert dialog.query_one("#class-set-name", Input).value == "nowhere"


async def test_a_stopped_import_keeps_nothing(pilot, studio: Service, tmp_path, monkeypatch) -> None:
    # Small batches keep the import going for a while: with the models warm from an earlier test
    # its 600 answers took less than the pilot's wait for a quiet screen, and no dialog was seen.
    monkeypatch.setattr("core.client.class_sets.JUDGED_AT_ONCE", 5)
    await class_sets_tab(pilot)
    answers = [f"{ANSWERS[i % len(ANSWERS)]} ({i})" for i in range(600)]
    await choose_file(pilot, class_file(tmp_path, answers, "big.csv"))
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, ClassSetProgressScreen))
    await pilot.press("escape")
    _, message = await notified(pilot, "Stopped")
    assert message == "Import of “big” stopped: nothing was kept."
    await wait_until(pilot, lambda: isinstance(app.screen, TaskScreen))
    assert await studio.list_class_sets("default", TASK) == []
    panel = app.screen.query_one(ClassSetsPanel)
    await wait_until(pilot, lambda: not loading(panel))
    assert panel.query_one("#class-sets-empty").display


async def stored_set(studio: Service, answers: list[str] = ANSWERS, name: str = "7b") -> str:
    created = await studio.create_class_set("default", TASK, ClassSetCreate(name=name, answers=answers))
    await studio.judge_class_set("default", created.classSetId, ClassSetJudgeRequest(limit=500))
    return created.classSetId


async def test_a_set_is_deleted_after_confirmation(pilot, studio: Service) -> None:
    await stored_set(studio)
    panel = await class_sets_tab(pilot)
    await wait_until(pilot, lambda: panel.sets)
    panel.query_one("#class-sets-table", DataTable).focus()
    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    assert "“7b” with its 12 answers" in text_of(pilot.app.screen.query_one(".dialog-question", Static))
    await pilot.click("#confirm")
    await notified(pilot, "", "Class set “7b” deleted.")
    await wait_until(pilot, lambda: not panel.sets and not loading(panel))
    assert panel.query_one("#class-sets-empty").display
    assert await studio.list_class_sets("default", TASK) == []


async def test_a_task_deleted_while_its_set_is_open(pilot, studio: Service) -> None:
    await stored_set(studio)
    await class_sets_tab(pilot)
    screen = await open_set(pilot)
    await studio.delete_task("default", TASK)
    await pilot.press("c")
    _, message = await notified(pilot, "Class set closed")
    assert message == "The task “Making a bulb light up” was deleted, and its class sets with it."
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LibraryScreen))
    assert not screen.is_attached


async def test_a_set_whose_task_changed_offers_to_judge_the_rest(pilot, studio: Service) -> None:
    await stored_set(studio)
    stored = await studio.get_task("default", TASK)
    changed = stored.definition.model_copy(update={"problemStatement": "Why does the lamp light up?"})
    await studio.upsert_task("default", changed)
    await class_sets_tab(pilot)
    screen = await open_set_waiting(pilot)
    assert screen.query_one("#class-set-judge").display
    assert "12 answers are not judged" in text_of(screen.query_one("#class-set-judge-text", Static))
    await pilot.press("j")
    await wait_until(pilot, lambda: screen.rows and screen.current.judgedCount == 12, within=60)
    assert not screen.query_one("#class-set-judge").display


async def open_set_waiting(pilot: Pilot) -> ClassSetScreen:
    """Open the set of a changed task: it waits to be judged, with no answers read."""
    app = pilot.app
    app.screen.query_one("#class-sets-table", DataTable).focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ClassSetScreen))
    screen = app.screen
    await wait_until(pilot, lambda: not reading(screen) and screen.query_one("#class-set-judge").display)
    return screen


async def test_a_long_set_comes_a_page_at_a_time(pilot, studio: Service) -> None:
    await stored_set(studio, [f"{ANSWERS[i % len(ANSWERS)]} ({i})" for i in range(230)])
    await class_sets_tab(pilot)
    screen = await open_set(pilot)
    order = screen.query_one("#class-set-order", Static)
    assert "1–100 of 230" in text_of(order)
    await pilot.press("right_square_bracket")
    await wait_until(pilot, lambda: "101–200 of 230" in text_of(order) and not reading(screen))
    await pilot.press("right_square_bracket")
    await wait_until(pilot, lambda: "201–230 of 230" in text_of(order) and not reading(screen))
    await pilot.press("right_square_bracket")  # no page after the last
    await pilot.press("left_square_bracket")
    await wait_until(pilot, lambda: "101–200 of 230" in text_of(order) and not reading(screen))


@pytest.mark.journey  # import, grade, export and reopen: the screens each have a shorter test
async def test_the_journey_against_a_remote_server(live_server, tmp_path) -> None:
    token = await live_server.token("default")
    settings = Settings(remote_url=live_server.base_url, token=token)
    service = await connect(settings)
    try:
        await service.upsert_task("default", parse_task(next(t for t in demo_tasks() if t["id"] == TASK)))
        app = FeedbackStudioApp(service=service)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: library_loaded(app))
            assert app.info.mode == "remote"
            await class_sets_tab(pilot)
            await import_file(pilot, class_file(tmp_path))
            screen = await open_set(pilot)
            graded = await grade_five_from_the_review_order(pilot, screen)
            rows = await export(pilot, screen, tmp_path / "remote.csv")
            assert set(graded) <= {r["answer"] for r in rows if r["graded_by"] == "AUTHOR"}
            await settle(pilot)
    finally:
        await service.aclose()
    service = await connect(settings)  # reopened on a new connection
    try:
        app = FeedbackStudioApp(service=service)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: library_loaded(app))
            panel = await class_sets_tab(pilot)
            await wait_until(pilot, lambda: panel.sets)
            assert panel.sets[0].gradedCount == 5
            await settle(pilot)
    finally:
        await service.aclose()


# --- snapshots ------------------------------------------------------------------------------


def snapshot_of_the_set_screen(snap_compare, app: FeedbackStudioApp, size: tuple[int, int]) -> bool:
    async def run_before(pilot: Pilot) -> None:
        await wait_until(pilot, lambda: library_loaded(pilot.app))
        await stored_set(await pilot.app.ready())
        await class_sets_tab(pilot)
        await wait_until(pilot, lambda: pilot.app.screen.query_one(ClassSetsPanel).sets)
        screen = await open_set(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)
        assert screen.rows

    return snap_compare(app, terminal_size=size, run_before=run_before)


def test_the_set_screen_snapshot(snap_compare, snapshot_app) -> None:
    assert snapshot_of_the_set_screen(snap_compare, snapshot_app, SIZE)


def test_the_set_screen_snapshot_at_80_columns(snap_compare, snapshot_app) -> None:
    assert snapshot_of_the_set_screen(snap_compare, snapshot_app, (80, 24))
