"""Feedback Studio core: everything that is not a user interface.

Importable without Textual or NiceGUI (an import-linter contract in pyproject.toml enforces it).
"""

__version__ = "0.1.0"
API_VERSION = "0.9.0"
