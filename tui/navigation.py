"""Where a screen asks to go: messages the app handles (Posting's style).

A screen or widget posts one of these and the message bubbles up to FeedbackStudioApp, which
pushes the screen asked for; so screens never import the App class, nor each other's modules
just to open them.
"""

from __future__ import annotations

from textual.message import Message


class OpenTask(Message):
    """Open the task screen of ``task_id`` (try answers, history, retest, versions)."""

    def __init__(self, task_id: str) -> None:
        super().__init__()
        self.task_id = task_id


class OpenChat(Message):
    """Open the tutor chat, about ``task_id`` (titled ``title``) when given: the tutor grounded
    in it is chosen, or, where none is, the author is offered to create one."""

    def __init__(self, task_id: str | None = None, title: str | None = None) -> None:
        super().__init__()
        self.task_id, self.title = task_id, title
