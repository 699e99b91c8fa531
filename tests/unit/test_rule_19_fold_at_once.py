"""Rule 19: a disqualified player's hand is folded at once, in turn or not (``Hand.fold_at_once``, ``Table``)."""

from __future__ import annotations

import pytest
from tourney.domain.errors import NoHandInProgress
from tourney.domain.hand import ActionKind, Hand, SeatStatus
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table

DECK = list(range(52))


def deal(stacks: dict[int, int]) -> Hand:
    # button 1, small blind 2, big blind 3: seat 4 acts first
    return Hand.deal(stacks, button=1, small_blind_seat=2, big_blind_seat=3, small_blind=50, big_blind=100, deck=DECK)


def test_rule_19_fold_out_of_turn_keeps_the_decision_awaited_and_round_trips() -> None:
    # Given four players before the flop, seat 4 to act
    hand = deal({1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000})
    assert hand.actor == 4
    seq = hand.seq
    # When seat 2 (the small blind) is folded at once
    record = hand.fold_at_once(2)
    # Then seat 2 is out, its blind stays in the pot, and seat 4 is still awaited with the same decision number
    assert record is not None and hand.status(2) is SeatStatus.FOLDED
    assert (hand.actor, hand.seq, hand.pot) == (4, seq, 150)
    # And the hand reads back as it is, and plays on without seat 2
    again = Hand.from_dict(hand.to_dict())
    assert (again.actor, again.seq, again.status(2)) == (4, seq, SeatStatus.FOLDED)
    hand.act(ActionKind.CALL, 4)
    hand.act(ActionKind.CALL, 1)
    assert hand.actor == 3  # the big blind's option; seat 2 is skipped
    assert Hand.from_dict(hand.to_dict()).to_dict() == hand.to_dict()


def test_rule_19_fold_at_once_of_all_but_one_ends_the_hand() -> None:
    # Given three players, seat 1 (the button) to act first... seat 2 and 3 in the blinds
    hand = Hand.deal(
        {1: 1_000, 2: 1_000, 3: 1_000}, button=1, small_blind_seat=2, big_blind_seat=3,
        small_blind=50, big_blind=100, deck=DECK,
    )  # fmt: skip
    assert hand.actor == 1
    # When the two blinds are folded at once, out of turn
    hand.fold_at_once(2)
    hand.fold_at_once(3)
    # Then the hand is over and seat 1 wins the blinds without acting
    assert hand.is_over and hand.result is not None
    assert hand.result.finishing_stacks == {1: 1_150, 2: 950, 3: 900}
    # And a fold at once of an out seat or an ended hand changes nothing
    with pytest.raises(NoHandInProgress):
        hand.fold_at_once(2)


def test_rule_19_an_all_in_player_folded_at_once_cannot_win_the_pot() -> None:
    # Given seat 4 all in for 300 and called by seat 1
    hand = deal({1: 2_000, 2: 2_000, 3: 2_000, 4: 300})
    hand.act(ActionKind.RAISE, 4, 300)
    hand.act(ActionKind.CALL, 1)
    # When seat 4 is folded at once (not among those to act)
    assert hand.fold_at_once(4) is not None
    # Then its 300 stay in the pot for the others, and the hand goes on
    assert hand.status(4) is SeatStatus.FOLDED and not hand.is_over
    assert hand.fold_at_once(4) is None


def test_rule_19_table_folds_a_player_at_once_and_not_one_between_hands() -> None:
    # Given a table of three dealt a hand
    table = Table(1, 6)
    for seat, player in ((1, "ann"), (2, "bob"), (3, "cy")):
        table.seat_player(player, seat, 1_000)
    table.draw_button(deck=list(range(51, -1, -1)))
    table.start_hand(BlindLevel(1, 50, 100), DECK)
    awaiting = table.awaiting()
    assert awaiting is not None
    others = [p for p in ("ann", "bob", "cy") if p != awaiting.player]
    # When both others are folded at once, then the hand ends and is settled at the table
    table.fold_at_once(others[0])
    table.fold_at_once(others[1])
    assert not table.hand_in_progress and table.last_hand_ended is not None
    # And between hands there is nothing to fold
    assert table.fold_at_once(others[0]) is None
