"""What one Lambda process keeps to itself, kept per thread when the functions share a process.

On AWS each execution environment handles one invocation at a time in a
process of its own. Locally the handlers run in threads of one process, so
state a library keeps on a class is shared between concurrent invocations.
Powertools' HTTP resolvers keep the event being resolved on the ``BaseRouter``
class (``BaseRouter.current_event = ...``): two threads resolving at once would
read each other's event (another player's path, body and token claims).
:func:`isolate_powertools_routers` makes that attribute per thread, at class
level (through the metaclass) and at instance level alike.
"""

from __future__ import annotations

import threading
from typing import Any

_local = threading.local()


def _current() -> Any:
    try:
        return _local.event
    except AttributeError:
        raise AttributeError("current_event") from None


class _PerThreadEvent:
    """``resolver.current_event``: this thread's event."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        return _current()

    def __set__(self, obj: Any, value: Any) -> None:
        _local.event = value


def isolate_powertools_routers() -> None:
    """Make ``BaseRouter.current_event`` per thread (idempotent)."""
    from aws_lambda_powertools.event_handler.api_gateway import BaseRouter

    if isinstance(type(BaseRouter).__dict__.get("current_event"), property):
        return

    class PerThreadRouterMeta(type(BaseRouter)):  # type: ignore[misc]
        @property
        def current_event(cls) -> Any:
            return _current()

        @current_event.setter
        def current_event(cls, value: Any) -> None:
            _local.event = value

    setattr(BaseRouter, "current_event", _PerThreadEvent())  # noqa: B010 - instance reads and writes
    setattr(BaseRouter, "__class__", PerThreadRouterMeta)  # noqa: B010 - class-level reads and writes
