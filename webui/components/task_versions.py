"""The Versions tab of the task page: every version with its time and author, two of them side by
side, and an old one restored as the newest (core.client.task_history).

It compares the version before the newest with the newest; "Compare" on a row puts that version on
the left. "Restore" asks first, writes the left version on top of the newest one listed (so a save
the author has not seen is refused, not overwritten), and opens the page again on this tab: the
header, the editor and the other tabs then show the restored task.
"""

from __future__ import annotations

from urllib.parse import quote

from nicegui import app, ui

from core.api import TaskAction, TaskVersion, TaskVersionSummary
from core.client.task_history import Change, DiffRow, differs, restore_version, side_by_side
from webui.i18n import N_, _, date_time
from webui.page_services import PageServices, reporting
from webui.theme import dialog, empty_state

TAB = N_("Versions")
NOTICE_KEY = "versions_notice"
"""A message for the page opened after a restore (the page is loaded anew, notifications are not)."""
TINTS = {
    Change.SAME: "",
    Change.CHANGED: "fs-diff-changed",
    Change.REMOVED: "fs-diff-old",
    Change.ADDED: "fs-diff-new",
}
STYLE = """
.fs-diff td { font-family: ui-monospace, monospace; font-size: 0.8rem; white-space: pre-wrap;
  vertical-align: top; width: 50%; }
.fs-diff td.fs-diff-changed { background: rgba(245, 158, 11, 0.18); }
.fs-diff td.fs-diff-old { background: rgba(220, 38, 38, 0.15); }
.fs-diff td.fs-diff-new { background: rgba(22, 163, 74, 0.15); }
"""


class VersionsPanel:
    def __init__(self, studio: PageServices, tenant: str, task_id: str) -> None:
        self.studio = studio
        self.tenant = tenant
        self.task_id = task_id
        self.versions: list[TaskVersionSummary] = []
        self.definitions: dict[int, TaskVersion] = {}
        self.older = self.newer = 0

    async def build(self) -> None:
        ui.add_css(STYLE)
        if notice := app.storage.user.pop(NOTICE_KEY, None):
            ui.notify(notice, type="positive")
        with reporting(_("Loading the versions")):
            self.versions = await (await self.studio.service()).list_task_versions(self.tenant, self.task_id)
        if not self.versions:
            return
        self.newer = self.versions[0].version
        self.older = self.versions[min(1, len(self.versions) - 1)].version
        self._listing()
        self.comparison = ui.column().classes("w-full gap-2")
        await self.compare()

    def _listing(self) -> None:
        with ui.element("q-markup-table").props("flat bordered dense").classes("w-full"):
            with ui.element("thead"), ui.element("tr"):
                for column in (_("Version"), _("When"), _("Author"), _("Title"), ""):
                    with ui.element("th").classes("text-left"):
                        ui.label(column)
            with ui.element("tbody"):
                for v in self.versions:
                    with ui.element("tr").mark(f"version-{v.version}"):
                        for cell in (str(v.version), date_time(v.createdAt), v.author or "—", v.title):
                            with ui.element("td"):
                                ui.label(cell)
                        with ui.element("td").classes("text-right"):
                            if v.version != self.newer:
                                ui.button(
                                    _("Compare"),
                                    icon="compare_arrows",
                                    on_click=lambda n=v.version: self.pick(n),
                                ).props("flat dense no-caps").mark(f"compare-{v.version}")

    async def pick(self, older: int) -> None:
        self.older = older
        await self.compare()

    async def compare(self) -> None:
        with reporting(_("Reading a version")):
            old, new = await self._version(self.older), await self._version(self.newer)
            self.comparison.clear()
            with self.comparison:
                self._show(old, new)

    async def _version(self, number: int) -> TaskVersion:
        if number not in self.definitions:
            service = await self.studio.service()
            self.definitions[number] = await service.get_task_version(self.tenant, self.task_id, number)
        return self.definitions[number]

    def _show(self, old: TaskVersion, new: TaskVersion) -> None:
        if len(self.versions) == 1:
            empty_state(
                "history",
                _("This is the only version"),
                _("Every saved change of the task becomes a version here, to compare and to restore."),
            )
            return
        with ui.row().classes("w-full items-center"):
            ui.label(
                _("Version {old} (left) compared with version {new} (right)").format(
                    old=old.version, new=new.version
                )
            ).classes("text-base font-semibold mr-auto")
            ui.button(
                _("Restore version {n}").format(n=old.version),
                icon="restore",
                on_click=lambda: self._confirm(old),
            ).props("outline").mark("restore")
        rows = side_by_side(old.definition, new.definition)
        if not differs(rows):
            ui.label(_("The two versions are the same.")).classes("opacity-70")
            return
        _diff_table(rows, old.version, new.version)

    def _confirm(self, old: TaskVersion) -> None:
        newest = self.newer

        async def restore() -> None:
            with reporting(_("Restoring a version")):
                response = await restore_version(await self.studio.service(), old, current_version=newest)
                if response.action is TaskAction.UNCHANGED:
                    ui.notify(_("Version {n} is the same as the newest version.").format(n=old.version))
                else:
                    app.storage.user[NOTICE_KEY] = _(
                        "Version {n} is the task's newest version again."
                    ).format(n=old.version)
                    ui.navigate.to(f"/tasks/{quote(self.tenant)}/{quote(self.task_id)}?tab={quote(TAB)}")
                box.close()  # last: closing deletes the dialog, the context of this handler

        with dialog("max-w-lg") as box:
            ui.label(_("Restore version {n}?").format(n=old.version)).classes("text-lg")
            ui.label(_("It is saved as version {next}; no version is lost.").format(next=newest + 1)).classes(
                "text-sm opacity-70"
            )
            with ui.row().classes("w-full justify-end"):
                ui.button(_("Cancel"), on_click=box.close).props("flat")
                ui.button(_("Restore"), icon="restore", on_click=restore).props("unelevated")


def _diff_table(rows: list[DiffRow], old: int, new: int) -> None:
    with ui.element("q-markup-table").props("flat bordered dense wrap-cells").classes("w-full fs-diff"):
        with ui.element("thead"), ui.element("tr"):
            for number in (old, new):
                with ui.element("th").classes("text-left"):
                    ui.label(_("Version {n}").format(n=number))
        with ui.element("tbody"):
            for row in rows:
                with ui.element("tr").mark(f"diff-{row.change.value}"):
                    for text in (row.old, row.new):
                        with ui.element("td").classes(TINTS[row.change] if text is not None else ""):
                            ui.label(text or "")
