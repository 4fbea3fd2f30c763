"""Loading what judging free text needs, in the background, so that no request waits for it.

The sentence encoder's weights (about 0.8 s) and the lemma dictionaries (about 1.6 s for the five
bases) load on first use; a server, the web app and the terminal app start this thread once their
store is ready, so the health check, the first screens and the other task types never wait.
"""

from __future__ import annotations

import threading

from core.engine.text.embedding import encoder
from core.engine.text.languages import load_lemmatizers


def warm_up() -> threading.Thread:
    thread = threading.Thread(target=_load, name="text-models", daemon=True)
    thread.start()
    return thread


def _load() -> None:
    encoder().encode(["warm up"])
    load_lemmatizers()
