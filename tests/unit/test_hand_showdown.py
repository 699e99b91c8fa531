"""Side pots, uncalled bets, split pots and the showdown, with exact chip counts (docs/rules.md, 'Play')."""

from __future__ import annotations

from tourney.domain.cards import parse_cards
from tourney.domain.hand import (
    BetReturned,
    BoardDealt,
    Hand,
    HoleCardsMucked,
    HoleCardsShown,
    PotResult,
    build_pots,
    split,
)

from tests.support.decks import heads_up, stacked_deck

DRY_BOARD = "2c7d9hJs3d"  # no pair, straight or flush possible with the holes below


def cards(text: str) -> tuple[int, int]:
    first, second = parse_cards(text)
    return first, second


def check_through(hand: Hand, streets: int, *seats: int) -> None:
    """``seats`` check in turn on each of the next ``streets`` streets."""
    for _ in range(streets):
        for seat in seats:
            hand.check(seat)


def limped_and_checked(hand: Hand, streets: int) -> None:
    """Heads-up, seat 1 on the button: it limps, the big blind checks, then both check ``streets`` streets."""
    hand.call(1)
    hand.check(2)
    check_through(hand, streets, 2, 1)


def test_three_all_ins_make_a_main_pot_and_two_side_pots() -> None:
    # Given four stacks of 100, 300, 600 and 1,000, blinds 10/20, seat 4 on the button
    deck = stacked_deck(["AsAh", "KsKh", "QsQh", "8c6h"], DRY_BOARD)
    hand = Hand.deal(
        {1: 100, 2: 300, 3: 600, 4: 1000},
        button=4, small_blind_seat=1, big_blind_seat=2, small_blind=10, big_blind=20, deck=deck,
    )  # fmt: skip
    # When seat 3 goes all in, seat 4 calls, and both blinds call all in
    hand.bet_or_raise_to(3, 600)
    hand.call(4)
    hand.call(1)
    hand.call(2)
    # Then the pots are 400 (all four), 600 (seats 2-4) and 600 (seats 3-4), each won by its best hand
    result = hand.result
    assert result is not None
    assert result.pots == (
        PotResult(400, (1, 2, 3), (1,), (400,)),  # seat 4 won nothing: out of every pot
        PotResult(600, (2, 3), (2,), (600,)),
        PotResult(600, (3,), (3,), (600,)),
    )
    assert result.finishing_stacks == {1: 400, 2: 600, 3: 600, 4: 400}
    assert sum(result.finishing_stacks.values()) == 2000
    # And every hand was shown before the board was dealt out
    kinds = [type(r) for r in hand.log[-7:]]
    assert kinds == [HoleCardsShown] * 4 + [BoardDealt] * 3
    assert result.shown == {3: cards("QsQh"), 4: cards("8c6h"), 1: cards("AsAh"), 2: cards("KsKh")}
    assert result.showdown and result.mucked == ()


def test_side_pots_while_the_hand_is_played() -> None:
    # Given the same all-ins, before the last call
    hand = Hand.deal(
        {1: 100, 2: 300, 3: 600, 4: 1000},
        button=4, small_blind_seat=1, big_blind_seat=2, small_blind=10, big_blind=20, deck=list(range(52)),
    )  # fmt: skip
    hand.bet_or_raise_to(3, 600)
    hand.call(4)
    hand.call(1)
    # Then the pots as they stand count the big blind's 20 posted so far
    assert [(p.amount, p.eligible) for p in hand.pots] == [(80, (1, 2, 3, 4)), (240, (1, 3, 4)), (1000, (3, 4))]
    assert hand.pot == 1320


def test_the_uncalled_part_of_a_bet_goes_back() -> None:
    # Given heads-up, seat 2 (big blind) has 300 and the better hand
    deck = stacked_deck(["AsAh", "KsKh"], DRY_BOARD)
    hand = heads_up({1: 2000, 2: 300}, 1, deck)
    hand.call(1)
    hand.check(2)
    # When seat 1 bets 500 on the flop and seat 2 calls all in for 200
    hand.check(2)
    hand.bet(1, 500)
    hand.call(2)
    # Then 300 of the bet went back to seat 1 and the pot was 600
    assert BetReturned(1, 300) in hand.log
    result = hand.result
    assert result is not None
    assert result.pots == (PotResult(600, (2,), (2,), (600,)),)
    assert result.finishing_stacks == {2: 600, 1: 1700}


def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button() -> None:
    # Given antes of 1 and blinds 50/100: the button folds, the blinds check down and split a board straight
    deck = stacked_deck(["2s3s", "2h3h", "4c4d"], "AsKdQhJcTs")
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 1000},
        button=1, small_blind_seat=2, big_blind_seat=3, small_blind=50, big_blind=100, ante=1, deck=deck,
    )  # fmt: skip
    hand.fold(1)
    hand.call(2)
    hand.check(3)
    check_through(hand, 3, 2, 3)
    # Then the pot of 203 is split 102 / 101, the odd chip to seat 2 (first after the button)
    result = hand.result
    assert result is not None
    assert result.pots == (PotResult(203, (2, 3), (2, 3), (102, 101)),)
    assert result.finishing_stacks == {2: 1001, 3: 1000, 1: 999}


def test_the_last_river_bettor_shows_first_and_a_beaten_hand_is_mucked() -> None:
    # Given three players check to the river, where seat 3 bets 100 and both others call
    deck = stacked_deck(["AsAh", "QsQh", "8c8h"], DRY_BOARD)  # seats 2, 3, 1
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 1000}, button=1, small_blind_seat=2, big_blind_seat=3,
        small_blind=50, big_blind=100, deck=deck,
    )  # fmt: skip
    hand.call(1)
    hand.call(2)
    hand.check(3)
    check_through(hand, 2, 2, 3, 1)
    hand.check(2)
    hand.bet(3, 100)
    hand.call(1)
    hand.call(2)
    # Then seat 3 shows first, seat 1 (beaten by it) mucks, seat 2 shows and wins
    assert list(hand.log[-3:]) == [
        HoleCardsShown(3, cards("QsQh")),
        HoleCardsMucked(1),
        HoleCardsShown(2, cards("AsAh")),
    ]
    result = hand.result
    assert result is not None
    assert result.mucked == (1,)
    assert result.finishing_stacks == {2: 1400, 3: 800, 1: 800}
    assert result.won(2) == 600


def test_checked_down_showdown_starts_left_of_the_button() -> None:
    # Given two players check every street; seat 1 (button) holds the better hand
    deck = stacked_deck(["8c8h", "AsAh"], DRY_BOARD)  # seats 2, 1
    hand = heads_up({1: 1000, 2: 1000}, 1, deck)
    limped_and_checked(hand, 3)
    # Then seat 2 shows first (nobody else has shown), then seat 1 shows the winner
    assert list(hand.log[-2:]) == [HoleCardsShown(2, cards("8c8h")), HoleCardsShown(1, cards("AsAh"))]


def test_an_all_in_on_the_river_shows_every_hand() -> None:
    # Given heads-up on the river, seat 1 (worse hand) bets all in and seat 2 calls
    deck = stacked_deck(["AsAh", "8c8h"], DRY_BOARD)  # seats 2, 1
    hand = heads_up({1: 500, 2: 1000}, 1, deck)
    limped_and_checked(hand, 2)
    hand.check(2)
    hand.bet(1, 400)
    hand.call(2)
    # Then both hands are shown, the loser's too
    result = hand.result
    assert result is not None
    assert set(result.shown) == {1, 2} and result.mucked == ()
    assert result.finishing_stacks == {2: 1500, 1: 0}


def test_pots_merge_when_the_same_players_may_win_them() -> None:
    # Given contributions of 100, 100 and 40 where the short player folded
    # Then the 40 level and the 100 level are one pot for players 0 and 1
    assert build_pots([100, 100, 40], 0, [True, True, False]) == [(240, (0, 1))]
    # And dead money joins the main pot
    assert build_pots([100, 100, 40], 30, [True, True, True]) == [(150, (0, 1, 2)), (120, (0, 1))]
    assert split(10, 3) == (4, 3, 3)
