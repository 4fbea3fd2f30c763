"""The end-user rating of one interaction (API.md 2.7): thumbs up or down, a reason, a remark.

Created on the first send and replaced by later ones, as the API does; the reasons offered
follow the thumb, so a GOOD rating cannot carry a complaint.
"""

from __future__ import annotations

from nicegui import ui

from core.api import EndUserRating, RatingSubtype, RatingType
from core.client.vocabulary import RATING_SUBTYPES, SUBTYPE_LABELS
from webui.components.busy import sends
from webui.i18n import _
from webui.page_services import PageServices, reporting


def rating_bar(studio: PageServices, interaction_id: str, rating: EndUserRating | None = None) -> None:
    """Rate the feedback of an interaction; an existing ``rating`` is shown and can be changed
    (sending again replaces it, as the API does)."""

    async def send() -> None:
        if not thumb.value:  # no default: a rating sent without a choice would read as praise
            ui.notify(_("Choose Good or Bad first"), type="warning")
            return
        rating = EndUserRating(
            type=RatingType(thumb.value),
            subtype=RatingSubtype(reason.value) if reason.value else None,
            message=remark.value.strip() or None,
        )
        with reporting(_("Rating")):
            await (await studio.service()).rate_interaction(interaction_id, rating)
            ui.notify(_("Thanks: the rating is saved"), type="positive")
            status.set_text(_("Rated: {rating}").format(rating=_rating_text(rating)))

    def offer_reasons() -> None:
        subtypes = RATING_SUBTYPES[RatingType(thumb.value)] if thumb.value else []
        reason.set_options({s.value: subtype_label(s) for s in subtypes}, value=None)
        reason.set_enabled(bool(thumb.value))

    with ui.row().classes("w-full items-center gap-2"):
        ui.label(_("Rate this feedback")).classes("text-sm opacity-70")
        thumb = (
            ui.toggle(
                {RatingType.GOOD.value: _("Good"), RatingType.BAD.value: _("Bad")},
                value=rating.type.value if rating else None,  # nothing chosen until the user chooses
                on_change=offer_reasons,
            )
            .props("dense no-caps")
            .mark("rating-thumb")
        )
        reason = ui.select({}, label=_("Reason"), clearable=True).classes("min-w-48").props("dense outlined")
        remark = ui.input(placeholder=_("Remark (optional)"), value=rating.message or "" if rating else "")
        remark.classes("grow").props("dense outlined").props["aria-label"] = _("Remark (optional)")
        sends(ui.button(_("Send rating"), icon="send"), send).props("flat dense").mark("send-rating")
        offer_reasons()
        if rating is not None and rating.subtype is not None:
            reason.set_value(rating.subtype.value)
    status = ui.label(_("Rated: {rating}").format(rating=_rating_text(rating)) if rating else "")
    status.classes("text-xs opacity-70").mark("rating-status")


def subtype_label(subtype: RatingSubtype) -> str:
    """A rating reason in the page's language ("Too strict")."""
    return _(SUBTYPE_LABELS[subtype])


def _rating_text(rating: EndUserRating) -> str:
    thumb = _("Good") if rating.type is RatingType.GOOD else _("Bad")
    return " · ".join(
        [thumb, *([subtype_label(rating.subtype)] if rating.subtype else []), *filter(None, [rating.message])]
    )
