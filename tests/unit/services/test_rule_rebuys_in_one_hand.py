"""Rebuys bought during a hand (issue 8, defect 6): one per hand, and their chips never lost.

RULES.md, 'Rebuys and add-ons': a player at or below the starting stack may
buy the starting stack again. Chips bought during a hand the buyer is dealt
in wait on the table (``pending_chips``) until the hand is over; they count
toward the stack a second rebuy is checked against, and they reach the
player's stack however that hand ends: played out, or cancelled by a
termination (rule 17.1), before the player may be moved or the table broken.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.domain.errors import Conflict
from tourney.services.bootstrap import Services

from tests.unit.services.conftest import fund
from tests.unit.services.test_service_play import awaiting, started


def rebuy_tournament(services: Services, create: Callable[..., str], clock: FrozenClock) -> str:
    return started(services, create, clock, players=6, fmt="rebuy", rebuy_levels=(1, 3))


def chips_in_play(services: Services, tid: str) -> int:
    records = services.adapters.store.tables.list(tid)
    return sum(sp.stack for r in records for sp in r.table.seats.values()) + sum(
        c for r in records for _, c in r.pending_chips
    )


def test_rebuys_a_second_rebuy_in_the_same_hand_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament in its first hand, a player dealt in at the starting stack
    tid = rebuy_tournament(services, create, clock)
    player = awaiting(services, tid).player
    fund(services, player, amount=10_000)
    # When they rebuy during the hand (the chips wait for its end), then try again
    first = services.play.rebuy(tid, player)
    assert first.pending
    before = services.adapters.store.money.summary(tid).prize_pool_held
    # Then the second is refused: with the chips already bought they are above the starting stack
    with pytest.raises(Conflict):
        services.play.rebuy(tid, player)
    assert services.adapters.store.money.summary(tid).prize_pool_held == before
    assert services.adapters.store.entrants.get(tid, player).contribution.rebuys == 1


def test_rule_17_chips_bought_in_a_hand_that_is_cancelled_go_to_the_buyer(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a player who rebought during the hand in progress (their chips pending)
    tid = rebuy_tournament(services, create, clock)
    player = awaiting(services, tid).player
    fund(services, player, amount=10_000)
    bought = chips_in_play(services, tid)
    services.play.rebuy(tid, player)
    assert chips_in_play(services, tid) == bought + 10_000
    # When an operator terminates the tournament and the recovery workflow cancels the hand
    services.admin.terminate(tid, "op", "test")
    services.recovery.cancel_hands(tid)
    # Then the hand is void, its stacks are back, and the bought chips are on the buyer's stack, not pending
    record = next(r for r in services.adapters.store.tables.list(tid) if player in r.table.players.values())
    assert record.pending_chips == ()
    assert record.table.stack(record.table.seat_of(player)) == 20_000
    assert chips_in_play(services, tid) == bought + 10_000
