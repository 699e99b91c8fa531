"""The ports one service was given, bundled for the helper functions it calls.

A service's constructor names the ports it uses (``PlayService(store=..., timers=...,
coordination=..., pushes=..., clock=..., backoff=...)``: the composition root,
``tourney/bootstrap.py``, gives each its own) and bundles them in a :class:`Deps`
for the module-level helpers it shares with other services (``retrying``,
``deal``, ``after_write``, ``names_of``...). A port the service was not given is
absent from its bundle: a helper that reaches for it raises :class:`NotWired`,
naming the port, at the first test that takes that path.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NoReturn

from tourney.services.ports import (
    Backoff,
    Clock,
    CoordinatorQueue,
    Pushes,
    StartScheduler,
    Store,
    TimeoutScheduler,
    Workflows,
)

RETRIES = 5
"""How often a service tries a unit of work that lost a race (``StaleVersion``) before giving up."""


class NotWired(RuntimeError):
    """A helper reached a port its service's constructor does not name."""


class _Absent:
    """Stands for a port a service was not given; any use of it raises :class:`NotWired`."""

    def __init__(self, port: str) -> None:
        self._port = port

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):  # copy, pickle and the like probe for optional protocols
            raise AttributeError(name)
        raise NotWired(f"the service was not given the {self._port} port (wanted: {self._port}.{name})")

    def __call__(self, *args: object) -> NoReturn:
        raise NotWired(f"the service was not given the {self._port} port")


_ABSENT: dict[str, Any] = {
    port: _Absent(port)
    for port in ("store", "pushes", "timers", "coordination", "start_scheduler", "workflows", "clock", "rng")
}


def no_wait(lost: int) -> None:
    """The backoff in memory: nothing waits (no other process races)."""


@dataclass(frozen=True)
class Deps:
    store: Store = _ABSENT["store"]
    pushes: Pushes = _ABSENT["pushes"]
    timers: TimeoutScheduler = _ABSENT["timers"]
    coordination: CoordinatorQueue = _ABSENT["coordination"]
    start_scheduler: StartScheduler = _ABSENT["start_scheduler"]
    workflows: Workflows = _ABSENT["workflows"]
    clock: Clock = _ABSENT["clock"]
    rng: random.Random = _ABSENT["rng"]
    """``secrets.SystemRandom()`` in production: shuffles, seat draws and button draws."""
    retries: int = RETRIES
    backoff: Backoff = no_wait
    """Called after the ``lost``-th lost race, before trying again: the AWS adapters wait a jittered
    while (``JitteredBackoff``), so that many requests racing for one item spread out instead of
    colliding again on every retry; in memory nothing waits (no other process races)."""


class HandPorts:
    """The constructor of the services that play hands out (play, time-outs, the coordinator): they use
    the store, the pushes, the timers, the coordinator's queue, the clock and the generator, and no more."""

    def __init__(
        self,
        *,
        store: Store,
        pushes: Pushes,
        timers: TimeoutScheduler,
        coordination: CoordinatorQueue,
        clock: Clock,
        rng: random.Random,
        backoff: Backoff = no_wait,
    ) -> None:
        self._d = Deps(
            store=store, pushes=pushes, timers=timers, coordination=coordination, clock=clock, rng=rng, backoff=backoff
        )


class SeatingPorts:
    """The constructor of the services that seat a whole field (the start and the recovery): they use
    every port, the start's scheduler and the workflows as well as the hands' ports."""

    def __init__(
        self,
        *,
        store: Store,
        pushes: Pushes,
        timers: TimeoutScheduler,
        coordination: CoordinatorQueue,
        start_scheduler: StartScheduler,
        workflows: Workflows,
        clock: Clock,
        rng: random.Random,
        backoff: Backoff = no_wait,
    ) -> None:
        self._d = Deps(
            store=store,
            pushes=pushes,
            timers=timers,
            coordination=coordination,
            start_scheduler=start_scheduler,
            workflows=workflows,
            clock=clock,
            rng=rng,
            backoff=backoff,
        )
