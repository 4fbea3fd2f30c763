"""One module per screen; screens import their widgets from tui.widgets."""
