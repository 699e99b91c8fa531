from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.table import Awaiting
from tourney.services.commands import CreateTournament
from tourney.services.messages import StartPlan

from tests.support.driver import Driver


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def services(clock: FrozenClock) -> Services:
    return bootstrap_memory(clock=clock, rng=random.Random(11))


@pytest.fixture
def create(services: Services, clock: FrozenClock) -> Callable[..., str]:
    def make(tid: str = "t1", fmt: str = "freezeout", **kw: object) -> str:
        start_at = None if fmt == "sng" else clock.now() + timedelta(hours=1)
        command = CreateTournament(
            name="Test",
            format=fmt,
            buy_in=1_000,
            entry_fee=100,
            start_at=start_at,
            tournament_id=tid,
            **kw,  # type: ignore[arg-type]
        )
        return services.admin.create_tournament(command).id

    return make


def fund(services: Services, *players: str, amount: int = 10_000) -> None:
    for player in players:
        services.accounts.deposit(player, amount, key=f"fund-{player}")


def registration_closed(
    services: Services, create: Callable[..., str], clock: FrozenClock, players: list[str], balance: int, seats: int
) -> tuple[str, StartPlan]:
    """``players`` funded with ``balance`` and registered; the start fired and closed registration, and its workflow
    did nothing more: the tournament's id and the plan closing gave."""
    tid = create(seats_per_table=seats)
    fund(services, *players, amount=balance)
    for name in players:
        services.registration.register(tid, name)
    clock.advance(3_600)
    services.start.start_due(tid)
    services.adapters.workflows.pending_starts.clear()
    return tid, services.start.close_registration(tid)


def started(services: Services, create: Callable[..., str], clock: FrozenClock, players: int = 6, **kw: object) -> str:
    """A tournament of ``players`` funded and registered, started through its workflow (first hands dealt)."""
    tid = create(seats_per_table=kw.pop("seats_per_table", 6), **kw)
    names = [f"p{i}" for i in range(players)]
    fund(services, *names)
    for name in names:
        services.registration.register(tid, name)
    clock.advance(3_600)
    services.start.start_due(tid)
    Driver(services).run_workflows()
    return tid


def terminated(services: Services, create: Callable[..., str], clock: FrozenClock, reason: str = "broken") -> str:
    """A running tournament an operator terminated, its hands cancelled by the recovery workflow: its id."""
    tid = started(services, create, clock)
    services.admin.terminate(tid, "op", reason)
    services.recovery.cancel_hands(tid)
    return tid


def five_minute_decisions(services: Services, create: Callable[..., str], clock: FrozenClock) -> tuple[str, Awaiting]:
    """A running tournament of 300-second decisions, and its first decision awaited (300 s, then 30 s of time bank)."""
    tid = started(services, create, clock, decision_seconds=300)
    first = services.adapters.store.tables.get(tid, "1").table.awaiting(normal=300)
    assert first is not None and (first.seconds, first.time_bank) == (300, 30)
    return tid, first
