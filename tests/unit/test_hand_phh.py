"""PHH export: positions written so that pokerkit posts, acts and pays as we do (docs/interfaces.md, PHH export)."""

from __future__ import annotations

import tomllib

import pytest
from pokerkit import HandHistory
from tourney.domain.hand import Hand
from tourney.domain.histories import phh

from tests.support.decks import heads_up, stacked_deck
from tests.support.pokerkit_oracle import finishing_stacks

DRY_BOARD = "2c7d9hJs3d"


def finished_in_pokerkit(hand: Hand) -> None:
    """Pokerkit replays the file strictly and ends with our finishing stacks."""
    text = phh.dumps(hand, hole_cards=True)
    result = hand.result
    assert result is not None
    assert finishing_stacks(text, check_showdown=True) == [result.finishing_stacks[s] for s in hand.seats]


def test_heads_up_the_big_blind_is_p1_and_the_blinds_are_written_small_then_big() -> None:
    # Given heads-up with seat 7 on the button (small blind) and seat 3 in the big blind
    deck = stacked_deck(["8c8h", "AsAh"], DRY_BOARD)
    hand = heads_up({3: 1000, 7: 600}, 7, deck)
    hand.bet_or_raise_to(7, 300)
    hand.call(3)
    hand.check(3)
    hand.bet(7, 300)
    hand.call(3)
    # When it is written as PHH
    fields = tomllib.loads(phh.dumps(hand))
    # Then p1 is the big blind, p2 the button, and the blinds are [small, big]
    assert fields["seats"] == [3, 7]
    assert fields["blinds_or_straddles"] == [50, 100]
    assert fields["antes"] == [0, 0]
    assert fields["starting_stacks"] == [1000, 600]
    assert fields["actions"] == [
        "d dh p1 ????", "d dh p2 ????", "p2 cbr 300", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cbr 300", "p1 cc",
        "p2 sm AsAh", "p1 sm 8c8h", "d db Js", "d db 3d",
    ]  # fmt: skip
    assert fields["finishing_stacks"] == [400, 1200]
    assert (fields["_button"], fields["_small_blind"], fields["_big_blind"]) == (7, 7, 3)
    finished_in_pokerkit(hand)


def test_rule_7_no_small_blind_and_a_newcomer_before_the_big_blind() -> None:
    # Given no small blind, and seat 2 (a newcomer) between the button (1) and the big blind (3)
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 1000, 4: 1000},
        button=1, small_blind_seat=None, big_blind_seat=3, small_blind=50, big_blind=100, deck=list(range(52)),
    )  # fmt: skip
    hand.call(4)
    hand.call(1)
    hand.call(2)
    hand.check(3)
    hand.bet(2, 100)
    for seat in (3, 4, 1):
        hand.fold(seat)
    # Then only the big blind posts, at p2's place, and p1 (the newcomer) acts first after the flop
    fields = tomllib.loads(phh.dumps(hand))
    assert fields["seats"] == [2, 3, 4, 1]
    assert fields["blinds_or_straddles"] == [0, 100, 0, 0]
    assert fields["_small_blind"] == 0
    assert fields["actions"][4:] == [
        "p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 4d4h4s", "p1 cbr 100", "p2 f", "p3 f", "p4 f",
    ]  # fmt: skip
    finished_in_pokerkit(hand)


@pytest.mark.parametrize(
    ("stacks", "button", "sb", "bb", "antes"),
    [
        ({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 1, 2, 3, [0, 100, 0, 0]),
        ({1: 1000, 2: 150}, 1, 1, 2, [0, 100]),  # heads-up: pokerkit reads the antes reversed
    ],
)
def test_big_blind_ante_is_the_big_blinds_entry_without_trimming(
    stacks: dict[int, int], button: int, sb: int, bb: int, antes: list[int]
) -> None:
    # Given a big-blind ante of 100
    hand = Hand.deal(
        stacks, button=button, small_blind_seat=sb, big_blind_seat=bb,
        small_blind=50, big_blind=100, ante=100, big_blind_ante=True, deck=list(range(52)),
    )  # fmt: skip
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        hand.check(seat) if hand.to_call == 0 else hand.call(seat)
    # Then only the big blind's place has the ante, and pokerkit pays the same
    fields = tomllib.loads(phh.dumps(hand))
    assert fields["antes"] == antes
    assert fields["ante_trimming_status"] is False
    finished_in_pokerkit(hand)


def test_antes_for_everyone_count_towards_side_pots() -> None:
    # Given antes of 25 and a player all in for less than the ante
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 10},
        button=3, small_blind_seat=1, big_blind_seat=2, small_blind=50, big_blind=100, ante=25, deck=list(range(52)),
    )  # fmt: skip
    # (seat 3 is all in for 10 with its ante: the small blind acts first)
    assert hand.actor == 1
    hand.call(1)
    hand.check(2)
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        hand.check(seat)
    fields = tomllib.loads(phh.dumps(hand))
    assert fields["antes"] == [25, 25, 25]
    assert fields["ante_trimming_status"] is True
    finished_in_pokerkit(hand)


def test_time_outs_are_commented_and_pokerkit_ignores_the_comment() -> None:
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 1000},
        button=1, small_blind_seat=2, big_blind_seat=3, small_blind=50, big_blind=100, deck=list(range(52)),
    )  # fmt: skip
    hand.timeout(1)
    hand.timeout(2)
    fields = tomllib.loads(phh.dumps(hand))
    assert fields["actions"][-2:] == ["p3 f # timeout", "p1 f # timeout"]
    finished_in_pokerkit(hand)


def test_dumps_all_is_read_back_by_pokerkit_with_every_field() -> None:
    # Given two finished hands at table 4 of a tournament, with player names that need quoting
    texts = []
    for k in (1, 2):
        hand = heads_up({1: 1000, 5: 1000}, 1)
        hand.fold(1)
        fields: dict[str, phh.FieldValue] = {
            "event": "t-123", "table": 4, "hand": k, "seat_count": 9,
            "players": ["O'Brien", 'Zoë "Z"'], "_level": 3,
        }  # fmt: skip
        texts.append(phh.dumps(hand, fields))
    # When written as one file and read by pokerkit
    histories = list(HandHistory.loads_all(phh.dumps_all(texts)))
    # Then both hands come back with their fields
    assert [h.hand for h in histories] == [1, 2]
    first = histories[0]
    assert (first.event, first.table, first.seat_count, first.seats) == ("t-123", 4, 9, [5, 1])
    assert first.players == ["O'Brien", 'Zoë "Z"']
    assert first.finishing_stacks == [1050, 950]
    assert first.user_defined_fields == {"_button": 1, "_small_blind": 1, "_big_blind": 5, "_level": 3}


def test_a_field_pokerkit_does_not_know_must_be_a_user_field() -> None:
    hand = heads_up({1: 1000, 5: 1000}, 1)
    with pytest.raises(ValueError, match="'_level_name'"):
        phh.dumps(hand, {"level_name": "3"})
