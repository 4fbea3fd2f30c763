"""The main file NiceGUI's `user` fixture runs: the web app on the Runtime the fixture opened."""

from core.config import Settings
from tests.webui import harness
from webui.main import create_web_app

api = create_web_app(Settings())
api.state.runtime = harness.runtime
