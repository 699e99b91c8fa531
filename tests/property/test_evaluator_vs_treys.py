"""Our evaluator orders hands exactly as treys does (treys: 1 is the best hand, lower is stronger)."""

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tourney.domain.cards import card_str
from tourney.domain.evaluator import HandCategory, category, evaluate, evaluate7
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

TREYS = TreysEvaluator()
TREYS_CARDS = [TreysCard.new(card_str(c)) for c in range(52)]


def treys_rank(cards: Sequence[int]) -> int:
    converted = [TREYS_CARDS[c] for c in cards]
    return int(TREYS.evaluate(converted[:2], converted[2:]))


def treys_category(rank: int) -> HandCategory:
    # treys classes: 0 royal flush, 1 straight flush, ..., 9 high card
    return HandCategory(9 - max(TREYS.get_rank_class(rank), 1))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def assert_same_order(deals: list[list[int]]) -> None:
    """Our strengths, sorted by treys rank, fall strictly where treys' rises and tie where it ties."""
    ours_by_treys: dict[int, int] = {}
    for cards in deals:
        rank, ours = treys_rank(cards), evaluate(cards)
        assert ours_by_treys.setdefault(rank, ours) == ours, f"treys ties {card_strs(cards)} with another hand"
        assert category(ours) is treys_category(rank), card_strs(cards)
    ranks = sorted(ours_by_treys)
    assert all(ours_by_treys[a] > ours_by_treys[b] for a, b in itertools.pairwise(ranks))


def card_strs(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


seven_cards = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)
showdown = st.permutations(range(52)).map(lambda deck: (deck[:5], deck[5:7], deck[7:9]))


@settings(max_examples=400, deadline=None)
@given(seven_cards, seven_cards)
def test_any_two_hands_compare_as_treys_compares_them(a: list[int], b: list[int]) -> None:
    # Given two random seven-card hands
    # When both evaluators compare them
    ours = sign(evaluate7(*a) - evaluate7(*b))
    theirs = sign(treys_rank(b) - treys_rank(a))
    # Then they agree on the winner or the tie, and on each category
    assert ours == theirs
    assert category(evaluate7(*a)) is treys_category(treys_rank(a))


@settings(max_examples=400, deadline=None)
@given(showdown)
def test_two_players_sharing_a_board_win_or_split_as_treys_says(deal: tuple[list[int], ...]) -> None:
    # Given a board and two players' hole cards (ties are frequent here)
    board, first, second = deal
    # When each hand is evaluated on the board
    ours = sign(evaluate7(*first, *board) - evaluate7(*second, *board))
    theirs = sign(treys_rank(second + board) - treys_rank(first + board))
    # Then the winner, or the split, is the same
    assert ours == theirs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=6, unique=True), seven_cards)
def test_five_and_six_card_hands_compare_as_treys_compares_them(few: list[int], seven: list[int]) -> None:
    assert sign(evaluate(few) - evaluate(seven)) == sign(treys_rank(seven) - treys_rank(few))


def every_rank_multiset_without_a_flush() -> list[list[int]]:
    """All 49,205 multisets of seven ranks (at most four of each), suited round-robin so no flush."""
    deals = []
    for ranks in itertools.combinations_with_replacement(range(13), 7):
        if max(ranks.count(r) for r in set(ranks)) <= 4:
            deals.append([rank * 4 + i % 4 for i, rank in enumerate(ranks)])
    return deals


def every_flush() -> list[list[int]]:
    """Every set of 5, 6 or 7 hearts (4,719 rank masks), filled up to seven cards with other suits."""
    deals = []
    for size in (5, 6, 7):
        for ranks in itertools.combinations(range(13), size):
            hearts = [r * 4 + 2 for r in ranks]
            fillers = [r * 4 + s for r, s in zip(ranks, (0, 3), strict=False)][: 7 - size]
            deals.append(hearts + fillers)
    return deals


def test_every_non_flush_rank_multiset_is_ordered_as_treys_orders_it() -> None:
    # Given every seven-card rank combination, with no flush
    deals = every_rank_multiset_without_a_flush()
    assert len(deals) == 49_205
    # Then ours and treys order them identically (ties included)
    assert_same_order(deals)


def test_every_flush_and_straight_flush_is_ordered_as_treys_orders_it() -> None:
    # Given every flush rank pattern, with 0 to 2 cards of other suits
    deals = every_flush()
    assert len(deals) == 4_719
    # Then ours and treys order them identically
    assert_same_order(deals)


def random_deals(seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 7) for _ in range(count)]


def test_random_deals_are_ordered_as_treys_orders_them() -> None:
    # Given 30,000 seeded random seven-card deals
    # Then ours and treys order them identically, and agree on every category
    assert_same_order(random_deals(seed=7, count=30_000))


@pytest.mark.slow
def test_a_million_random_deals_are_ordered_as_treys_orders_them() -> None:
    assert_same_order(random_deals(seed=8, count=1_000_000))
