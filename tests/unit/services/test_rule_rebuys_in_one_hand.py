"""Rebuys bought during a hand: one per hand, and their chips never lost.

docs/rules.md, 'Rebuys and add-ons': a player at or below the starting stack may
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
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict

from tests.unit.services.conftest import started
from tests.unit.services.test_service_play import awaiting


def rebuy_tournament(services: Services, create: Callable[..., str], clock: FrozenClock) -> str:
    """Six players in their first hand of a rebuy tournament (rebuys in levels 1 to 3)."""
    return started(services, create, clock, players=6, fmt="rebuy", rebuy_levels=(1, 3))


def first_to_act(
    services: Services, create: Callable[..., str], clock: FrozenClock, top_up: int = 0
) -> tuple[str, str]:
    """A rebuy tournament in its first hand, and its first player to act (at the starting stack), given ``top_up``
    cents more than the registration left them to rebuy with."""
    tid = rebuy_tournament(services, create, clock)
    player = awaiting(services, tid).player
    if top_up:
        services.accounts.deposit(player, top_up, key=f"rebuys-{player}")
    return tid, player


def rebuy_refused(services: Services, tid: str, player: str, rebuys: int) -> None:
    """A rebuy ``player`` asks for now is refused and moves nothing: the pool as it was, still ``rebuys`` rebuys."""
    pool = services.adapters.store.money.summary(tid).prize_pool_held
    with pytest.raises(Conflict):
        services.play.rebuy(tid, player)
    assert services.adapters.store.money.summary(tid).prize_pool_held == pool
    assert services.adapters.store.entrants.get(tid, player).contribution.rebuys == rebuys


def chips_in_play(services: Services, tid: str) -> int:
    records = services.adapters.store.tables.list(tid)
    return sum(sp.stack for r in records for sp in r.table.seats.values()) + sum(
        c for r in records for _, c in r.pending_chips
    )


def test_rebuys_a_second_rebuy_in_the_same_hand_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament in its first hand, a player dealt in at the starting stack
    tid, player = first_to_act(services, create, clock)
    # When they rebuy during the hand (the chips wait for its end), then try again
    first = services.play.rebuy(tid, player)
    assert first.pending
    # Then the second is refused: with the chips already bought they are above the starting stack
    rebuy_refused(services, tid, player, rebuys=1)


def test_rule_17_chips_bought_in_a_hand_that_is_cancelled_go_to_the_buyer(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a player who rebought during the hand in progress (their chips pending)
    tid, player = first_to_act(services, create, clock)
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


def test_rebuys_an_add_on_bought_during_a_hand_the_buyer_busts_in_keeps_them_in() -> None:
    # Given a heads-up table, outside any rebuy period, where A has bought the add-on during the hand (pending)
    from random import Random

    from tourney.domain.hand import ActionKind
    from tourney.domain.structure import BlindLevel
    from tourney.domain.table import Table
    from tourney.services.records import TableRecord

    from tests.support.decks import stacked_deck

    table = Table("1", 2)
    table.seat_player("A", 1, 1_000)
    table.seat_player("B", 2, 1_000)
    table.draw_button(rng=Random(3))
    table.start_hand(BlindLevel(1, 25, 50), stacked_deck(["2c7d", "AsAh"], "KdQs9h5c3d"))
    record = TableRecord("t1", "1", table, pending_chips=(("A", 5_000), ("B", 5_000)))
    # When A goes all in, B calls and A loses every chip of the stack A played the hand with
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None
        assert table.hand is not None
        options = table.hand.options()
        assert options is not None
        if options.max_raise_to is not None:
            table.act(awaiting.player, ActionKind.RAISE, options.max_raise_to)
        else:
            table.act(awaiting.player, ActionKind.CALL)
    loser = next(o.player for o in table.last_hand_ended.busted)  # type: ignore[union-attr]
    assert loser not in table.players.values()
    # Then, as the hand's end adds the chips bought in the hand, the loser is back in the seat the hand emptied
    settled = record.between_hands.hand_over(table)
    assert settled.pending_chips == ()
    assert loser in table.players.values()
    assert sum(sp.stack for sp in table.seats.values()) == 2_000 + 10_000
