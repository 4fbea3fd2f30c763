"""Small steps the `user` simulation lacks."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User, UserInteraction


def click_item(user: User, text: str) -> None:
    """Click the list or menu item showing ``text`` (the simulation clicks only the label itself)."""
    label = user.find(text).elements.pop()
    item = next(a for a in label.ancestors() if isinstance(a, ui.item))
    UserInteraction(user, {item}, None).click()
