"""Stacked decks for tests: choose each player's hole cards and the board, in the hand's dealing order."""

from __future__ import annotations

from collections.abc import Sequence

from tourney.domain.cards import parse_cards
from tourney.domain.hand import Hand


def stacked_deck(holes: Sequence[str], board: str = "") -> list[int]:
    """A deck dealing ``holes[i]`` to the i-th player clockwise after the button (the button last).

    Hole cards go one at a time round the table; a card is burnt before the
    flop, the turn and the river. Unnamed places are filled from the rest of
    the deck in order.
    """
    n = len(holes)
    pairs = [parse_cards(h) for h in holes]
    wanted = parse_cards(board)
    deck: list[int | None] = [None] * 52
    for i, (first, second) in enumerate(pairs):
        deck[i], deck[n + i] = first, second
    for k, card in enumerate(wanted):
        deck[2 * n + 1 + k + (1 if k >= 3 else 0) + (1 if k >= 4 else 0)] = card
    used = {c for c in deck if c is not None}
    rest = iter(c for c in range(52) if c not in used)
    return [c if c is not None else next(rest) for c in deck]


def heads_up(stacks: dict[int, int], button: int, deck: Sequence[int] = tuple(range(52))) -> Hand:
    """A heads-up hand at blinds 50/100: the button posts the small blind, the other seat the big blind."""
    (other,) = (seat for seat in stacks if seat != button)
    return Hand.deal(
        stacks, button=button, small_blind_seat=button, big_blind_seat=other, small_blind=50, big_blind=100, deck=deck
    )
