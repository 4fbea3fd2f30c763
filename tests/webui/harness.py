"""What a `user` test hands to the web app it starts: the Runtime the API's lifespan would open.

NiceGUI's user simulation drives NiceGUI's own app, not the API app it is mounted on, so the API's
lifespan never runs there; the fixture opens the Runtime (async, before the app starts) and
user_app.py puts it where the lifespan would have.
"""

from __future__ import annotations

from core.service.runtime import Runtime

runtime: Runtime | None = None
