"""Hand ends given to the coordinator in batches, as an SQS FIFO group delivers them, settle as one at a time.

``CoordinatorService.on_hand_ends`` settles a batch's hand ends in their order, in as few units of work as fit
(one read of the coordinator's state, one commit, one round of pushes per chunk). Played twice from the same seeds,
once a message at a time and once in batches, a whole tournament gives every player the same place, prize and
balance, and every table the same players and stacks: only the number of the coordinator's writes differs.
docs/rules.md, 'Eliminations and prizes' (places in the order hands ended) and 'Who deals'.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import bootstrap_memory
from tourney.domain.ledger import player_account
from tourney.domain.registration import TournamentStatus
from tourney.domain.table import Table
from tourney.services import coordinate

from tests.support.driver import Driver
from tests.support.entries import entered

PLAYERS = 30
DRAIN_EVERY = 10
"""Rounds of decisions between two deliveries of the coordinator's queue: several hand ends wait for each."""


def _seats(table: Table) -> list[tuple[int, str, int]]:
    return sorted((seat, sp.player, sp.stack) for seat, sp in table.seats.items())


def _played(batch: int, fmt: str) -> tuple[dict[str, Any], int, list[int]]:
    """A tournament of ``PLAYERS`` played to its winner by seeded bots, its hand ends given in batches of ``batch``.

    What every player and table ended with, the coordinator's version (its writes) and the batches' sizes.
    """
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(3))
    rebuys = {"rebuy_levels": (1, 4)} if fmt == "rebuy" else {}
    names = [f"p{i:02d}" for i in range(PLAYERS)]
    tid, start_at = entered(
        services, clock, names, 50_000,
        name="Batched", format=fmt, buy_in=1_000, entry_fee=100, seats_per_table=6, level_minutes=2,
        tournament_id="batched", **rebuys,
    )  # fmt: skip
    clock.set(start_at)
    services.start.start_due(tid)
    rebuy_chance = 0.5 if fmt == "rebuy" else 0.0
    driver = Driver(services, rng=random.Random(3), batch=batch, drain_every=DRAIN_EVERY, rebuy_chance=rebuy_chance)
    driver.play_to_the_end(tid)
    store = services.adapters.store
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    store.money.verify_invariants()
    outcome = {
        "places": {e.player_id: (e.placing.place, e.placing.prize) for e in store.entrants.list(tid) if e.placing},
        "balances": {name: store.ledger.balance(player_account(name)) for name in names},
        "tables": {t.table_id: (t.closed, t.table.hand_number, _seats(t.table)) for t in store.tables.list(tid)},
        "rebuys": driver.rebuys,
    }
    coordinator = store.coordinators.get(tid)
    assert coordinator is not None
    return outcome, coordinator.version, driver.batches


@pytest.mark.parametrize("fmt", ["freezeout", "rebuy"])
def test_rule_10_hand_ends_settled_in_batches_place_and_pay_as_one_at_a_time(fmt: str) -> None:
    # Given the same tournament played twice from the same seeds, its hand ends delivered every ten rounds
    alone, writes_alone, _ = _played(batch=1, fmt=fmt)
    # When the second time the coordinator is given them ten at a time
    batched, writes_batched, sizes = _played(batch=10, fmt=fmt)
    # Then every place, prize, balance and table is the same, with fewer writes of the coordinator's state (while
    # rebuys are open, a hand end that may open a rebuy window is settled alone)
    assert max(sizes) > 1
    assert batched == alone
    assert len(alone["places"]) == PLAYERS
    assert writes_batched < writes_alone


def test_rule_10_a_batch_larger_than_one_unit_of_work_is_settled_in_chunks_with_the_same_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given the tournament's outcome with its hand ends settled one at a time, and its writes in whole batches
    alone, _, _ = _played(batch=1, fmt="freezeout")
    _, writes_batched, _ = _played(batch=10, fmt="freezeout")
    # When a unit of work may hold only a few items, so that most batches are cut into several chunks
    monkeypatch.setattr(coordinate, "MOST_ITEMS", 6)
    chunked, writes_chunked, sizes = _played(batch=10, fmt="freezeout")
    # Then the outcome is the same, with more writes than whole batches take
    assert max(sizes) > 1
    assert chunked == alone
    assert writes_chunked > writes_batched
