"""What one Lambda process keeps to itself, kept per thread when the functions share a process.

On AWS each execution environment handles one invocation at a time in a
process of its own. Locally the handlers run in threads of one process, so
state a library keeps on a class is shared between concurrent invocations.
Powertools' HTTP resolvers keep the event being resolved on the ``BaseRouter``
class (``BaseRouter.current_event = ...``): two threads resolving at once would
read each other's event (another player's path, body and token claims).
:func:`isolate_powertools_routers` makes that attribute per thread, at class
level (through the metaclass) and at instance level alike.

Powertools' Logger keeps the keys of every log line (the Lambda context's
``function_name``, the ``tournament_id`` and ``table_id`` a handler correlates)
in one dict on its formatter, which every function's logger shares here (the
layer is imported once): a thread's error line would name another invocation's
function, tournament or table. :func:`isolate_powertools_logger` makes that
dict per thread; a thread starts from the formatter's own keys (``service``),
as a new process would. :func:`correlated_ids` reads this thread's ids.
"""

from __future__ import annotations

import threading
from typing import Any

_local = threading.local()
_logs = threading.local()


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


class _PerThreadLogKeys:
    """``formatter.log_format``: this thread's keys of that formatter's log lines."""

    def _mine(self) -> dict[int, dict[str, Any]]:
        try:
            mine: dict[int, dict[str, Any]] = _logs.formats
        except AttributeError:
            mine = _logs.formats = {}
        return mine

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        mine = self._mine()
        if id(obj) not in mine:  # what ``clear_state`` builds: the record order, then the formatter's own keys
            mine[id(obj)] = {**dict.fromkeys(obj.log_record_order), **obj.keys_combined}
        return mine[id(obj)]

    def __set__(self, obj: Any, value: dict[str, Any]) -> None:
        self._mine()[id(obj)] = value


def isolate_powertools_logger() -> None:
    """Make the keys of Powertools' log lines per thread (idempotent)."""
    from aws_lambda_powertools.logging.formatter import LambdaPowertoolsFormatter

    if not isinstance(LambdaPowertoolsFormatter.__dict__.get("log_format"), _PerThreadLogKeys):
        setattr(LambdaPowertoolsFormatter, "log_format", _PerThreadLogKeys())  # noqa: B010 - a data descriptor


def correlated_ids() -> dict[str, str]:
    """The ``tournament_id`` and ``table_id`` this thread's invocation put on its log lines (none if it did not)."""
    ids: dict[str, str] = {}
    for keys in getattr(_logs, "formats", {}).values():
        for name in ("tournament_id", "table_id"):
            if keys.get(name) is not None:
                ids[name] = str(keys[name])
    return ids
