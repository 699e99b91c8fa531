"""The hand evaluator: the best five-card hand out of five to seven cards, higher is stronger."""

import itertools
import random

import pytest
from tourney.domain.cards import parse_cards
from tourney.domain.evaluator import (
    HandCategory,
    category,
    category_number,
    describe,
    evaluate,
    evaluate7,
    evaluate_unchecked,
)

from bench.evaluator import measure_evaluators


def strength(text: str) -> int:
    return evaluate(parse_cards(text))


@pytest.mark.parametrize(
    ("cards", "expected_category", "expected_words"),
    [
        ("Ah Jd 9c 7s 4h 3c 2d", HandCategory.HIGH_CARD, "high card Ace"),
        ("Kh Kd 9c 7s 4h 3c 2d", HandCategory.ONE_PAIR, "a pair of Kings"),
        ("Kh Kd 5c 5s 9h 3c 2d", HandCategory.TWO_PAIR, "two pair, Kings and Fives"),
        ("7h 7d 7c Ks 9h 3c 2d", HandCategory.THREE_OF_A_KIND, "three of a kind, Sevens"),
        ("9h Td Jc Qs Kh 3c 2d", HandCategory.STRAIGHT, "a straight, Nine to King"),
        ("Ah Jh 9h 7h 4h 3c 2d", HandCategory.FLUSH, "a flush, Ace high"),
        ("Kh Kd Kc 5s 5h 3c 2d", HandCategory.FULL_HOUSE, "a full house, Kings full of Fives"),
        ("Ah Ad Ac As 5h 3c 2d", HandCategory.FOUR_OF_A_KIND, "four of a kind, Aces"),
        ("9s Ts Js Qs Ks 3c 2d", HandCategory.STRAIGHT_FLUSH, "a straight flush, Nine to King"),
        ("As Ks Qs Js Ts 3c 2d", HandCategory.STRAIGHT_FLUSH, "a Royal Flush"),
    ],
)
def test_each_category_is_recognised_and_named_as_pokerstars_does(
    cards: str, expected_category: HandCategory, expected_words: str
) -> None:
    # Given seven cards whose best five make the category
    # When they are evaluated
    result = strength(cards)
    # Then the category and the hand-history wording are read back from the strength
    assert category(result) is expected_category
    assert describe(result) == expected_words


def test_categories_rank_high_card_to_straight_flush() -> None:
    # Given the weakest five-card hand of each category, weakest category first, then a royal flush
    ladder = [
        "7h 5d 4c 3s 2h",
        "2h 2d 5c 4s 3h",
        "3h 3d 2c 2s 4h",
        "2h 2d 2c 4s 3h",
        "Ah 2d 3c 4s 5h",
        "7h 5h 4h 3h 2h",
        "2h 2d 2c 3s 3h",
        "2h 2d 2c 2s 3h",
        "Ah 2h 3h 4h 5h",
        "Ah Kh Qh Jh Th",
    ]
    strengths = [strength(cards) for cards in ladder]
    # Then each beats the one before it, and the categories climb one by one
    assert all(lower < higher for lower, higher in itertools.pairwise(strengths))
    assert [category(s) for s in strengths] == [*HandCategory, HandCategory.STRAIGHT_FLUSH]


def test_wheel_is_the_lowest_straight_and_reads_ace_to_five() -> None:
    # Given the wheel, the six-high straight and the best three of a kind
    wheel = strength("Ah 2d 3c 4s 5h Kd 9c")
    six_high = strength("6h 2d 3c 4s 5h Kd 9c")
    aces = strength("Ah Ad Ac Ks Qh 9d 8c")
    # Then the wheel loses to six high but beats any three of a kind
    assert aces < wheel < six_high
    assert describe(wheel) == "a straight, Ace to Five"
    assert describe(six_high) == "a straight, Deuce to Six"


def test_ace_high_straight_reads_ten_to_ace() -> None:
    assert describe(strength("Ah Kd Qc Js Th 3d 3c")) == "a straight, Ten to Ace"


def test_steel_wheel_is_the_lowest_straight_flush_and_beats_four_of_a_kind() -> None:
    # Given the steel wheel with an extra six of another suit, and four kings
    steel_wheel = strength("Ah 2h 3h 4h 5h 6d Kd")
    quads = strength("Kh Kd Kc Ks Ah 2d 3c")
    six_high = strength("2h 3h 4h 5h 6h Ad Kd")
    # Then it reads "Ace to Five", beats quads and loses to the six-high straight flush
    assert describe(steel_wheel) == "a straight flush, Ace to Five"
    assert quads < steel_wheel < six_high


def test_highest_straight_among_seven_consecutive_ranks_plays() -> None:
    # Given seven ranks in a row, 4 to T
    # Then the straight is Six to Ten, equal to any other ten-high straight
    assert strength("4h 5d 6c 7s 8h 9d Tc") == strength("6h 7d 8c 9s Th 2d 2c")
    assert describe(strength("4h 5d 6c 7s 8h 9d Tc")) == "a straight, Six to Ten"


def test_kicker_decides_between_equal_pairs() -> None:
    # Given a board with a pair of aces, one player holding a king, the other a queen
    board = "As Ad 9c 6h 2d"
    king = strength(board + " Kc 3h")
    queen = strength(board + " Qc 3s")
    # Then the king kicker wins, and both are "a pair of Aces"
    assert king > queen
    assert describe(king) == describe(queen) == "a pair of Aces"


def test_fifth_card_decides_high_card_and_sixth_and_seventh_never_play() -> None:
    # Given A-K-Q-J-8 against A-K-Q-J-7
    assert strength("Ah Kd Qc Js 8h 3d 2c") > strength("Ad Kc Qs Jh 7d 6c 5s")
    # And two hands that differ only in their sixth and seventh cards
    assert strength("Ah Kd Qc Js 8h 4d 3c") == strength("Ad Kc Qs Jh 8d 3s 2h")


def test_board_plays_and_the_pot_is_split() -> None:
    # Given a broadway board, both players holding smaller cards
    board = "Ah Kd Qc Js Th"
    # Then both play the board and tie
    assert strength(board + " 2c 3d") == strength(board + " 4c 5d")
    # And a royal flush on the board ties everyone, even a player holding spades
    royal = "As Ks Qs Js Ts"
    assert strength(royal + " 9s 8s") == strength(royal + " 2c 2d")


def test_third_pair_cannot_make_two_pair_better_but_can_be_the_kicker() -> None:
    # Given K-K-9-9-4-4 with an ace, against K-K-9-9-4-4 with a deuce
    ace = strength("Kh Kd 9c 9s 4h 4d Ac")
    deuce = strength("Kc Ks 9h 9d 4c 4s 2c")
    # Then the pairs are kings and nines in both, the ace kicks, the fours kick against the deuce
    assert describe(ace) == describe(deuce) == "two pair, Kings and Nines"
    assert ace > deuce
    assert deuce == strength("Kc Ks 9h 9d 4c 3s 2c")


def test_full_house_from_two_trips_uses_the_lower_trips_as_the_pair() -> None:
    # Given three nines and three fours
    both = strength("9h 9d 9c 4s 4h 4d Ac")
    # Then it is nines full of fours, exactly as with a pair of fours
    assert describe(both) == "a full house, Nines full of Fours"
    assert both == strength("9h 9d 9c 4s 4h Kd Ac")
    # And with trips and two pairs the higher pair plays
    assert describe(strength("9h 9d 9c 4s 4h Kd Kc")) == "a full house, Nines full of Kings"


def test_four_of_a_kind_takes_the_best_kicker_even_from_a_pair_or_trips() -> None:
    # Given four fives with K-K-2, and four fives with Q-Q-Q
    assert strength("5h 5d 5c 5s Kh Kd 2c") > strength("5h 5d 5c 5s Qh Qd Qc")
    # Then the king kicker equals any other king kicker
    assert strength("5h 5d 5c 5s Kh Kd 2c") == strength("5h 5d 5c 5s Kh 3d 2c")


def test_flush_beats_a_straight_and_its_five_best_cards_play() -> None:
    # Given six hearts that also hold a straight with an off-suit card
    six_hearts = strength("Ah Th 9h 8h 6h 2h 7c")
    # Then it is an ace-high flush, beating the straight
    assert category(six_hearts) is HandCategory.FLUSH
    assert describe(six_hearts) == "a flush, Ace high"
    # And its sixth heart does not play
    assert six_hearts == strength("Ah Th 9h 8h 6h 3c 2c")
    # And the second card decides between two ace-high flushes
    assert six_hearts > strength("As 9s 8s 6s 4s Kd Kc")


def test_full_house_beats_a_flush_on_the_same_board() -> None:
    # Given a board with three hearts and a pair of eights
    board = "8h 8d Kh 4h 2c"
    flush = strength(board + " Ah 3h")
    full_house = strength(board + " 8c Kd")
    # Then eights full of kings beats the ace-high flush
    assert describe(full_house) == "a full house, Eights full of Kings"
    assert full_house > flush


@pytest.mark.parametrize(
    ("cards", "expected_words"),
    [
        ("2h 2d 9c 7s 4h", "a pair of Deuces"),
        ("6h 6d 9c 7s 4h", "a pair of Sixes"),
        ("3h 3d 3c 7s 4h", "three of a kind, Threes"),
        ("Th Td 2c 2s 4h", "two pair, Tens and Deuces"),
        ("Jh Jd Jc Qs Qh", "a full house, Jacks full of Queens"),
        ("7h 5h 4h 3h 2h", "a flush, Seven high"),
        ("Kh Qd Jc 9s 8h", "high card King"),
        ("2c 2d 2h 2s 3c", "four of a kind, Deuces"),
        ("8d 7d 6d 5d 4d", "a straight flush, Four to Eight"),
    ],
)
def test_rank_names_are_singular_or_plural_as_pokerstars_writes_them(cards: str, expected_words: str) -> None:
    assert describe(strength(cards)) == expected_words


def test_five_six_and_seven_cards_agree_with_their_best_subsets() -> None:
    # Given seeded random deals
    rng = random.Random(20240601)
    for _ in range(300):
        cards = rng.sample(range(52), 7)
        # When seven, six and five of the cards are evaluated
        seven = evaluate(cards)
        six = evaluate(cards[:6])
        # Then seven cards are as strong as their best six, and six as their best five
        assert seven == evaluate7(*cards)
        assert seven == max(evaluate(list(c)) for c in itertools.combinations(cards, 6))
        assert six == max(evaluate(list(c)) for c in itertools.combinations(cards[:6], 5))


def test_the_unchecked_evaluation_and_the_category_number_agree_with_the_checked_ones() -> None:
    # Given seeded random hands of five, six and seven cards
    rng = random.Random(20261201)
    for _ in range(600):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        # Then the bots' unchecked path gives the same strength and category
        found = evaluate(cards)
        assert evaluate_unchecked(cards) == evaluate_unchecked(tuple(cards)) == found
        assert category_number(found) == int(category(found))


def test_card_order_does_not_matter() -> None:
    # Given one deal in every rotation and reversed
    cards = parse_cards("Ah 2h 3h 4h Kd 5h 9s")
    orders = [cards[i:] + cards[:i] for i in range(7)] + [cards[::-1]]
    # Then the strength is the same
    assert {evaluate7(*order) for order in orders} == {strength("Ah 2h 3h 4h 5h")}


@pytest.mark.parametrize(
    "cards",
    [[51, 47, 43, 39], [51, 47, 43, 39, 35, 31, 27, 23], [51, 51, 43, 39, 35], [51, 47, 43, 39, 52], [-1, 0, 1, 2, 3]],
    ids=["four cards", "eight cards", "a card twice", "card 52", "card -1"],
)
def test_evaluate_rejects_other_counts_and_cards_that_are_not_distinct_cards(cards: list[int]) -> None:
    with pytest.raises(ValueError):
        evaluate(cards)


def test_category_rejects_a_number_that_is_not_a_strength() -> None:
    with pytest.raises(ValueError):
        category(9 << 20)


def test_evaluator_benchmark_reports_both_rates_and_their_ratio() -> None:
    # Given the side-by-side benchmark on a small seeded sample (speed itself is shown by
    # `tourney bench engine` and recorded in docs/performance.md, not asserted in a timed test)
    result = measure_evaluators(seed=3, hands=2_000, repeats=1)
    # Then it reports the three figures, and the ratio is ours over treys
    assert set(result) == {"ours_evals_per_s", "treys_evals_per_s", "evals_ratio"}
    assert result["ours_evals_per_s"] > 0 and result["treys_evals_per_s"] > 0
    assert result["evals_ratio"] == round(result["ours_evals_per_s"] / result["treys_evals_per_s"], 2)
