"""The end-user rating of one interaction: GOOD or BAD, a subtype that fits it, an optional note."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select

from core.api import EndUserRating, RatingSubtype, RatingType
from core.client.vocabulary import RATING_SUBTYPES
from tui.i18n import _
from tui.labels import subtype_label
from tui.service_calls import service_call, studio


def rating_summary(rating: EndUserRating) -> str:
    subtype = f" · {subtype_label(rating.subtype)}" if rating.subtype else ""
    kind = _("Good") if rating.type is RatingType.GOOD else _("Bad")
    return _("Rated {rating}{reason}").format(rating=kind, reason=subtype)


class RatingBar(Vertical):
    """Pick GOOD or BAD, then a subtype of that kind; rating again replaces the earlier rating."""

    DEFAULT_CLASSES = "rating-bar"

    def __init__(self, interaction_id: str, rating: EndUserRating | None = None) -> None:
        super().__init__()
        self.interaction_id = interaction_id
        self.rating = rating
        self.kind: RatingType | None = rating.type if rating else None

    def compose(self) -> ComposeResult:
        yield Label(_("Was this feedback helpful?"), classes="rating-question")
        with Horizontal(classes="rating-row"):
            yield Button("▲ " + _("Good"), id="rate-good", classes="rate-kind", compact=True)
            yield Button("▼ " + _("Bad"), id="rate-bad", classes="rate-kind", compact=True)
            yield Select[RatingSubtype]([], prompt=_("why? (optional)"), id="rate-subtype", compact=True)
        with Horizontal(classes="rating-row"):
            yield Input(placeholder=_("note (optional)"), id="rate-note", compact=True)
            yield Button(_("Send rating"), id="rate-send", variant="primary", compact=True, disabled=True)
        yield Label(rating_summary(self.rating) if self.rating else "", id="rate-status")

    def on_mount(self) -> None:
        if self.kind:
            self._choose(self.kind)

    def _choose(self, kind: RatingType) -> None:
        self.kind = kind
        self.query_one("#rate-good").set_class(kind is RatingType.GOOD, "-chosen")
        self.query_one("#rate-bad").set_class(kind is RatingType.BAD, "-chosen")
        subtypes = self.query_one("#rate-subtype", Select)
        subtypes.set_options((subtype_label(s), s) for s in RATING_SUBTYPES[kind])
        if self.rating and self.rating.type is kind and self.rating.subtype:
            subtypes.value = self.rating.subtype
        self.query_one("#rate-send", Button).disabled = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rate-good":
            self._choose(RatingType.GOOD)
        elif event.button.id == "rate-bad":
            self._choose(RatingType.BAD)
        elif event.button.id == "rate-send" and self.kind:
            subtypes: Select[RatingSubtype] = self.query_one("#rate-subtype", Select)
            note = self.query_one("#rate-note", Input).value.strip()
            self.send(
                EndUserRating(
                    type=self.kind,
                    subtype=subtypes.selection,
                    message=note or None,
                )
            )

    @work(exclusive=True, group="rating")
    async def send(self, rating: EndUserRating) -> None:
        async with service_call(self, _("Rating"), busy=self.query_one("#rate-send")):
            await (await studio(self).ready()).rate_interaction(self.interaction_id, rating)
            self.rating = rating
            self.query_one("#rate-status", Label).update(f"✔ {rating_summary(rating)}")
