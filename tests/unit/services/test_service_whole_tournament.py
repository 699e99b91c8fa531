"""A whole small tournament driven through the services only (memory adapters): money and chips conserved."""

from __future__ import annotations

import random

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import bootstrap_memory
from tourney.domain.ledger import pool_account
from tourney.domain.registration import TournamentStatus

from tests.support.driver import Driver
from tests.support.entries import entered


@pytest.mark.parametrize("players,seed", [(14, 1), (19, 2)])
def test_a_freezeout_runs_from_creation_to_its_winner_through_the_services(players: int, seed: int) -> None:
    # Given a freezeout announced now, starting in an hour, and funded players
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(seed))
    tid, start_at = entered(
        services, clock, [f"p{i:02d}" for i in range(players)], 5_000,
        name="Evening", format="freezeout", buy_in=1_000, entry_fee=100, seats_per_table=6, level_minutes=3,
        tournament_id="evening",
    )  # fmt: skip
    # When the start schedule fires and the tournament is played by bots to its end
    clock.set(start_at)
    assert services.start.start_due(tid).started
    driver = Driver(services, rng=random.Random(seed))
    driver.play_to_the_end(tid)
    # Then one winner holds every chip, every place is decided once, and money is conserved
    store = services.adapters.store
    record = store.tournaments.get(tid)
    assert record.status is TournamentStatus.FINISHED
    entrants = store.entrants.list(tid)
    places = sorted(e.placing.place for e in entrants if e.placing is not None)
    assert len(entrants) == players
    assert places[0] == 1 and len(places) == players
    store.money.verify_invariants()
    prizes = sum(e.placing.prize for e in entrants if e.placing is not None)
    assert prizes == 1_000 * players  # the whole pool paid (no guarantee, fee to the house)
    assert store.ledger.balance(pool_account(tid)) == 0
    assert driver.actions > 0
    chips = sum(sp.stack for t in store.tables.list(tid) for sp in t.table.seats.values())
    assert chips == players * 10_000


def test_a_rebuy_tournament_with_rebuy_windows_runs_to_its_winner_with_money_conserved() -> None:
    # Given a rebuy tournament (rebuys in levels 1-8) of 12 funded players
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(5))
    tid, start_at = entered(
        services, clock, [f"p{i:02d}" for i in range(12)], 20_000,
        name="Rebuy", format="rebuy", buy_in=1_000, entry_fee=0, seats_per_table=6, level_minutes=2,
        rebuy_levels=(1, 8), tournament_id="rebuy",
    )  # fmt: skip
    clock.set(start_at)
    services.start.start_due(tid)
    # When bots play, rebuying half the time when they bust in the rebuy period
    driver = Driver(services, rng=random.Random(5), rebuy_chance=0.5)
    driver.play_to_the_end(tid)
    # Then it finished, every entrant has one place, and the pool was paid out exactly
    store = services.adapters.store
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    entrants = store.entrants.list(tid)
    assert sorted(e.placing.place for e in entrants if e.placing) == list(range(1, 13))
    store.money.verify_invariants()
    assert store.ledger.balance(pool_account(tid)) == 0
    collected = sum(e.contribution.pool_paid for e in entrants)
    assert sum(e.placing.prize for e in entrants if e.placing) == collected
    assert sum(e.contribution.rebuys for e in entrants) == driver.rebuys > 0
    chips = sum(sp.stack for t in store.tables.list(tid) for sp in t.table.seats.values())
    assert chips == 12 * 10_000 + driver.rebuys * 10_000
