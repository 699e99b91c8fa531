"""A table between two hands (domain/between_hands.py): chips bought in a hand, rebuy windows, disqualifications."""

from __future__ import annotations

from random import Random

from tourney.domain.between_hands import BetweenHands, players_out
from tourney.domain.hand import ActionKind
from tourney.domain.prizes import BustOut
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table

from tests.support.decks import stacked_deck


def _heads_up_all_in(holes: tuple[str, str] = ("2c7d", "AsAh"), *, hold_busted_seats: bool = False) -> Table:
    """A table of three with 1,000 each, its first hand in progress (in a rebuy period: ``hold_busted_seats``)."""
    table = Table("1", 3)
    table.seat_player("A", 1, 1_000)
    table.seat_player("B", 2, 1_000)
    table.seat_player("C", 3, 1_000)
    table.draw_button(rng=Random(3))
    deck = stacked_deck([*holes, "3c4d"], "KdQs9h5c3d")
    table.start_hand(BlindLevel(1, 25, 50), deck, hold_busted_seats=hold_busted_seats)
    return table


def _play_out(table: Table) -> None:
    """Everyone calls or shoves until the hand is over."""
    while table.hand_in_progress:
        awaiting = table.awaiting()
        assert awaiting is not None and table.hand is not None
        options = table.hand.options()
        assert options is not None
        kind = ActionKind.RAISE if options.max_raise_to is not None else ActionKind.CALL
        table.act(awaiting.player, kind, options.max_raise_to if kind is ActionKind.RAISE else None)


def test_rule_rebuys_chips_bought_in_a_hand_wait_for_its_end_and_others_go_on_the_stack_at_once() -> None:
    # Given a hand in progress at a table of three
    table = _heads_up_all_in()
    awaiting = table.awaiting()
    assert awaiting is not None
    in_hand = awaiting.player
    # When a player in the hand buys 500 chips, and then again 300
    between = BetweenHands().add(table, in_hand, 500).add(table, in_hand, 300)
    # Then nobody's stack changed: 800 wait for the hand's end
    assert between.pending_for(in_hand) == 800 and not between.idle
    assert table.stack(table.seat_of(in_hand)) == 1_000


def test_rule_rebuys_a_buyer_who_lost_the_hand_keeps_the_seat_it_emptied_with_the_chips_bought() -> None:
    # Given every player all in, each having bought 2,000 during the hand
    table = _heads_up_all_in()
    between = BetweenHands()
    for player in ("A", "B", "C"):
        between = between.add(table, player, 2_000)
    _play_out(table)
    ended = table.last_hand_ended
    assert ended is not None and ended.busted
    # When the hand is over
    after = between.hand_over(table)
    # Then every chip bought is on a stack, the busted buyers seated again where they sat: nobody is out
    assert after.pending_chips == () and after.idle
    assert sorted(table.players.values()) == ["A", "B", "C"]
    assert sum(sp.stack for sp in table.seats.values()) == 3_000 + 6_000
    assert players_out(table) == []


def test_rule_17_chips_bought_in_a_cancelled_hand_go_to_their_buyers_still_seated() -> None:
    # Given a hand in progress, A having bought 500 in it, and a player no longer seated owed 200
    table = _heads_up_all_in()
    between = BetweenHands(pending_chips=(("A", 500), ("gone", 200)))
    # When the hand is cancelled
    table.cancel_hand()
    after = between.hand_cancelled(table)
    # Then A has the 500; what nobody seated bought stays pending
    assert table.stack(table.seat_of("A")) == 1_500
    assert after.pending_chips == (("gone", 200),)


def test_rule_rebuys_the_window_closes_early_once_every_bust_out_at_the_table_rebought() -> None:
    # Given a hand in a rebuy period that busted a player, who keeps the seat while the rebuy window is open
    table = _heads_up_all_in(hold_busted_seats=True)
    _play_out(table)
    out = BetweenHands.without_chips(table)
    assert out
    window = BetweenHands().open_rebuy_window(out)
    assert not window.rebuy_window_done(table)
    # When each bust-out buys chips (between hands: on the stack at once)
    for player in out:
        window = window.add(table, player, 1_000)
    # Then the window may close; settled, nothing waits any more
    assert window.rebuy_window_done(table)
    assert window.settled().idle


def test_rule_19_the_disqualified_leave_play_with_their_chips_and_take_no_place() -> None:
    # Given A disqualified during a hand, and the hand over with B busted
    table = _heads_up_all_in()
    between = BetweenHands().disqualify("A")
    _play_out(table)
    busted = [BustOut("A", 1_000), BustOut("B", 1_000)] if "A" not in table.players.values() else [BustOut("B", 1_000)]
    stack_a = table.stack(table.seat_of("A")) if "A" in table.players.values() else 0
    # When the disqualified leave play at the hand's end
    left, gone = between.leave_play(table, busted)
    # Then A is off the table with the chips A held (none if busted), and out of the bust-outs to place
    assert gone == {"A": stack_a}
    assert "A" not in table.players.values()
    assert all(b.player_id != "A" for b in left)
    assert between.settled().disqualified == ()
