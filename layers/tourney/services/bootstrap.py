"""The composition root (cosmicpython ch. 13): adapters, a clock and a random generator in, ``Services`` out.

Handlers call ``bootstrap(...)`` once per cold start with the AWS adapters;
tests call ``bootstrap_memory(clock=..., rng=...)`` and reach the in-memory
adapters through ``services.adapters``.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tourney.services.accounts import AccountsService
from tourney.services.admin import AdminService
from tourney.services.coordinate import CoordinatorService
from tourney.services.deps import Deps
from tourney.services.lobby import LobbyService
from tourney.services.play import PlayService
from tourney.services.ports import (
    Clock,
    CoordinatorQueue,
    Pushes,
    StartScheduler,
    Store,
    TimeoutScheduler,
    Workflows,
)
from tourney.services.recover import RecoveryService
from tourney.services.register import RegistrationService
from tourney.services.start import StartService
from tourney.services.timeouts import TimeoutService

if TYPE_CHECKING:
    from tourney.adapters.memory import FrozenClock


@dataclass(frozen=True)
class Services:
    """One object per use case (docs/architecture.md, 'Services: what the edges call')."""

    lobby: LobbyService
    accounts: AccountsService
    registration: RegistrationService
    admin: AdminService
    play: PlayService
    start: StartService
    timeouts: TimeoutService
    coordinator: CoordinatorService
    recovery: RecoveryService
    deps: Deps
    adapters: Any = None
    """The adapters bundle it was built from (``MemoryAdapters`` for ``bootstrap_memory``)."""


def bootstrap(
    *,
    store: Store,
    pushes: Pushes,
    timers: TimeoutScheduler,
    coordination: CoordinatorQueue,
    start_scheduler: StartScheduler,
    workflows: Workflows,
    clock: Clock,
    rng: random.Random | None = None,
    adapters: Any = None,
) -> Services:
    """Wire the services over the given adapters (``rng``: ``secrets.SystemRandom()`` by default)."""
    deps = Deps(
        store=store,
        pushes=pushes,
        timers=timers,
        coordination=coordination,
        start_scheduler=start_scheduler,
        workflows=workflows,
        clock=clock,
        rng=rng if rng is not None else secrets.SystemRandom(),
    )
    return Services(
        lobby=LobbyService(deps),
        accounts=AccountsService(deps),
        registration=RegistrationService(deps),
        admin=AdminService(deps),
        play=PlayService(deps),
        start=StartService(deps),
        timeouts=TimeoutService(deps),
        coordinator=CoordinatorService(deps),
        recovery=RecoveryService(deps),
        deps=deps,
        adapters=adapters,
    )


def bootstrap_memory(*, clock: FrozenClock | None = None, rng: random.Random | None = None) -> Services:
    """Services over fresh in-memory adapters (``services.adapters`` is the ``MemoryAdapters``)."""
    from tourney.adapters.memory import FrozenClock, MemoryAdapters

    adapters = MemoryAdapters.create(clock or FrozenClock())
    return bootstrap(
        store=adapters.store,
        pushes=adapters.pushes,
        timers=adapters.timers,
        coordination=adapters.coordination,
        start_scheduler=adapters.start_scheduler,
        workflows=adapters.workflows,
        clock=adapters.clock,
        rng=rng,
        adapters=adapters,
    )
