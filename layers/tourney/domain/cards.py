"""Cards and the deck.

A card is a small ``int`` from 0 to 51: ``rank * 4 + suit``. Ranks run from
deuce (0) to ace (12); suits are ordered as docs/rules.md ranks them for the button
draw (rule 6): clubs (0) < diamonds (1) < hearts (2) < spades (3). So comparing
two card ints compares them as the button draw does: rank first, then suit.

Shuffling uses ``secrets.SystemRandom`` (an unbiased Fisher-Yates shuffle over
the operating system's CSPRNG). Only tests and benchmarks pass another
``random.Random`` explicitly.

>>> parse_card("As"), card_str(51)
(51, 'As')
>>> [card_str(c) for c in parse_cards("Td2c")]
['Td', '2c']
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final

Card = int
"""A card: ``rank * 4 + suit`` (0..51)."""


class Rank(IntEnum):
    DEUCE = 0
    TREY = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


class Suit(IntEnum):
    """Suits in the button-draw order of rule 6 (spades highest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
DECK_SIZE: Final = 52
FULL_DECK: Final[tuple[Card, ...]] = tuple(range(DECK_SIZE))

_CARD_STRS: Final[tuple[str, ...]] = tuple(RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3] for c in FULL_DECK)
_CARD_BY_STR: Final[dict[str, Card]] = {s: i for i, s in enumerate(_CARD_STRS)}


def make_card(rank: Rank | int, suit: Suit | int) -> Card:
    return int(rank) * 4 + int(suit)


def rank_of(card: Card) -> Rank:
    return Rank(card >> 2)


def suit_of(card: Card) -> Suit:
    return Suit(card & 3)


def card_str(card: Card) -> str:
    """The two-character name used by PHH and hand histories, e.g. ``'Kh'``."""
    return _CARD_STRS[card]


def parse_card(text: str) -> Card:
    try:
        return _CARD_BY_STR[text[0].upper() + text[1].lower()]
    except (KeyError, IndexError):
        raise ValueError(f"not a card: {text!r}") from None


def parse_cards(text: str) -> list[Card]:
    """Parse concatenated or space-separated card names (``'AsKd'``, ``'As Kd'``)."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"not a list of cards: {text!r}")
    return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def cards_str(cards: Iterable[Card]) -> str:
    return "".join(_CARD_STRS[c] for c in cards)


_SYSTEM_RANDOM: Final = secrets.SystemRandom()


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """A freshly shuffled 52-card deck.

    Production passes nothing and gets ``secrets.SystemRandom``; a seeded
    ``random.Random`` is accepted only so tests and benchmarks can replay.
    """
    deck = list(FULL_DECK)
    getrandbits = (rng or _SYSTEM_RANDOM).getrandbits
    # ``random.shuffle``'s Fisher-Yates with its rejection sampling inlined: the same draws, so the same deck
    # for a seed, without a method call per card (the deal is on every hand's path).
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def draw_order(cards: Sequence[Card]) -> list[int]:
    """Indexes of ``cards`` from the highest card to the lowest (rule 6 order)."""
    return sorted(range(len(cards)), key=cards.__getitem__, reverse=True)
