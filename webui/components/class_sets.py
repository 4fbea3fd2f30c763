"""The Class sets tab of a free-text task's page: the task's class sets, and importing a file of a
class's answers into a new one (docs/webui.md, "Class sets").

A file is read here with core.client.class_sets.read_answers, so the web app and the terminal app
accept and refuse the same files with the same messages; nothing is sent before the file is read
whole. An import is all or nothing (core.client.class_sets.import_set): a cancelled or failed one
leaves no set behind. The page of one set is webui.pages.class_set.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from urllib.parse import quote

from nicegui import events, ui

from core.api import TaskBase
from core.api.class_sets import CLASS_SET_MAX_ANSWERS, ClassSet
from core.client.class_sets import (
    MAX_FILE_BYTES,
    NO_CLASS_SETS,
    SUFFIXES,
    ImportProblem,
    ReadAnswers,
    import_set,
    read_answers,
)
from webui.components.busy import sends
from webui.components.task_files import upload_limit
from webui.i18n import N_, _, date_time, language, number, plural
from webui.page_services import PageServices, failure_text, reporting
from webui.theme import dialog, empty_state, notify_on_next_page, section_title

TAB = N_("Class sets")
ACCEPTED = ",".join(SUFFIXES)
NAME_MAX = 200
"""The longest name of a set (core.api.class_sets.ClassSetCreate)."""


def set_link(tenant: str, task_id: str, set_id: str) -> str:
    """The page of one class set."""
    return f"/tasks/{quote(tenant)}/{quote(task_id)}/class-sets/{quote(set_id)}"


def tab_link(tenant: str, task_id: str) -> str:
    """The task page opened on its Class sets tab."""
    return f"/tasks/{quote(tenant)}/{quote(task_id)}?tab={quote(TAB)}"


def file_limit(max_body_bytes: int) -> int:
    """The largest file of answers the web app takes: a class's answers (core.client.class_sets),
    and no more than the server takes in one upload."""
    return min(MAX_FILE_BYTES, upload_limit(max_body_bytes))


def byte_size(size: float) -> str:
    """A file size as the language writes it: "984 kB", "2.5 MB"."""
    return f"{number(size / 1e6, 1)} MB" if size >= 1_000_000 else f"{number(size / 1e3, 0)} kB"


def too_big(name: str, size: float, limit: int) -> str:
    return _(
        "{file} is {size}; a file of answers may have at most {limit} here: nothing was imported."
    ).format(file=name, size=byte_size(size), limit=byte_size(limit))


def set_facts(summary: ClassSet) -> str:
    """One line about a set: its answers, how many are judged and graded, when it was imported."""
    answers = summary.answerCount
    return " · ".join(
        [
            plural("{count} answer", "{count} answers", answers).format(count=number(answers, 0)),
            _("{count} judged").format(count=number(summary.judgedCount, 0)),
            plural("{count} graded by you", "{count} graded by you", summary.gradedCount).format(
                count=number(summary.gradedCount, 0)
            ),
            _("imported {when}").format(when=date_time(summary.createdAt)),
        ]
    )


NAME_UPLOADER = """
(function name(tries) {
  const root = getHtmlElement(%(id)d);
  if (!root) { if (tries < 100) setTimeout(() => name(tries + 1), 100); return; }
  const label = %(label)s;
  const apply = () => root.querySelectorAll('.q-uploader__input, .q-uploader__header a.q-btn').forEach(
    (element) => element.getAttribute('aria-label') === label || element.setAttribute('aria-label', label));
  apply();
  new MutationObserver(apply).observe(root, {childList: true, subtree: true});
})(0);
"""


def name_uploader(upload: ui.upload, label: str) -> None:
    """Give Quasar's uploader a name where it has none: its add button (an icon) and the file input
    inside it, drawn anew as files come and go, so named again whenever they are."""
    ui.run_javascript(NAME_UPLOADER % {"id": upload.id, "label": json.dumps(label)})


class ClassSetsPanel:
    """The task's class sets (each a link to its page, deleted after asking) and the import."""

    def __init__(self, studio: PageServices, tenant: str, task: TaskBase) -> None:
        self.studio = studio
        self.tenant = tenant
        self.task = task
        self.limit = file_limit(studio.settings.max_body_bytes)
        self.read: ReadAnswers | None = None
        self.file_name = ""
        self.running: asyncio.Task[ClassSet] | None = None
        """The import on its way (Cancel cancels it)."""

    async def build(self) -> None:
        self.dialogs = ui.element("div")
        self.body = ui.column().classes("w-full gap-2").mark("class-sets")
        self._import_card()
        await self.load()

    async def load(self) -> None:
        with reporting(_("Loading the class sets")):
            service = await self.studio.service()
            listed = await service.list_class_sets(self.tenant, self.task.id)
            self._show(sorted(listed, key=lambda s: s.createdAt, reverse=True))

    def _show(self, sets: list[ClassSet]) -> None:
        self.body.clear()
        with self.body:
            if not sets:
                empty_state(
                    "groups",
                    _(NO_CLASS_SETS),
                    _("Every answer is judged; you grade a few, and the other verdicts follow your grades."),
                ).mark("no-class-sets")
                return
            with ui.list().props("bordered separator").classes("w-full rounded-borders"):
                for summary in sets:
                    self._row(summary)

    def _row(self, summary: ClassSet) -> None:
        name = summary.name or _("(no name)")
        link = set_link(self.tenant, self.task.id, summary.classSetId)
        with ui.item().mark(f"class-set-{summary.classSetId}"):
            with ui.item_section().props("avatar"):
                ui.icon("groups", color="primary").props("aria-hidden=true")
            with ui.item_section():
                ui.link(name, link).classes("text-base font-medium text-primary no-underline").mark(
                    "class-set-link"
                )
                ui.item_label(set_facts(summary)).props("caption")
            with ui.item_section().props("side"):
                label = _("Delete the class set “{name}”").format(name=name)
                ui.button(icon="delete", on_click=lambda s=summary: self._confirm_delete(s)).props(
                    f'flat dense round color=negative aria-label="{label}"'
                ).tooltip(_("Delete")).mark("class-set-delete")

    def _confirm_delete(self, summary: ClassSet) -> None:
        name = summary.name or _("(no name)")

        async def delete() -> None:
            with reporting(_("Deleting the class set")):
                await (await self.studio.service()).delete_class_set(self.tenant, summary.classSetId)
                ui.notify(_("Class set “{name}” deleted.").format(name=name))
                box.close()  # last: closing deletes the dialog, the context of this handler
            await self.load()

        with self.dialogs, dialog("max-w-lg") as box:
            ui.label(_("Delete the class set “{name}”?").format(name=name)).classes("text-lg")
            ui.label(
                _("Its {count} answers and your grades are deleted. This cannot be undone.").format(
                    count=number(summary.answerCount, 0)
                )
            ).classes("text-sm opacity-70")
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                sends(ui.button(_("Delete"), icon="delete"), delete).props("unelevated color=negative").mark(
                    "class-set-delete-confirm"
                )

    # --- the import ------------------------------------------------------------------------------

    def _import_card(self) -> None:
        with ui.card().classes("w-full gap-2").props("flat bordered").mark("class-set-import"):
            section_title(_("Import a class's answers"))
            ui.label(
                _(
                    "A CSV file whose header row names the answer column, JSON Lines, or a text file with "
                    "one answer per line; UTF-8; at most {count} answers."
                ).format(count=number(CLASS_SET_MAX_ANSWERS, 0))
            ).classes("text-sm opacity-70")
            self.upload = ui.upload(
                label=_("File of answers"),
                on_upload=self._received,
                auto_upload=True,
                max_file_size=self.limit,
            )
            self.upload.props(f'accept="{ACCEPTED}" flat bordered').classes("w-full max-w-xl")
            self.upload.mark("class-set-upload")
            name_uploader(self.upload, _("Choose a file of answers"))
            # what the browser refused to send (too big): names and sizes only
            self.upload.on(
                "rejected",
                self._rejected,
                js_handler="(entries) => emit(entries.map((e) => ({name: e.file.name, size: e.file.size})))",
            )
            self.upload.on(
                "failed",
                self._failed,
                js_handler="(info) => emit(info.files.map((f) => ({name: f.name, status: info.xhr.status})))",
            )
            ui.label(_("At most {size} a file.").format(size=byte_size(self.limit))).classes(
                "text-xs opacity-70"
            )
            self.problem = ui.label().classes("fs-bad whitespace-pre-wrap").props('role="alert"')
            self.problem.mark("class-set-problem").set_visibility(False)

            with ui.column().classes("w-full gap-2") as self.ready:
                self.summary = ui.label().classes("text-sm").mark("class-set-summary")
                with ui.row().classes("w-full items-center gap-2"):
                    self.name = (
                        ui.input(
                            _("Name of the set"),
                            validation={
                                _("At most {count} characters").format(count=NAME_MAX): lambda v: (
                                    len(v or "") <= NAME_MAX
                                )
                            },
                        )
                        .props("outlined dense")
                        .classes("w-72")
                        .mark("class-set-name")
                    )
                    self.start = sends(
                        ui.button(_("Import and judge"), icon="playlist_add_check"), self._import
                    )
                    self.start.props("unelevated").mark("class-set-start")
            self.ready.set_visibility(False)

            with ui.column().classes("w-full gap-1") as self.progress:
                self.bar = ui.linear_progress(value=0, show_value=False, size="10px").classes("w-full")
                name = _("Import progress")  # outside the f-string, where `make translations` finds it
                self.bar.props(f'aria-label="{name}"').mark("class-set-progress")
                with ui.row().classes("w-full items-center gap-2"):
                    self.progress_text = ui.label().classes("text-sm").props('aria-live="polite"')
                    ui.space()
                    self.cancel = ui.button(_("Cancel"), icon="close", on_click=self._cancel).props("outline")
                    self.cancel.mark("class-set-cancel")
            self.progress.set_visibility(False)

    def _say(self, message: str) -> None:
        self.problem.set_text(message)
        self.problem.set_visibility(bool(message))

    async def _received(self, event: events.UploadEventArguments) -> None:
        name = event.file.name
        self.upload.reset()
        if event.file.size() > self.limit:  # the browser refuses these; whatever came anyway
            self._refuse(name, event.file.size())
            return
        try:
            read = read_answers(name, await event.file.read(), language())
        except ImportProblem as exc:
            self._say(str(exc))
            self.ready.set_visibility(False)
            self.read = None
            return
        self._say("")
        self.read, self.file_name = read, name
        self.summary.set_text(f"{name}: {read.summary(language())}")
        self.name.set_value(Path(name).stem[:NAME_MAX])
        self.ready.set_visibility(True)

    def _refuse(self, name: str, size: float) -> None:
        self._say(too_big(name, size, self.limit))
        self.ready.set_visibility(False)
        self.read = None

    def _rejected(self, event: events.GenericEventArguments) -> None:
        for entry in event.args or []:
            self._refuse(str(entry.get("name", "")), float(entry.get("size", 0)))

    def _failed(self, event: events.GenericEventArguments) -> None:
        for entry in event.args or []:
            self._say(
                _("{file} was not imported: the upload failed ({status})").format(
                    file=entry.get("name", ""), status=entry.get("status", "")
                )
            )

    async def _import(self) -> None:
        read, file = self.read, self.file_name
        if read is None or (self.name.value and len(self.name.value) > NAME_MAX):
            return
        name = (self.name.value or "").strip()
        self.ready.set_visibility(False)
        self._say("")
        self.bar.set_value(0)
        self.progress_text.set_text(
            plural("Sending {count} answer…", "Sending {count} answers…", len(read.answers)).format(
                count=number(len(read.answers), 0)
            )
        )
        # stopping is offered once the set is there and judged a batch at a time: an import stopped
        # while the set is still being created could not say it kept nothing
        self.cancel.disable()
        self.progress.set_visibility(True)
        self.upload.disable()

        def progress(current: ClassSet) -> None:
            if self.bar.is_deleted:
                return
            self.bar.set_value(current.judgedCount / max(current.answerCount, 1))
            self.progress_text.set_text(
                _("Judging: {judged} of {count} answers").format(
                    judged=number(current.judgedCount, 0), count=number(current.answerCount, 0)
                )
            )
            self.cancel.enable()

        try:
            service = await self.studio.service()
            self.running = asyncio.create_task(
                import_set(service, self.tenant, self.task.id, name, read.answers, progress)
            )
            created = await self.running
        except asyncio.CancelledError:
            if (current := asyncio.current_task()) is not None and current.cancelling():
                raise  # the page itself is going away
            self._after_import(_("Import cancelled: nothing was kept."))
            return
        except Exception as exc:  # said on the page, in the API's words or with an error id
            self._after_import(
                _("{file} was not imported: {reason}. Nothing was kept.").format(
                    file=file, reason=failure_text(exc).rstrip(".")
                )
            )
            return
        finally:
            self.running = None
        notify_on_next_page(
            plural(
                "{count} answer imported into “{name}” and judged.",
                "{count} answers imported into “{name}” and judged.",
                created.answerCount,
            ).format(count=number(created.answerCount, 0), name=created.name or _("(no name)")),
            type="positive",
        )
        ui.navigate.to(set_link(self.tenant, self.task.id, created.classSetId))

    def _after_import(self, message: str) -> None:
        if self.progress.is_deleted:
            return
        self.progress.set_visibility(False)
        self.upload.enable()
        self.ready.set_visibility(self.read is not None)
        self._say(message)

    def _cancel(self) -> None:
        if self.running is not None:
            self.running.cancel()
