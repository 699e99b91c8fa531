"""The draw for the button (docs/rules.md, 'Start, seats and the button'; seed rules 6 and 12).

Each seated player gets one card from a freshly shuffled deck; the highest card
wins the button. Equal ranks are settled by suit, spades > hearts > diamonds >
clubs, which is exactly how card ints compare (see ``cards.py``), so the winner
is simply the seat holding the largest card. The same draw selects the button
again when the final table is formed (rule 12).

The cards are dealt from the top of the deck (index 0) to the seats in
increasing seat order; the order does not change who wins, only which card
each seat gets, and it makes a draw replayable from its deck.

>>> from tourney.domain.cards import parse_cards
>>> draw = draw_for_button([1, 4, 7], deck=parse_cards("Kh Ks 2c"))
>>> draw.button, card_str(draw.card_of(4))
(4, 'Ks')
>>> draw.to_dict()
{'cards': {'1': 'Kh', '4': 'Ks', '7': '2c'}, 'button': 4}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tourney.domain.cards import Card, card_str, parse_card, shuffled_deck
from tourney.domain.errors import NotEnoughPlayers


@dataclass(frozen=True)
class DrawnCard:
    """The card one seat drew for the button."""

    seat: int
    card: Card


@dataclass(frozen=True)
class ButtonDraw:
    """The record of a button draw, kept in the table's history (docs/rules.md, rule 6)."""

    cards: tuple[DrawnCard, ...]
    button: int
    hand: int = 0
    """The table's hand dealt from this draw, its first after it (0: none dealt yet); its view and history show
    the draw (docs/openapi.json, ``button_draw``)."""

    def card_of(self, seat: int) -> Card:
        for drawn in self.cards:
            if drawn.seat == seat:
                return drawn.card
        raise KeyError(seat)

    def to_dict(self) -> dict[str, Any]:
        drawn = {"cards": {str(d.seat): card_str(d.card) for d in self.cards}, "button": self.button}
        return drawn | ({"hand": self.hand} if self.hand else {})

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ButtonDraw:
        cards = tuple(DrawnCard(int(seat), parse_card(name)) for seat, name in raw["cards"].items())
        return cls(cards=cards, button=int(raw["button"]), hand=int(raw.get("hand", 0)))


def draw_for_button(
    seats: Iterable[int],
    *,
    deck: Sequence[Card] | None = None,
    rng: random.Random | None = None,
) -> ButtonDraw:
    """Deal one card to each seat and give the button to the highest (docs/rules.md, rule 6).

    ``deck`` is a pre-shuffled deck (top card first); without it a fresh deck is
    shuffled with ``rng`` (``secrets.SystemRandom`` when ``rng`` is None).
    Raises ``NotEnoughPlayers`` for fewer than two seats: a lone player is not
    dealt to (docs/rules.md, 'Balancing and breaking').
    """
    ordered = sorted(set(seats))
    if len(ordered) < 2:
        raise NotEnoughPlayers(f"a button draw needs two seated players, got {len(ordered)}")
    cards = list(deck) if deck is not None else shuffled_deck(rng)
    if len(cards) < len(ordered) or len(set(cards[: len(ordered)])) != len(ordered):
        raise ValueError("the deck must hold one distinct card per seat")
    drawn = tuple(DrawnCard(seat, card) for seat, card in zip(ordered, cards, strict=False))
    winner = max(drawn, key=lambda d: d.card)
    return ButtonDraw(cards=drawn, button=winner.seat)
