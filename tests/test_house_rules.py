"""Rules of the house that code can check: core stands without the user interfaces."""

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
