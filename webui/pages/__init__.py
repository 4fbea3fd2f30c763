"""The pages of the web app, each a module with ``register(studio)`` that adds its routes.

Paths stay clear of the API's: the task page lives exactly at the taskLink the API hands out.
"""

from __future__ import annotations

from webui.page_services import PageServices
from webui.pages import class_set, learner, library, settings, simulation, task, tutor


def register(studio: PageServices) -> None:
    for page in (library, task, class_set, tutor, simulation, settings, learner):
        page.register(studio)
