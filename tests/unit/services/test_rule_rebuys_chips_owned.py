"""Rebuys are judged by the chips a player owns, not the chips behind (docs/rules.md, 'Rebuys and add-ons').

"A player at or below the starting stack may buy the starting stack again":
during a hand the player owns the stack they started it with (chips in the
pot are not lost until the hand ends) plus the chips already bought in it and
waiting for its end. Going all in first does not make a big stack eligible,
and one rebuy in a hand already takes a starting stack over the line.
"""

from __future__ import annotations

from collections.abc import Callable

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.hand import ActionKind

from tests.support.driver import Driver
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand
from tests.unit.services.test_rule_rebuys_in_one_hand import first_to_act, rebuy_refused, rebuy_tournament
from tests.unit.services.test_service_play import awaiting

STARTING_STACK = 10_000


def all_in_when_to_act(services: Services, tid: str, player: str) -> None:
    """Everyone before ``player`` folds; then ``player`` moves all in (the hand goes on)."""
    while (w := awaiting(services, tid)).player != player:
        services.play.act(tid, "1", w.player, w.hand, w.seq, "fold")
    hand = services.adapters.store.tables.get(tid, "1").table.hand
    assert hand is not None
    options = hand.options()
    assert options is not None and options.max_raise_to is not None
    services.play.act(tid, "1", player, w.hand, w.seq, ActionKind.RAISE.value, options.max_raise_to)
    table = services.adapters.store.tables.get(tid, "1").table
    assert table.hand_in_progress and table.stack(table.seat_of(player)) == 0


def test_rebuys_a_player_above_the_starting_stack_who_goes_all_in_cannot_rebuy(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament whose first hand was folded round to the big blind, who won the small blind
    tid = rebuy_tournament(services, create, clock)
    fold_to_the_end_of_the_hand(services, tid)
    winner = max(
        services.adapters.store.tables.get(tid, "1").table.players.values(), key=lambda p: stack_of(services, tid, p)
    )
    assert stack_of(services, tid, winner) > STARTING_STACK
    Driver(services).drain_coordinator()  # the next hand is dealt
    services.accounts.deposit(winner, 20_000, key=f"rebuys-{winner}")
    # When, above the starting stack, the winner moves all in (no chip behind) and asks for a rebuy
    all_in_when_to_act(services, tid, winner)
    # Then it is refused: the chips they own in this hand are above the starting stack; nothing moves
    rebuy_refused(services, tid, winner, rebuys=0)


def test_rebuys_a_player_all_in_at_the_starting_stack_rebuys_once_in_the_hand_not_twice(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament in its first hand, the first player to act at the starting stack
    tid, player = first_to_act(services, create, clock, top_up=30_000)
    # When they move all in, then rebuy (the chips wait for the hand's end)
    all_in_when_to_act(services, tid, player)
    assert services.play.rebuy(tid, player).pending
    # Then a second rebuy in the same hand is refused: they own the starting stack plus the chips bought
    rebuy_refused(services, tid, player, rebuys=1)


def stack_of(services: Services, tid: str, player: str) -> int:
    table = services.adapters.store.tables.get(tid, "1").table
    return table.stack(table.seat_of(player))


def test_rebuys_the_standings_prize_pool_counts_every_rebuy(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament of six in its first hand, and the standings' prize pool then
    tid = rebuy_tournament(services, create, clock)
    before = services.lobby.standings(tid).prize_pool
    assert before == services.adapters.store.money.summary(tid).prize_pool_held > 0
    # When a player at the starting stack rebuys
    player = awaiting(services, tid).player
    services.accounts.deposit(player, 30_000, key=f"rebuys-{player}")
    all_in_when_to_act(services, tid, player)
    services.play.rebuy(tid, player)
    # Then the standings' prize pool grows by what the rebuy put in the pool (not the buy-ins alone)
    after = services.lobby.standings(tid).prize_pool
    assert after == services.adapters.store.money.summary(tid).prize_pool_held > before
