"""Journeys of class sets in the web app (issue 44): import a class's answers on the task's Class
sets tab, grade five from the review order by click and key, watch the counts move, export; each
bad file says what is wrong and leaves no set; a cancelled import keeps nothing; a reopened set
judges what is not judged yet; a set whose task is deleted says so; the same against a remote."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest
from nicegui import ui
from nicegui.elements.upload_files import SmallFileUpload
from nicegui.testing import User

from core.api import Correctness
from core.api.class_sets import ClassSetCreate, ClassSetJudgeRequest, ClassSetOrder
from core.auth import local_principal
from core.service.local import LocalService
from tests.contract.builders import CLASS_ANSWERS
from tests.webui import harness
from tests.webui.helpers import SLOW, eventually
from webui.components.busy import DOUBLE_CLICK_SECONDS
from webui.pages.class_set import export_name

TASK = "ff-bulb-circuit-en"
TAB = f"/tasks/default/{TASK}?tab=Class%20sets"
ANSWERS = CLASS_ANSWERS
JUDGING = 4 * SLOW
"""should_see's retries for what waits for answers to be judged: the first judgement of a test
process loads the text models, which a loaded machine takes long for."""


def service() -> LocalService:
    return LocalService(harness.runtime, local_principal("default"))


def class_csv(answers: list[str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["student", "Antwort"])
    writer.writerows([f"s{i}", a] for i, a in enumerate(answers))
    return out.getvalue().encode("utf-8-sig")


async def upload(user: User, name: str, data: bytes) -> None:
    element = user.find(marker="class-set-upload").elements.pop()
    assert isinstance(element, ui.upload)
    await element.handle_uploads([SmallFileUpload(name, "text/plain", data)])


def text_of(user: User, marker: str) -> str:
    [element] = user.find(marker=marker).elements
    return getattr(element, "text", "")


async def sets() -> int:
    return len(await service().list_class_sets("default", TASK))


async def import_file(user: User, name: str, data: bytes) -> None:
    await user.open(TAB)
    await user.should_see("No class sets yet", retries=SLOW)
    await upload(user, name, data)
    await user.should_see(marker="class-set-start", retries=SLOW)
    user.find(marker="class-set-start").click()


async def test_import_grade_five_from_the_review_order_and_export(user: User) -> None:
    await user.open(TAB)
    await user.should_see("No class sets yet", retries=SLOW)
    await upload(user, "7b.csv", class_csv(ANSWERS))
    # the duplicate is kept and said
    await user.should_see(
        "7b.csv: 10 answers · 1 repeat an earlier answer (kept; a grade goes to all)", retries=SLOW
    )
    [name] = user.find(marker="class-set-name").elements
    assert isinstance(name, ui.input) and name.value == "7b"
    user.find(marker="class-set-start").click()
    await user.should_see("10 answers imported into “7b” and judged.", retries=JUDGING)
    await user.should_see("10 answers · 10 judged · 0 graded by you", retries=SLOW)

    with user:
        user.find(marker="class-set-order").elements.pop().value = ClassSetOrder.REVIEW
    await user.should_see(marker="class-set-review", retries=SLOW)
    [set_] = await service().list_class_sets("default", TASK)
    card = user.find(marker="class-set-review")
    for n in range(5):
        review = await service().class_set_answers("default", set_.classSetId, ClassSetOrder.REVIEW, 0, 1)
        current = review.answers[0]
        assert text_of(user, "review-answer") == current.text  # the next answer in the review order
        before = (await service().get_class_set("default", set_.classSetId)).verdicts
        # the other verdict than the judge's, so the counts must move: by key, then by click
        other = "w" if current.verdict is Correctness.CORRECT else "c"
        if n % 2:
            user.find(marker=f"grade-{'wrong' if other == 'w' else 'correct'}").click()
        else:
            card.trigger(f"keydown.{other}.exact")
        await eventually(lambda: "graded" in _said(user), "graded")
        await eventually(lambda c=current: c.text[:20] in _said(user), "said")
        graded = await service().get_class_set("default", set_.classSetId)
        assert graded.gradedCount == n + 1
        assert graded.verdicts != before
        assert "verdicts changed" in _said(user) or "verdict changed" in _said(user)
        assert " 0 verdicts" not in _said(user)
        counts = graded.verdicts
        assert counts is not None
        await eventually(
            lambda c=counts: text_of(user, "count-correct").startswith(f"CORRECT {c.CORRECT}"), "counts shown"
        )
        user.find(marker="grade-said")  # and the page says it
        await asyncio.sleep(DOUBLE_CLICK_SECONDS + 0.1)  # a later key is a new grade
    await user.should_see("5 graded by you")

    user.find(marker="class-set-export").click()
    await eventually(lambda: bool(user.download.http_responses), "downloaded")
    rows = list(csv.DictReader(io.StringIO(user.download.http_responses[-1].content.decode("utf-8-sig"))))
    assert [r["answer"] for r in rows] == ANSWERS
    assert sum(r["graded_by"] == "AUTHOR" for r in rows) >= 5


def _said(user: User) -> str:
    try:
        return text_of(user, "grade-said")
    except AssertionError:
        return ""


async def test_a_reopened_set_judges_the_rest_and_a_grade_is_taken_back(user: User) -> None:
    answers = [f"{ANSWERS[i % len(ANSWERS)]} ({i})" for i in range(55)]
    created = await service().create_class_set("default", TASK, ClassSetCreate(name="9a", answers=answers))
    await user.open(f"/tasks/default/{TASK}/class-sets/{created.classSetId}")
    # not judged yet (imported elsewhere, or the task changed): the first page is judged as read
    await user.should_see("55 answers · 50 judged", retries=JUDGING)
    user.find("Judge 5 answers").click()
    await user.should_see("55 answers · 55 judged", retries=JUDGING)
    await user.should_see(marker="verdict-header", retries=SLOW)  # grouped once judged
    with user:
        user.find(marker="class-set-order").elements.pop().value = ClassSetOrder.REVIEW
    await user.should_see(marker="review-answer", retries=SLOW)
    user.find(marker="grade-wrong").click()
    await user.should_see(marker="undo-grade", retries=SLOW)
    assert (await service().get_class_set("default", created.classSetId)).gradedCount == 1
    user.find(marker="undo-grade").click()
    await user.should_see("taken back", retries=SLOW)
    assert (await service().get_class_set("default", created.classSetId)).gradedCount == 0


BAD_FILES = [
    ("empty.csv", b"", "empty.csv holds no answers."),
    ("blank.txt", b"\n  \n", "blank.txt holds no answers."),
    ("marks.csv", b"name;score\nAnna;3\nBen;4\n", "marks.csv has no answer column"),
    ("latin.txt", "Die Glühbirne leuchtet.".encode("latin-1"), "latin.txt is not UTF-8 text (byte 6)"),
    ("long.txt", b"x" * 100_000, "long.txt, line 1: the answer has 100,000 characters"),
    (
        "huge.csv",
        b"answer\n" + b"y" * 50_000_000,
        "huge.csv is 50 MB; a file of answers may have at most 984 kB",
    ),
]
"""(file name, its bytes, what the author is told); the tests are named by the file."""


@pytest.mark.parametrize(("name", "data", "message"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
async def test_a_bad_file_says_what_is_wrong_and_leaves_no_set(
    user: User, name: str, data: bytes, message: str
) -> None:
    await user.open(TAB)
    await user.should_see("No class sets yet", retries=SLOW)
    await upload(user, name, data)
    await user.should_see(message, retries=SLOW)
    await user.should_not_see(marker="class-set-start")
    assert await sets() == 0


async def test_a_file_the_browser_refuses_is_named_with_its_size(user: User) -> None:
    await user.open(TAB)
    await user.should_see("At most 984 kB a file.", retries=SLOW)
    upload_element = user.find(marker="class-set-upload").elements.pop()
    assert upload_element.props["max-file-size"] == 1_000_000 - 16 * 1024
    user.find(marker="class-set-upload").trigger("rejected", [{"name": "huge.csv", "size": 50_000_000}])
    await user.should_see(
        "huge.csv is 50 MB; a file of answers may have at most 984 kB here: nothing was imported."
    )
    assert await sets() == 0


async def test_duplicates_are_reported_before_anything_is_imported(user: User) -> None:
    await user.open(TAB)
    await upload(
        user, "twice.txt", b"The bulb is magic.\nthe wire\nThe bulb is magic.\n\nThe bulb is magic.\n"
    )
    await user.should_see(
        "twice.txt: 4 answers · 2 repeat an earlier answer (kept; a grade goes to all) · 1 blank left out",
        retries=SLOW,
    )
    assert await sets() == 0


async def test_a_cancelled_import_keeps_nothing(user: User) -> None:
    answers = [f"{ANSWERS[i % len(ANSWERS)]} ({i})" for i in range(400)]
    await import_file(user, "big-class.txt", "\n".join(answers).encode())
    await user.should_see(marker="class-set-cancel", retries=SLOW)
    [cancel] = user.find(marker="class-set-cancel").elements
    await eventually(lambda: cancel.enabled, "cancel offered")  # once the set judges a batch at a time
    user.find(marker="class-set-cancel").click()
    await user.should_see("Import cancelled: nothing was kept.", retries=JUDGING)
    assert await sets() == 0
    await user.should_see(marker="class-set-start")  # the file is still there to import


async def test_a_set_whose_task_is_deleted_says_so(user: User) -> None:
    created = await service().create_class_set(
        "default", TASK, ClassSetCreate(name="8c", answers=ANSWERS[:3])
    )
    await user.open(f"/tasks/default/{TASK}/class-sets/{created.classSetId}")
    await user.should_see("8c", retries=SLOW)
    await service().delete_task("default", TASK)
    user.find(marker="class-set-export").click()
    await user.should_see(f"The task {TASK} was deleted", retries=SLOW)
    await user.should_see("Its class sets were deleted with it")
    await user.open(f"/tasks/default/{TASK}/class-sets/{created.classSetId}")  # opened again: the same
    await user.should_see(f"The task {TASK} was deleted", retries=SLOW)


async def test_a_deleted_set_is_gone_from_the_tab(user: User) -> None:
    created = await service().create_class_set(
        "default", TASK, ClassSetCreate(name="6d", answers=ANSWERS[:2])
    )
    await user.open(f"/tasks/default/{TASK}/class-sets/{created.classSetId}")
    await user.should_see("6d", retries=SLOW)
    user.find(marker="class-set-delete").click()
    await user.should_see("Delete the class set “6d”?")
    user.find(marker="class-set-delete-confirm").click()
    await user.should_see("Class set “6d” deleted.", retries=SLOW)
    await user.should_see("No class sets yet", retries=SLOW)
    assert await sets() == 0


async def test_a_double_press_grades_once(user: User) -> None:
    created = await service().create_class_set("default", TASK, ClassSetCreate(name="5e", answers=ANSWERS))
    await service().judge_class_set("default", created.classSetId, ClassSetJudgeRequest(limit=100))
    await user.open(f"/tasks/default/{TASK}/class-sets/{created.classSetId}")
    await user.should_see(marker="class-set-order", retries=SLOW)
    with user:
        user.find(marker="class-set-order").elements.pop().value = ClassSetOrder.REVIEW
    await user.should_see(marker="review-answer", retries=SLOW)
    card = user.find(marker="class-set-review")
    card.trigger("keydown.c.exact")
    card.trigger("keydown.w.exact")  # another key while the first grade is on its way
    await user.should_see(marker="undo-grade", retries=SLOW)
    card.trigger("keydown.c.exact")  # the second press of a double press, just after the grade came back
    await asyncio.sleep(0.3)
    assert (await service().get_class_set("default", created.classSetId)).gradedCount == 1
    await asyncio.sleep(DOUBLE_CLICK_SECONDS)
    card.trigger("keydown.p.exact")  # a later press grades the next answer
    await eventually(lambda: "PARTIAL" in _said(user), "graded PARTIAL")
    assert (await service().get_class_set("default", created.classSetId)).gradedCount == 2


async def test_the_tab_and_the_set_speak_german(user: User) -> None:
    await user.open("/settings")
    with user:
        user.find(marker="ui-language").elements.pop().value = "de"
    await user.open(TAB)
    await user.should_see("Noch keine Klassensätze", retries=SLOW)
    await user.should_see("Antworten einer Klasse importieren")
    await upload(user, "7b.txt", "\n".join(ANSWERS).encode())
    await user.should_see("7b.txt: 10 Antworten", retries=SLOW)
    await user.should_see("Importieren und beurteilen")


async def test_only_free_text_tasks_have_the_tab(user: User) -> None:
    await user.open("/tasks/default/mc-photosynthesis-en")
    await user.should_see("Versions", retries=SLOW)
    await user.should_not_see("Class sets")


async def test_against_a_remote_service(user: User, live_server) -> None:
    token = await live_server.token()
    await user.open("/settings")
    user.find("Remote service of the API").click()
    user.find("Base URL").type(live_server.base_url)
    user.find("Bearer token").type(token)
    user.find("Save and check").click()
    await user.should_see(f"Service: OK ({live_server.base_url})", retries=SLOW)

    await import_file(user, "remote.txt", "\n".join(ANSWERS[:6]).encode())
    await user.should_see("6 answers imported into “remote” and judged.", retries=JUDGING)
    await user.should_see("6 answers · 6 judged · 0 graded by you", retries=SLOW)
    with user:
        user.find(marker="class-set-order").elements.pop().value = ClassSetOrder.REVIEW
    await user.should_see(marker="review-answer", retries=SLOW)
    user.find(marker="class-set-review").trigger("keydown.w.exact")
    await user.should_see("graded WRONG", retries=SLOW)
    await user.should_see("1 graded by you", retries=SLOW)
    user.find(marker="class-set-export").click()
    await eventually(lambda: bool(user.download.http_responses), "downloaded")
    rows = list(csv.DictReader(io.StringIO(user.download.http_responses[-1].content.decode("utf-8-sig"))))
    assert len(rows) == 6 and any(r["graded_by"] == "AUTHOR" for r in rows)


async def test_a_set_that_is_not_there_says_so(user: User) -> None:
    await user.open(f"/tasks/default/{TASK}/class-sets/cs-nowhere")
    await user.should_see("This class set is not available", retries=SLOW)
    await user.should_see("Class sets of the task")


def test_the_export_is_named_after_the_set() -> None:
    assert export_name("7b / Physik: Montag") == "7b-Physik-Montag.csv"
    assert export_name("Classe 3ème") == "Classe-3ème.csv"
    assert export_name("  ..  ") == "class-set.csv"
