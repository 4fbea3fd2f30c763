"""Every screen of the terminal app in German, French and Italian shows no English of its own:
no message of the catalogue left untranslated or unmarked, none of Textual's key help or command
palette, no pydantic message (tests/untranslated.py says how English is found).

The app reads its language when it starts, so each language runs tests/tui/every_screen.py in a
process of its own, as `feedback-studio tui` starts in a German terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.untranslated import ROOT, demo_content, english_on_screen


@pytest.mark.process
@pytest.mark.parametrize("language", ["de", "fr", "it"])
def test_every_screen_speaks_the_language(language, tmp_path_factory) -> None:
    # not tmp_path: its name is the test's, and the connection screen shows the database's path
    tmp_path = tmp_path_factory.mktemp("studio")
    environment = {
        **os.environ,
        "FEEDBACK_STUDIO_UI_LANGUAGE": language,
        "XDG_DATA_HOME": str(tmp_path),
    }
    database = f"sqlite+aiosqlite:///{tmp_path / 'studio.sqlite3'}"
    run = subprocess.run(
        [sys.executable, "-m", "tests.tui.every_screen", database],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    shots: dict[str, str] = json.loads(run.stdout)
    assert "journey failed" not in shots, shots["journey failed"]
    assert len(shots) >= 40, list(shots)
    english = {
        name: found
        for name, text in shots.items()
        if (found := english_on_screen(text, language, demo_content()))
    }
    assert english == {}, "\n\n".join(f"{name}: {found}\n{shots[name]}" for name, found in english.items())
