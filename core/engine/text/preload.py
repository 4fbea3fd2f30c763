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

_started: threading.Thread | None = None
_lock = threading.Lock()


def preload_in_background(delay: float = START_DELAY_SECONDS) -> threading.Thread:
    """The loading thread, started by the first call in the process; later calls return it.

    The models are the process's, not a runtime's: a process that opens several runtimes (the
    terminal app switching services, the test suite with hundreds) loads them once. Two threads
    started together would each decode the same dictionaries, since the caches below them fill
    only when a load ends (four at once took four times the CPU time).
    """
    global _started
    with _lock:
        if _started is None:
            _started = threading.Thread(target=_load, args=(delay,), name="text-models", daemon=True)
            _started.start()
        return _started


def _load(delay: float) -> None:
    time.sleep(delay)
    # Imported here, in the thread: numpy and the lemmatisers are no part of a quick start.
    from core.engine.text.embedding import encoder
    from core.engine.text.languages import load_lemmatizers

    encoder().encode(["warm up"])
    load_lemmatizers()
