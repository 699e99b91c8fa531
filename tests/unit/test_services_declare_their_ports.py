"""Every service's constructor names the ports it uses (docs/architecture.md, 'Services: what the edges call').

A reader of ``CoordinatorService(store=..., pushes=..., timers=..., ...)`` sees what the service reaches
outside the domain; a constructor that took the whole bundle of ports would hide it. So every parameter
of a service's ``__init__`` is keyword-only and typed as a port (a Protocol of ``tourney.services``), the
random number generator, a plain value (a number, a string, a function), or another service it hands a
use case to (the operators' restart is the recovery's).
"""

from __future__ import annotations

import collections.abc
import importlib
import inspect
import pkgutil
import random
import typing
from types import UnionType

import pytest
import tourney.services
from tourney.bootstrap import bootstrap_memory
from tourney.services.deps import Deps, NotWired

PLAIN = (int, float, str, bool, random.Random)


def services() -> list[type]:
    found: dict[str, type] = {}
    for module_info in pkgutil.iter_modules(tourney.services.__path__):
        module = importlib.import_module(f"tourney.services.{module_info.name}")
        for name, value in vars(module).items():
            if name.endswith("Service") and inspect.isclass(value) and value.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = value
    return [found[key] for key in sorted(found)]


def is_port(kind: object) -> bool:
    """A Protocol of the services (``services/ports.py``, ``ChatLog``), the generator, a plain value or a service."""
    if typing.get_origin(kind) in (typing.Union, UnionType):
        return all(is_port(k) for k in typing.get_args(kind) if k is not type(None))
    if typing.get_origin(kind) is collections.abc.Callable or kind in PLAIN:
        return True
    if not (inspect.isclass(kind) and kind.__module__.startswith("tourney.services.")):
        return False
    return bool(getattr(kind, "_is_protocol", False)) or kind.__name__.endswith("Service")


def test_the_services_are_found() -> None:
    names = {cls.__name__ for cls in services()}
    assert {"CoordinatorService", "PlayService", "ChatService", "RecoveryReportService"} <= names


@pytest.mark.parametrize("service", services(), ids=lambda cls: cls.__name__)
def test_a_service_constructor_names_each_port_it_uses(service: type) -> None:
    # Given the service's constructor
    init = service.__init__  # type: ignore[misc]
    parameters = [p for p in inspect.signature(init).parameters.values() if p.name != "self"]
    hints = typing.get_type_hints(init)
    # Then every parameter is named at the call (keyword-only) and is a port, the generator or a plain value
    positional = [p.name for p in parameters if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    not_ports = {p.name: hints.get(p.name) for p in parameters if not is_port(hints.get(p.name))}
    assert positional == [] and not_ports == {}
    assert parameters, "a service with no port at all is a plain function"


def test_a_port_the_service_was_not_given_is_named_when_a_helper_reaches_for_it() -> None:
    # Given the bundle of a service that was given the store only
    bundle = Deps(store=bootstrap_memory().deps.store)
    # When a helper reaches for the pushes, then the error names the port
    with pytest.raises(NotWired, match="pushes"):
        bundle.pushes.to_player("p1", {})
