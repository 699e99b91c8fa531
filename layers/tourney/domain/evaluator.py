"""Hold'em hand strength: the best five-card poker hand out of five to seven cards.

The game is no-limit Texas hold'em (docs/rules.md, "Play", rules 9 and 16), so at
showdown each player's best five of their seven cards wins, with the standard
hand ranking. A *strength* is a plain ``int``: higher is stronger, equal
strengths tie and split the pot (suits never break a tie at showdown; they
only order the button draw of rule 6). The number packs the category in bits
20-23 and up to five ranks (deuce 0 .. ace 12) below it, most significant
first, so ``category`` and ``describe`` can read it back.

How ``evaluate7`` is fast in pure Python (about 20x treys on this machine):

* Each card has a precomputed key: a rank key in the low 23 bits, chosen so
  that the sum over any seven cards is unique per multiset of ranks (the
  greedy "perfect hash" keys of SKPokerEval), plus a suit weight times 2**23.
  Suit weights are offset to straddle zero so that every partial sum stays a
  single-digit CPython int (``|s| < 2**30``), the fast path of ``+``.
* ``s >> 23`` is the sum of the seven suit weights; it alone tells whether
  five cards share a suit, and which suit.
* No flush: ``s & 0x7FFFFF`` indexes a dict of the 49,205 seven-card rank
  multisets. Flush (about 3 % of deals): the flush suit's 13-bit rank mask
  indexes a list of 8,192 flush and straight-flush strengths. Seven cards
  cannot hold both a flush and a full house (that would take eight cards),
  so the flush strength is the answer.
* Card keys are summed two at a time through a 52x52 table of pair keys.

The tables are built at import, in about 25 ms (measured with
``python -X importtime``), with no data file.

>>> from tourney.domain.cards import parse_cards
>>> describe(evaluate(parse_cards("AsKsQsJsTs9h9d")))
'a Royal Flush'
>>> describe(evaluate(parse_cards("Kh Kd 5c 5s Kc")))
'a full house, Kings full of Fives'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import IntEnum
from itertools import combinations, permutations
from operator import lshift
from typing import Final

from tourney.domain.cards import Card


class HandCategory(IntEnum):
    """Poker hand categories from weakest to strongest (a royal flush is the best straight flush)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_ACE: Final = 12
_FIVE: Final = 3
_RANK_COUNT: Final = 13
_ALL_RANKS: Final = 0x1FFF
_WHEEL: Final = 0x100F  # A-2-3-4-5

_HIGH_CARD: Final = HandCategory.HIGH_CARD << 20
_ONE_PAIR: Final = HandCategory.ONE_PAIR << 20
_TWO_PAIR: Final = HandCategory.TWO_PAIR << 20
_THREE_OF_A_KIND: Final = HandCategory.THREE_OF_A_KIND << 20
_STRAIGHT: Final = HandCategory.STRAIGHT << 20
_FLUSH: Final = HandCategory.FLUSH << 20
_FULL_HOUSE: Final = HandCategory.FULL_HOUSE << 20
_FOUR_OF_A_KIND: Final = HandCategory.FOUR_OF_A_KIND << 20
_STRAIGHT_FLUSH: Final = HandCategory.STRAIGHT_FLUSH << 20

# Sums of up to seven of these (at most four of each) differ for different
# multisets of ranks: the greedy keys of SKPokerEval (the smallest next key
# keeping every sum unique). Largest seven-card sum: 7,825,759 < 2**23.
_RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
_RANK_BITS: Final = 23
_RANK_MASK: Final = (1 << _RANK_BITS) - 1

# Suit weights 0, 1, 25, 32 (found by search: the smallest whose seven-card
# sums tell which suit, if any, holds five cards), shifted by -16 so the sums
# lie in -112..112 and every partial sum of card keys stays under 2**30.
_SUIT_WEIGHTS: Final = (-16, -15, 9, 16)


def _straight_highs() -> list[int]:
    """For each 13-bit rank mask, the top rank of the best straight in it, or -1.

    The wheel A-2-3-4-5 is the lowest straight, five high.
    """
    highs = [-1] * (_ALL_RANKS + 1)
    for high in range(_FIVE, _ACE + 1):  # ascending: a higher straight overwrites a lower one
        run = _WHEEL if high == _FIVE else 0x1F << (high - 4)
        free = _ALL_RANKS & ~run
        extra = free
        while True:  # every superset of the run
            highs[run | extra] = high
            if not extra:
                break
            extra = (extra - 1) & free
    return highs


def _pack(category: int, ranks: Sequence[int]) -> int:
    strength = category
    shift = 16
    for rank in ranks:
        strength |= rank << shift
        shift -= 4
    return strength


def _flush_strengths(straight_highs: list[int]) -> list[int]:
    """Strength of the flush (or straight flush) held in each one-suit rank mask of 5 to 7 ranks."""
    table = [0] * (_ALL_RANKS + 1)
    descending = range(_ACE, -1, -1)
    for size in (5, 6, 7):
        for ranks in combinations(descending, size):
            mask = sum(1 << r for r in ranks)
            high = straight_highs[mask]
            table[mask] = _STRAIGHT_FLUSH | high << 16 if high >= 0 else _pack(_FLUSH, ranks[:5])
    return table


def _rank_strengths(straight_highs: list[int]) -> dict[int, int]:
    """Strength of every seven-card multiset of ranks without a flush, keyed by the sum of its rank keys.

    Enumerated shape by shape (4+3, 4+2+1, ..., 1*7): 49,205 multisets.
    """
    table: dict[int, int] = {}
    _with_four_of_a_kind(table)
    _with_three_of_a_kind(table, straight_highs)
    _with_two_pairs(table, straight_highs)
    _with_one_pair(table, straight_highs)
    _with_seven_ranks(table, straight_highs)
    return table


_DESCENDING: Final = range(_ACE, -1, -1)  # so that combinations come out highest first
# a rank's key above its bit in one int: summed over distinct ranks, neither part carries into the other
_KEY_AND_BIT: Final = tuple(_RANK_KEYS[rank] << 13 | 1 << rank for rank in range(13))


def _each_rank(times: int) -> Iterator[tuple[int, list[int], int]]:
    """Each rank held ``times`` times, highest first: the rank, the other ranks (descending), the key of its cards."""
    for rank in _DESCENDING:
        yield rank, [r for r in _DESCENDING if r != rank], times * _RANK_KEYS[rank]


def _with_four_of_a_kind(table: dict[int, int]) -> None:
    """Shapes 4+3, 4+2+1 and 4+1+1+1: four of a kind, the best other card kicking."""
    keys = _RANK_KEYS
    for quad, others, base in _each_rank(4):
        strength = _FOUR_OF_A_KIND | quad << 16
        for trips in others:
            table[base + 3 * keys[trips]] = strength | trips << 12
        for pair, single in permutations(others, 2):
            table[base + 2 * keys[pair] + keys[single]] = strength | max(pair, single) << 12
        for a, b, c in combinations(others, 3):
            table[base + keys[a] + keys[b] + keys[c]] = strength | a << 12


def _with_three_of_a_kind(table: dict[int, int], straight_highs: list[int]) -> None:
    """Shapes 3+3+1, 3+2+2, 3+2+1+1 (a full house) and 3+1+1+1+1 (a straight, or three of a kind)."""
    keys = _RANK_KEYS
    for trips, others, base in _each_rank(3):
        full = _FULL_HOUSE | trips << 16
        for other in others:  # the rank that plays as the pair
            rest = [r for r in others if r != other]
            if other < trips:  # 3+3+1: the lower trips plays as the pair
                for single in rest:
                    table[base + 3 * keys[other] + keys[single]] = full | other << 12
            for pair in rest:  # 3+2+2: the higher pair plays
                if pair < other:
                    table[base + 2 * keys[other] + 2 * keys[pair]] = full | other << 12
            for a, b in combinations(rest, 2):  # 3+2+1+1
                table[base + 2 * keys[other] + keys[a] + keys[b]] = full | other << 12
        _straight_or(table, straight_highs, base, 1 << trips, others, 4, _THREE_OF_A_KIND, (trips,), 2)


def _with_two_pairs(table: dict[int, int], straight_highs: list[int]) -> None:
    """Shapes 2+2+2+1 and 2+2+1+1+1: two pairs, or a straight."""
    keys = _RANK_KEYS
    for p1, p2 in combinations(_DESCENDING, 2):
        others = [r for r in _DESCENDING if r != p1 and r != p2]
        base = 2 * keys[p1] + 2 * keys[p2]
        two_pair = _TWO_PAIR | p1 << 16 | p2 << 12
        for p3 in others:
            if p3 < p2:
                for single in others:
                    if single != p3:
                        table[base + 2 * keys[p3] + keys[single]] = two_pair | max(p3, single) << 8
        _straight_or(table, straight_highs, base, 1 << p1 | 1 << p2, others, 3, _TWO_PAIR, (p1, p2), 1)


def _with_one_pair(table: dict[int, int], straight_highs: list[int]) -> None:
    """Shape 2+1+1+1+1+1: one pair, or a straight."""
    for pair, others, base in _each_rank(2):
        _straight_or(table, straight_highs, base, 1 << pair, others, 5, _ONE_PAIR, (pair,), 3)


def _with_seven_ranks(table: dict[int, int], straight_highs: list[int]) -> None:
    """Shape 1*7: a high card, or a straight."""
    _straight_or(table, straight_highs, 0, 0, _DESCENDING, 7, _HIGH_CARD, (), 5)


def _straight_or(
    table: dict[int, int],
    straight_highs: list[int],
    base: int,
    bits: int,
    others: Sequence[int],
    count: int,
    category: int,
    made: tuple[int, ...],
    kickers: int,
) -> None:
    """Every way to add ``count`` single ranks of ``others`` to the multiset keyed ``base`` (its ranks: ``bits``):
    a straight when the seven ranks hold one, else ``category`` led by ``made`` and the best ``kickers`` singles."""
    key_and_bit = _KEY_AND_BIT.__getitem__
    head = _pack(category, made)
    shifts = range(16 - 4 * len(made), -1, -4)[:kickers]
    for singles in combinations(others, count):  # others descending: the first singles are the best kickers
        both = sum(map(key_and_bit, singles))
        high = straight_highs[bits | both & _ALL_RANKS]
        strength = _STRAIGHT | high << 16 if high >= 0 else head + sum(map(lshift, singles, shifts))
        table[base + (both >> 13)] = strength


def _flush_suits() -> list[tuple[int, ...] | None]:
    """Index: the sum of seven suit weights. Value: for the suit holding five or more of
    the seven cards, each card's rank bit if it is of that suit (else 0); None without a flush.
    """
    by_sum: list[tuple[int, ...] | None] = [None] * 256  # sums -112..112; negatives index from the end
    suit_bits = [tuple(1 << (c >> 2) if c & 3 == suit else 0 for c in range(52)) for suit in range(4)]
    for n0 in range(8):
        for n1 in range(8 - n0):
            for n2 in range(8 - n0 - n1):
                counts = (n0, n1, n2, 7 - n0 - n1 - n2)
                flush_suit = next((suit for suit in range(4) if counts[suit] >= 5), None)
                if flush_suit is not None:
                    total = sum(n * w for n, w in zip(counts, _SUIT_WEIGHTS, strict=True))
                    by_sum[total] = suit_bits[flush_suit]
    return by_sum


_STRAIGHT_HIGHS: Final = _straight_highs()
_FLUSHES: Final = _flush_strengths(_STRAIGHT_HIGHS)
_NO_FLUSHES: Final = _rank_strengths(_STRAIGHT_HIGHS)
_FLUSH_SUITS: Final = _flush_suits()
_CARD_KEYS: Final = tuple((_SUIT_WEIGHTS[c & 3] << _RANK_BITS) + _RANK_KEYS[c >> 2] for c in range(52))
_PAIR_KEYS: Final = tuple(tuple(ka + kb for kb in _CARD_KEYS) for ka in _CARD_KEYS)


def evaluate7(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card, c5: Card, c6: Card) -> int:
    """Strength of the best five-card hand among seven distinct cards (higher is stronger).

    The showdown hot path: no validation, the caller passes seven different cards.
    """
    s = _PAIR_KEYS[c0][c1] + _PAIR_KEYS[c2][c3] + _PAIR_KEYS[c4][c5] + _CARD_KEYS[c6]
    bits = _FLUSH_SUITS[s >> 23]
    if bits is None:
        return _NO_FLUSHES[s & 0x7FFFFF]
    return _FLUSHES[bits[c0] | bits[c1] | bits[c2] | bits[c3] | bits[c4] | bits[c5] | bits[c6]]


def evaluate(cards: Sequence[Card]) -> int:
    """Strength of the best five-card hand among five, six or seven distinct cards.

    Same scale as ``evaluate7``. Raises ``ValueError`` on another count or a repeated card.
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, got {len(cards)}")
    if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"not distinct cards: {list(cards)!r}")
    if len(cards) == 7:
        return evaluate7(*cards)
    return _evaluate_few(cards)


def evaluate_unchecked(cards: Sequence[Card]) -> int:
    """``evaluate`` without validation, for callers that hold five to seven distinct cards (the bots)."""
    if len(cards) == 7:
        return evaluate7(*cards)
    return _evaluate_few(cards)


def _evaluate_few(cards: Sequence[Card]) -> int:
    """Five or six cards, from their rank counts (no seven-card table applies)."""
    suit_masks = [0, 0, 0, 0]
    counts = [0] * _RANK_COUNT
    for card in cards:
        suit_masks[card & 3] |= 1 << (card >> 2)
        counts[card >> 2] += 1
    for mask in suit_masks:
        if mask.bit_count() >= 5:  # five or six cards cannot also hold a full house
            return _FLUSHES[mask]
    # ranks ordered by how many of them, then by rank: the order in which they play
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    shape = [n for n, _ in groups]
    order = [r for _, r in groups]
    if shape[0] == 4:
        return _FOUR_OF_A_KIND | order[0] << 16 | max(order[1:]) << 12
    if shape[0] == 3 and shape[1] >= 2:
        return _FULL_HOUSE | order[0] << 16 | order[1] << 12
    high = _STRAIGHT_HIGHS[sum(1 << r for r in order)]
    if high >= 0:
        return _STRAIGHT | high << 16
    if shape[0] == 3:
        return _pack(_THREE_OF_A_KIND, order[:3])
    if shape[1] == 2:
        return _pack(_TWO_PAIR, [order[0], order[1], max(order[2:])])
    if shape[0] == 2:
        return _pack(_ONE_PAIR, order[:4])
    return _pack(_HIGH_CARD, order[:5])


def category(strength: int) -> HandCategory:
    """The category of a strength returned by ``evaluate7`` or ``evaluate``."""
    return HandCategory(strength >> 20)


def category_number(strength: int) -> int:
    """``int(category(strength))`` without building the enum member (0 high card .. 8 straight flush)."""
    return strength >> 20


_SINGULAR: Final = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_PLURAL: Final = (
    "Deuces",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)


def describe(strength: int) -> str:
    """The hand as a PokerStars hand history names it (``'two pair, Kings and Fives'``).

    Straights read from the low card to the high card; the wheel is ``'Ace to Five'``.
    Kickers are not named: PokerStars names them only when comparing two hands.
    """
    kind = category(strength)
    first = (strength >> 16) & 0xF
    second = (strength >> 12) & 0xF
    if kind is HandCategory.STRAIGHT_FLUSH and first == _ACE:
        return "a Royal Flush"
    words = {"high": _SINGULAR[first], "first": _PLURAL[first], "second": _PLURAL[second]}
    return _DESCRIPTIONS[kind].format(run=_straight_words(first), **words)


_DESCRIPTIONS: Final = {
    HandCategory.HIGH_CARD: "high card {high}",
    HandCategory.ONE_PAIR: "a pair of {first}",
    HandCategory.TWO_PAIR: "two pair, {first} and {second}",
    HandCategory.THREE_OF_A_KIND: "three of a kind, {first}",
    HandCategory.STRAIGHT: "a straight, {run}",
    HandCategory.FLUSH: "a flush, {high} high",
    HandCategory.FULL_HOUSE: "a full house, {first} full of {second}",
    HandCategory.FOUR_OF_A_KIND: "four of a kind, {first}",
    HandCategory.STRAIGHT_FLUSH: "a straight flush, {run}",
}
"""Each category's words, ``first`` and ``second`` the ranks it is made of (plural), ``high`` its top card."""


def _straight_words(high: int) -> str:
    low = _ACE if high == _FIVE else high - 4
    return f"{_SINGULAR[low]} to {_SINGULAR[high]}"
