"""Widgets grouped by area (editor, answer, feedback, chat). Most render models and post messages;
the chat view and the rating bar call the service themselves, through tui.service_calls like the screens."""
