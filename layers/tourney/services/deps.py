"""What every service is built with: the ports, a clock and a random number generator."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from tourney.services.ports import (
    Clock,
    CoordinatorQueue,
    Pushes,
    StartScheduler,
    Store,
    TimeoutScheduler,
    Workflows,
)


@dataclass(frozen=True)
class Deps:
    store: Store
    pushes: Pushes
    timers: TimeoutScheduler
    coordination: CoordinatorQueue
    start_scheduler: StartScheduler
    workflows: Workflows
    clock: Clock
    rng: random.Random
    """``secrets.SystemRandom()`` in production: shuffles, seat draws and button draws."""
    retries: int = 5
    """How often a service retries a unit of work that lost a race (``StaleVersion``) before giving up."""
    backoff: Callable[[int], None] = lambda lost: None
    """Called after the ``lost``-th lost race, before trying again: the AWS adapters wait a jittered
    while (``JitteredBackoff``), so that many requests racing for one item spread out instead of
    colliding again on every retry; in memory nothing waits (no other process races)."""
