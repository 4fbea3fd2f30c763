"""The web app's text meets WCAG AA (contrast ≥ 4.5:1) in light and dark mode (issue 21, item 5).

The ratios are computed from the colours webui.theme gives Quasar and its CSS, by WCAG 2.2's
definitions of relative luminance and contrast ratio.
"""

from __future__ import annotations

import pytest

from webui.theme import (
    BRAND,
    CSS,
    DARK_CARD,
    DARK_PAGE,
    DARK_TEXT,
    ICON_GREY,
    LIGHT_TEXT,
    QUASAR,
    VERDICT_COLORS,
    VERDICT_TEXT,
)

AA = 4.5
WHITE, BLACK = "#ffffff", "#000000"


def luminance(color: str) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(color[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(text: str, background: str) -> float:
    lighter, darker = sorted((luminance(text), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def faded(color: str, opacity: float, background: str) -> str:
    """Text at ``opacity`` (Tailwind's opacity-70 on secondary lines) as it shows on ``background``."""
    mixed = (
        round(opacity * int(color[i : i + 2], 16) + (1 - opacity) * int(background[i : i + 2], 16))
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{c:02x}" for c in mixed)


def test_the_ratio_is_computed_as_wcag_defines_it():
    assert contrast(WHITE, BLACK) == pytest.approx(21.0)
    assert contrast("#777777", WHITE) == pytest.approx(4.48, abs=0.01)  # the well-known near miss


@pytest.mark.parametrize("name", sorted(BRAND))
def test_white_text_on_every_brand_colour(name):
    """Header, buttons, the learner's chat bubble and verdict chips: white on the colour."""
    assert contrast(WHITE, BRAND[name]) >= AA


@pytest.mark.parametrize("name", sorted(DARK_TEXT))
@pytest.mark.parametrize("background", [DARK_PAGE, DARK_CARD])
def test_brand_coloured_text_on_a_dark_page(name, background):
    assert contrast(DARK_TEXT[name], background) >= AA
    assert f".body--dark .text-{name} {{ --q-{name}: {DARK_TEXT[name]}; }}" in CSS


@pytest.mark.parametrize("name", ["primary", "secondary", "accent"])
def test_brand_coloured_text_on_a_light_page(name):
    assert contrast(BRAND[name], WHITE) >= AA


@pytest.mark.parametrize("name", sorted(LIGHT_TEXT))
def test_amber_text_on_a_light_page(name):
    """Verdict text in the warning colour (PARTIAL) on a light page; the dark page keeps Quasar's."""
    assert contrast(LIGHT_TEXT[name], WHITE) >= AA
    assert min(contrast(QUASAR[name], DARK_PAGE), contrast(QUASAR[name], DARK_CARD)) >= AA
    assert f"body:not(.body--dark) .text-{name} {{ --q-{name}: {LIGHT_TEXT[name]}; }}" in CSS


@pytest.mark.parametrize("name", sorted(VERDICT_TEXT))
def test_verdict_text_in_both_modes(name):
    light, dark = VERDICT_TEXT[name]
    assert contrast(light, WHITE) >= AA
    assert min(contrast(dark, DARK_PAGE), contrast(dark, DARK_CARD)) >= AA


@pytest.mark.parametrize("verdict", sorted(VERDICT_COLORS))
def test_verdict_chips(verdict):
    """Chips are white on their colour, black on amber (webui.theme.verdict_chip)."""
    name = VERDICT_COLORS[verdict]
    background = {**QUASAR, **BRAND}[name]
    text = BLACK if name == "warning" else WHITE
    assert contrast(text, background) >= AA


@pytest.mark.parametrize("background", [DARK_PAGE, DARK_CARD])
def test_secondary_lines_at_seventy_percent_on_a_dark_page(background):
    assert contrast(faded(WHITE, 0.7, background), background) >= AA


@pytest.mark.parametrize("background", [WHITE, DARK_CARD])
def test_quiet_icon_buttons_meet_the_non_text_contrast(background):
    """WCAG 1.4.11: icons need 3:1 (the library cards' duplicate, export and delete buttons)."""
    assert contrast(ICON_GREY[1], background) >= 3.0
