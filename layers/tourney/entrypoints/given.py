"""Settings or services a test or the local runtime gives the process in place of its own, for a block."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

_T = TypeVar("_T")


class Given(Generic[_T]):
    """The values given to the blocks running now; the latest given wins."""

    def __init__(self) -> None:
        self._values: list[_T] = []

    def latest(self) -> _T | None:
        return self._values[-1] if self._values else None

    @contextmanager
    def during(self, value: _T) -> Iterator[_T]:
        self._values.append(value)
        try:
            yield value
        finally:
            # by value, not the last: the local runtime's threads may end their blocks in any order
            self._values.remove(value)
