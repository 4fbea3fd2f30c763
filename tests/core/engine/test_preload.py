"""The text models load in one background thread per process, however many runtimes it opens."""

from __future__ import annotations

from core.config import Settings
from core.engine.text.preload import preload_in_background
from core.service.runtime import Runtime
from tests.conftest import migrated_sqlite_url


async def test_runtimes_opened_one_after_another_share_one_loading_thread(tmp_path) -> None:
    # two threads started together each decoded the same dictionaries (four took four times the CPU)
    first = preload_in_background()
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        runtime = await Runtime.open(Settings(database_url=migrated_sqlite_url(folder), seed_demo=False))
        await runtime.aclose()
    assert preload_in_background() is first
