"""Rules of the house that code can check: core stands without the user interfaces, and the terminal
app's styles stay in Textual's cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_core_imports_without_textual_or_nicegui():
    code = (
        "import sys, core.server.app, core.service, core.service.local, core.cli; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'nicegui', 'tui', 'webui')]; "
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_import_contracts_hold():
    """core without the UIs; UIs only through the Service; engine and wire contract without I/O."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([lint_imports, "--no-cache"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_style_rule_of_the_terminal_app_puts_an_order_pseudo_class_on_every_widget():
    """A rule such as `.bubble > *:last-child` is a candidate for every widget of the app (its last
    selector is `*`): Textual then keeps no style cache for any of them and restyles all of a
    widget's siblings whenever something is mounted beside it, which cost the terminal app a sixth
    of its CPU (docs/performance.md, the test suite). Name a type or class before the pseudo-class."""
    from textual.app import App
    from textual.css.stylesheet import Stylesheet

    import tui.app

    stylesheet = Stylesheet(variables=App().get_css_variables())
    stylesheet.read(Path(tui.app.__file__).with_name(tui.app.FeedbackStudioApp.CSS_PATH))
    stylesheet.parse()
    order = {"first-of-type", "last-of-type", "first-child", "last-child", "odd", "even", "empty"}
    universal = [
        f"{rule.selectors} :{' :'.join(sorted(rule.pseudo_classes & order))}"
        for rule in stylesheet.rules
        if "*" in rule.selector_names and rule.pseudo_classes & order
    ]
    assert universal == []
