"""LocalService hands each operation of the Service interface it does not write out to the one area
that has it (core.service.local); these tests stand where mypy cannot look through that hand-over:
each area's method takes what the interface's does and gives what it promises."""

from __future__ import annotations

import inspect
import typing
from typing import Any

from core.service import local
from core.service.base import Service


def test_every_operation_is_written_out_or_has_exactly_one_area():
    forwarded = set(local.AREA_OF)
    written = {
        name
        for name, member in vars(local.LocalService).items()
        if name in local.OPERATIONS and inspect.isfunction(member)
    }
    assert forwarded | written == set(local.OPERATIONS) and not forwarded & written


def test_each_area_method_has_the_signature_of_its_operation():
    mismatched = []
    for name, area in local.AREA_OF.items():
        declared, implemented = getattr(Service, name), getattr(local.AREAS[area], name)
        shape = [(p.name, p.kind, p.default) for p in inspect.signature(declared).parameters.values()]
        if shape != [(p.name, p.kind, p.default) for p in inspect.signature(implemented).parameters.values()]:
            mismatched.append(f"{name}: parameters")
        wanted, given = typing.get_type_hints(declared), typing.get_type_hints(implemented)
        for parameter, hint in wanted.items():
            if not _fits(hint, given.get(parameter), returned=parameter == "return"):
                mismatched.append(f"{name}: {parameter} is {given.get(parameter)}, the interface says {hint}")
    assert mismatched == []


def test_a_forwarded_operation_is_the_area_method_itself():
    service = local.LocalService.__new__(local.LocalService)
    service._tasks = area = object.__new__(local.AREAS["_tasks"])
    assert service.list_tasks == area.list_tasks
    assert not hasattr(service, "no_such_operation")


def _fits(declared: Any, implemented: Any, *, returned: bool) -> bool:
    """Whether the area's hint keeps the interface's promise: the same type, or for a parameter a
    class that every type the interface admits is a kind of (the area takes TaskBase for a task)."""
    if declared == implemented:
        return True
    if returned or not isinstance(implemented, type):
        return False
    admitted = typing.get_args(declared) if typing.get_origin(declared) is typing.Union else (declared,)
    return all(isinstance(t, type) and issubclass(t, implemented) for t in admitted)
