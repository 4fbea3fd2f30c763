"""What a learner may read of a feedback result: DESIGN.md's rule, derived once for every app.

A learner (learner mode, the authors' learner preview) never sees a sample solution or the name
of a concept the answer is missing; only hints and what the learner's own answer contains. The
engines name the aspects of each feedback item, and an aspect's name is often the very statement
the answer lacks ("Current heats the filament"); a simulation's item even spells out the missing
concept's name and description. So, for a learner:

- an item's aspects are named only where the answer shows them (the result's detected aspects);
  a missing concept, or a misconception the answer does not show, is not named;
- an item about a missing concept whose message names it (by name or description) reads the
  concept's hint instead (the task's ``message`` of that aspect), or, without a hint, ``unnamed``;
  what the author wrote for learners (a hint, an option's or gap's own feedback) is kept as
  written, as is any message that does not name the concept;
- an item about an option the learner did not choose (a right option left out of a multiple
  response) reads ``unnamed`` without pointing at the option, unless the author wrote its message:
  "Option 3 is right as well" tells which option to tick;
- the detected aspects are kept: they are what the answer contains.

The sample solution stays in the result (its shape needs it) but is for authors only; the apps
leave it out for a learner.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from core.api import Aspect, AspectDefinition, AspectType, TaskBase

R = TypeVar("R", bound=BaseModel)


def aspect_definitions(task: TaskBase) -> list[AspectDefinition]:
    """Every aspect an author defined on ``task``: the task's own and those of its parts."""
    found = list(getattr(task, "aspects", None) or [])
    for part_list in ("options", "blanks", "choices"):
        for part in getattr(task, part_list, None) or []:
            found += getattr(part, "aspects", None) or []
    return found


def hints(task: TaskBase) -> dict[str, str]:
    """The hint of each aspect that has one, by the aspect's name (the first definition counts)."""
    found: dict[str, str] = {}
    for aspect in aspect_definitions(task):
        if aspect.message and aspect.message.strip():
            found.setdefault(aspect.name, aspect.message.strip())
    return found


def authored(task: TaskBase) -> set[str]:
    """What the author wrote for learners to read: the aspects' hints and the parts' feedback."""
    texts = set(hints(task).values())
    for part_list in ("options", "blanks", "choices"):
        for part in getattr(task, part_list, None) or []:
            if getattr(part, "feedback", None):
                texts.add(part.feedback.strip())
    return texts


def _names(message: str, aspect: Aspect) -> bool:
    said = message.casefold()
    return any(text and text.casefold() in said for text in (aspect.name.strip(), aspect.description.strip()))


def _only_unchosen(context: list[Any]) -> bool:
    """The item points only at options the learner did not choose."""
    return bool(context) and all(getattr(c, "selected", None) is False for c in context)


def learner_result(task: TaskBase, result: R, unnamed: str) -> R:
    """``result`` as a learner may read it (see the module doc); ``unnamed`` is the message of an
    item about a missing concept that has no hint, in the words of the app."""
    detected = {d.aspect.name for d in getattr(result, "allAspects", [])}
    task_hints, written = hints(task), authored(task)
    items: list[Any] = []
    for item in getattr(result, "feedback", []):
        missing = [a for a in item.aspects if a.type is AspectType.CONCEPT and a.name not in detected]
        message = item.message
        if message.strip() not in written and any(_names(message, aspect) for aspect in missing):
            given = [task_hints[a.name] for a in missing if a.name in task_hints]
            message = " ".join(dict.fromkeys(given)) or unnamed
        shown = [a for a in item.aspects if a.name in detected]
        update: dict[str, Any] = {"message": message, "aspects": shown}
        if message.strip() not in written and _only_unchosen(item.context):
            update |= {"message": unnamed, "context": []}
        items.append(item.model_copy(update=update))
    return result.model_copy(update={"feedback": items})
