"""Services composed over a store a test chooses (DynamoDB under moto, or a store wrapped to meter or crash it), with
the in-memory queues, timers, scheduler and workflows of ``tourney.adapters.memory``."""

from __future__ import annotations

import random
from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory


def services_over(store: Any, clock: FrozenClock, seed: int, **options: Any) -> Services:
    """The services over ``store``; ``services.adapters`` holds it with the in-memory rest. ``options``: more of
    ``bootstrap_memory``'s (a backoff)."""
    return bootstrap_memory(clock=clock, rng=random.Random(seed), store=store, **options)
