"""Loading what judging free text needs, in the background, so that no request waits for it.

The sentence encoder's weights (about 0.8 s) and the lemma dictionaries (about 1.6 s for the five
bases) load on first use; a server, the web app and the terminal app start this thread once their
store is ready, so the health check, the first screens and the other task types never wait.
The thread waits a moment before it loads: Python runs one thread at a time, and a starting app
lists its tasks in that moment (the terminal app's library came 0.15 s later with the loading
beside it). A request that needs the models sooner loads them itself.
"""

from __future__ import annotations

import threading
import time

START_DELAY_SECONDS = 1.0


def warm_up(delay: float = START_DELAY_SECONDS) -> threading.Thread:
    thread = threading.Thread(target=_load, args=(delay,), name="text-models", daemon=True)
    thread.start()
    return thread


def _load(delay: float) -> None:
    time.sleep(delay)
    # Imported here, in the thread: numpy and the lemmatisers are no part of a quick start.
    from core.engine.text.embedding import encoder
    from core.engine.text.languages import load_lemmatizers

    encoder().encode(["warm up"])
    load_lemmatizers()
