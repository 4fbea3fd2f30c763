"""Which language a browser's Accept-Language header asks for, among those the apps speak."""

from __future__ import annotations

import pytest

from core.client.i18n import accepted


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de-CH,de;q=0.9,en;q=0.8", "de"),
        ("en;q=0.5, fr;q=0.9", "fr"),  # by weight, not by place
        ("es, it;q=0.3", "it"),  # the first the apps speak
        ("fr;q=0, de;q=0.2", "de"),  # q=0: not acceptable
        ("ja, zh", None),
        ("", None),
        (None, None),
        ("de;q=abc, it", "it"),  # a broken weight is left out
    ],
)
def test_the_header_is_read_by_its_weights(header, language) -> None:
    assert accepted(header) == language
