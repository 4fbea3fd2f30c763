"""One look for every page: colours, dark mode, the frame (header, navigation drawer) and states.

Verdict colours are Quasar colour names so badges, chips and the evidence marks in answers agree;
the marks get CSS classes of their own because they live inside escaped HTML, not Quasar elements.
Text in those colours (fs-good, fs-bad, fs-changed) has classes of its own too: a shade that
reads on a light page and a lighter one on a dark page, where Quasar's deep red would not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from nicegui import app, ui

from core.api import Correctness
from core.client.vocabulary import verdict_label_source
from webui.i18n import N_, _

APP_TITLE = "Feedback Studio"
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<rect width="64" height="64" rx="14" fill="#4f46e5"/>'
    '<path d="M16 20h32v18H30l-9 8v-8h-5z" fill="#fff"/>'
    '<circle cx="26" cy="29" r="3" fill="#4f46e5"/><circle cx="38" cy="29" r="3" fill="#4f46e5"/></svg>'
)

VERDICT_COLORS: dict[str, str] = {
    Correctness.CORRECT: "positive",
    Correctness.PARTIAL: "warning",
    Correctness.WRONG: "negative",
    Correctness.UNKNOWN: "grey-8",
}

# Text meets WCAG AA (contrast 4.5:1) in both modes; tests/webui/test_theme.py computes every pair.
# One brand colour cannot carry white text (header, buttons) and be text on a dark page too, so
# dark mode keeps the brand colours as backgrounds and gives their text a light shade.
BRAND = {"primary": "#4f46e5", "secondary": "#0369a1", "accent": "#9333ea", "positive": "#15803d"}
DARK_TEXT = {
    "primary": "#a5b4fc",
    "secondary": "#7dd3fc",
    "accent": "#d8b4fe",
    # verdict text, outlined badges and chips (a misconception, a missed concept) on a dark page
    "positive": "#4ade80",
    "negative": "#f87171",
}
LIGHT_TEXT = {"warning": "#b45309"}
"""Text in Quasar's amber (a PARTIAL verdict) is 1.6:1 on a light page: a dark amber there."""
QUASAR = {"negative": "#c10015", "warning": "#f2c037", "grey-8": "#616161", "grey-3": "#eeeeee"}
"""Quasar's own shades of the colours we leave as they are."""
ICON_GREY = ("grey-7", "#757575")
"""Quiet icon buttons (a card's duplicate, export, delete): WCAG's 3:1 for icons on light and dark."""
DARK_PAGE, DARK_CARD = "#121212", "#1d1d1d"
"""Quasar's dark page and card backgrounds."""
VERDICT_TEXT = {  # class: (on a light page, on a dark page)
    "fs-good": ("#15803d", "#4ade80"),
    "fs-bad": ("#b91c1c", "#f87171"),
    "fs-changed": ("#b45309", "#fbbf24"),
    "fs-unknown": ("#4b5563", "#9ca3af"),
}
VERDICT_TEXT_CLASSES: dict[str, str] = {  # by verdict; a verdict is its own string
    Correctness.CORRECT: "fs-good",
    Correctness.PARTIAL: "fs-changed",
    Correctness.WRONG: "fs-bad",
    Correctness.UNKNOWN: "fs-unknown",
}
"""Text (or a glyph such as the library's verdict dots) in a verdict's colour, readable in both modes."""
TOOLTIP = "#424242"
"""Tooltips: Quasar's grey-7 gives its 10 px white text 4.6:1, none to spare while it fades in."""
FOCUS_RING = {"light": ("#ffffff", "#4f46e5"), "dark": ("#121212", "#a5b4fc")}
"""The keyboard focus ring: a gap in the page's colour, then a ring in the brand colour (light mode)
or its light shade (dark mode), so it shows on the page, on a card, on a filled button and on the
header alike. It is drawn as a box shadow: Quasar's buttons carry ``no-outline``, whose !important
outline: 0 sits in a cascade layer no rule of ours can override."""
VERDICT_ICONS: dict[str, str] = {
    Correctness.CORRECT: "check_circle",
    Correctness.PARTIAL: "contrast",
    Correctness.WRONG: "cancel",
    Correctness.UNKNOWN: "help",
}
CHART_COLORS = {"CORRECT": "#16a34a", "PARTIAL": "#f59e0b", "WRONG": "#dc2626", "UNKNOWN": "#9ca3af"}

NAVIGATION = [
    (N_("Library"), "library_books", "/"),
    (N_("Tutor chat"), "forum", "/tutor"),
    (N_("Simulation"), "theater_comedy", "/simulation"),
    (N_("Settings"), "settings", "/settings"),
]

CSS = (
    # Quasar's .text-primary is `color: var(--q-primary) !important` inside a cascade layer, where
    # an !important rule of ours cannot win: the element's own --q-primary is what changes.
    "".join(f".body--dark .text-{name} {{ --q-{name}: {shade}; }}\n" for name, shade in DARK_TEXT.items())
    + "".join(
        f"body:not(.body--dark) .text-{name} {{ --q-{name}: {shade}; }}\n"
        for name, shade in LIGHT_TEXT.items()
    )
    + "".join(
        f".{name} {{ color: {light}; }}\n.body--dark .{name} {{ color: {dark}; }}\n"
        for name, (light, dark) in VERDICT_TEXT.items()
    )
    + """
mark.fs-mark { border-radius: 3px; padding: 0 2px; color: inherit; }
mark.fs-correct { background: rgba(22, 163, 74, .28); border-bottom: 2px solid #16a34a; }
mark.fs-partial { background: rgba(245, 158, 11, .30); border-bottom: 2px solid #f59e0b; }
mark.fs-wrong { background: rgba(220, 38, 38, .25); border-bottom: 2px solid #dc2626; }
mark.fs-unknown { background: rgba(156, 163, 175, .30); border-bottom: 2px solid #9ca3af; }
.fs-answer { white-space: pre-wrap; line-height: 1.9; }
tr.fs-retest-failed > td:first-child { box-shadow: inset 4px 0 #dc2626; }
tr.fs-retest-changed > td:first-child { box-shadow: inset 4px 0 #f59e0b; }
.fs-bubble .q-message-text-content { white-space: normal; }
.fs-bubble .q-message-text-content p { margin: 0 0 .4em 0; }
.fs-bubble .q-message-text-content p:last-child { margin-bottom: 0; }
"""
    # the learner's own bubble is white on the brand colour in both modes, not on its light shade
    + f".body--dark .q-message-text.text-primary {{ --q-primary: {BRAND['primary']}; }}\n"
    + f".q-tooltip {{ background: {TOOLTIP}; }}\n"
    + "".join(
        f"{scope} :is(.q-btn, .q-chip, .q-checkbox, .q-radio, .q-toggle, a):focus-visible "
        f"{{ box-shadow: 0 0 0 2px {gap}, 0 0 0 4px {ring}; }}\n"
        f"{scope} :is(.q-tab, .q-item):focus-visible {{ box-shadow: inset 0 0 0 3px {ring}; }}\n"
        for scope, (gap, ring) in (("body", FOCUS_RING["light"]), (".body--dark", FOCUS_RING["dark"]))
    )
    # on the header (the brand colour) the ring is white
    + ".q-header .q-btn:focus-visible { box-shadow: 0 0 0 2px #ffffff; }\n"
)


ERROR_PAGE_CSS = '.body--dark [style*="color: rgb(107, 114, 128)"] { color: #9ca3af !important; }\n'
"""NiceGUI's error page (a 404, say) writes its message in a grey that a dark page makes 3.9:1."""


PROGRESS_BAR_NAME = """<script>
new MutationObserver(() => document.querySelectorAll(".q-loading-bar:not([aria-label])")
  .forEach((bar) => bar.setAttribute("aria-label", %s)))
  .observe(document.documentElement, {childList: true, subtree: true});
</script>"""
"""Quasar's loading bar (shown while an upload is sent) is a progress bar without a name; the
page names every one that appears."""


def use_shared_css() -> None:
    """CSS of every page, NiceGUI's own error page included (which is built without ``frame``)."""
    ui.add_css(ERROR_PAGE_CSS, shared=True)


def verdict_color(verdict: str) -> str:
    """Quasar colour of a verdict; StrEnum keys let plain strings from the wire look it up."""
    return VERDICT_COLORS.get(verdict, "grey")


def verdict_word(verdict: str) -> str:
    """A verdict's name in the browser's language ("RICHTIG")."""
    return _(verdict_label_source(verdict))


def verdict_badge(verdict: str) -> ui.badge:
    color = verdict_color(verdict)
    text = "black" if color == "warning" else "white"  # white on amber is hard to read
    return ui.badge(verdict_word(verdict), color=color, text_color=text).classes("text-xs")


def verdict_chip(verdict: str) -> ui.chip:
    """A verdict with its icon, for places that compare verdicts side by side (a retest, say)."""
    icon = VERDICT_ICONS.get(verdict, "help")
    color = verdict_color(verdict)
    text = "black" if color == "warning" else "white"  # white on amber is hard to read
    return ui.chip(verdict_word(verdict), icon=icon, color=color, text_color=text).props("dense square")


@contextmanager
def frame(title: str, *, navigation: bool = True) -> Iterator[ui.column]:
    """The page around the content: header with navigation, dark mode, and a centred column.

    The drawer shows beside the content on a laptop and folds behind the menu button on a phone;
    learners' pages go without it (they have nowhere else to go).
    """
    ui.colors(**BRAND)
    ui.add_css(CSS)
    ui.add_head_html(PROGRESS_BAR_NAME % json.dumps(_("Working")))
    ui.page_title(f"{title} · {APP_TITLE}")
    dark = ui.dark_mode(None).bind_value(app.storage.user, "dark")  # None: follow the system until chosen
    drawer: ui.left_drawer  # made below the header, whose menu button toggles it
    with ui.header(elevated=True).classes("items-center gap-2 px-3 py-2 bg-primary"):
        if navigation:
            menu = _("Menu")
            ui.button(icon="menu", on_click=lambda: drawer.toggle()).props(
                f'flat round color=white dense aria-label="{menu}"'
            )
        ui.html(FAVICON, sanitize=False).classes("w-7 h-7")
        ui.label(APP_TITLE).classes("text-lg font-semibold text-white max-sm:hidden")
        ui.label(f"· {title}").classes("text-lg text-white/80 truncate")
        ui.space()
        dark_mode = _("Dark mode")
        ui.button(icon="dark_mode", on_click=lambda: dark.set_value(not dark.value)).props(
            f'flat round color=white dense aria-label="{dark_mode}"'
        ).tooltip(dark_mode)
    if navigation:
        with (
            ui.left_drawer(bordered=True).props("width=220 breakpoint=900") as drawer,
            ui.list().classes("w-full"),
        ):
            for label, icon, target in NAVIGATION:
                with ui.item().props(f'clickable href="{target}"'):  # a real link: opens in a new tab too
                    with ui.item_section().props("avatar"):
                        ui.icon(icon, color="primary")
                    ui.item_section(_(label))
    with ui.column().classes("w-full max-w-6xl mx-auto p-2 sm:p-4 gap-4") as content:
        for message, options in app.storage.user.pop(FLASH_KEY, []):
            ui.notify(message, **options)
        yield content


FLASH_KEY = "flash"


def notify_on_next_page(message: str, **options: Any) -> None:
    """A notification (``ui.notify``'s options) for the page the browser goes to next: a save that
    reloads its page, or opens the new task's, would otherwise take its notifications with it."""
    app.storage.user[FLASH_KEY] = [*app.storage.user.get(FLASH_KEY, []), (message, options)]


def empty_state(icon: str, message: str, hint: str) -> ui.column:
    """What to show where there is nothing yet: what it is and what to do next."""
    with ui.column().classes("w-full items-center text-center py-10 gap-2") as box:
        ui.icon(icon, size="3rem").classes("text-grey-5")
        ui.label(message).classes("text-lg")
        ui.label(hint).classes("text-sm opacity-70 max-w-md")
    return box


def section_title(text: str) -> ui.label:
    return ui.label(text).classes("text-base font-semibold text-primary")


@contextmanager
def dialog(width: str = "min-w-80") -> Iterator[ui.dialog]:
    """An open dialog around a card; it removes itself once closed, so closed dialogs do not pile up."""
    with ui.dialog() as box, ui.card().classes(f"{width} gap-2").mark("dialog"):
        yield box
    box.on_value_change(lambda e: None if e.value else box.delete())
    box.open()
