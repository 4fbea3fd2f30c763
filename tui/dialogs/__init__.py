"""Modal dialogs: each asks one thing and dismisses with the answer. They use no screen and no
widget of the app, so screens and widgets alike open them (the import contracts keep it so)."""
