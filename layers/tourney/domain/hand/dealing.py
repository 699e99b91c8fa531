"""Who sits where in a hand, and what it is dealt with (docs/rules.md, rules 7, 8 and 14).

The table decides the positions (``tourney.domain.blinds``); the hand only
checks that they are consistent: the button, the small blind (if any) and the
big blind are dealt in, the button never posts the big blind, heads-up the
button posts the small blind (or nobody does), and otherwise the big blind is
the next player after the small blind. Players who arrived at the table may
sit between the button and the blinds (rule 8).

>>> seating_order({1: 500, 4: 500, 6: 500}, 4, 6, 1)
((6, 1, 4), 0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tourney.domain.cards import DECK_SIZE, Card
from tourney.domain.errors import InvalidDeal


def seating_order(
    stacks: Mapping[int, int], button: int, small_blind_seat: int | None, big_blind_seat: int
) -> tuple[tuple[int, ...], int, int]:
    """The dealt-in seats clockwise from the first after the button (the button last), and the blinds' indexes.

    The small blind's index is -1 when there is none. Raises ``InvalidDeal``
    when the positions break rule 7 or 14.
    """
    seats = sorted(stacks)
    n = len(seats)
    if n < 2:
        raise InvalidDeal(f"a hand needs two players or more, got {n}")
    if button not in stacks:
        raise InvalidDeal(f"the button seat {button} is not dealt in")
    if seats[0] < 1:
        raise InvalidDeal("seats are numbered from 1")
    if any(stacks[seat] <= 0 for seat in seats):
        raise InvalidDeal("every player dealt in has chips")
    cut = seats.index(button) + 1
    order = tuple(seats[cut:] + seats[:cut])
    if big_blind_seat not in stacks:
        raise InvalidDeal(f"the big blind seat {big_blind_seat} is not dealt in")
    if small_blind_seat is not None and small_blind_seat not in stacks:
        raise InvalidDeal(f"the small blind seat {small_blind_seat} is not dealt in")
    bb = order.index(big_blind_seat)
    sb = -1 if small_blind_seat is None else order.index(small_blind_seat)
    if bb == n - 1:
        raise InvalidDeal("the button does not post the big blind")
    if n == 2:
        if sb >= 0 and sb != n - 1:
            raise InvalidDeal("heads-up, the button posts the small blind (rule 14)")
    elif sb >= 0 and (sb == n - 1 or bb != sb + 1):
        raise InvalidDeal("the big blind is the next player clockwise after the small blind")
    return order, sb, bb


def check_forced_bets_and_deck(players: int, small_blind: int, big_blind: int, ante: int, deck: Sequence[Card]) -> None:
    """Raise ``InvalidDeal`` unless the blinds and ante make sense and the deck can deal the hand."""
    if big_blind <= 0 or not 0 <= small_blind <= big_blind or ante < 0:
        raise InvalidDeal(f"blinds {small_blind}/{big_blind} and ante {ante} are not valid")
    needed = 2 * players + 8  # hole cards, three burnt cards, five on the board
    if len(deck) < needed or len(set(deck)) != len(deck) or min(deck) < 0 or max(deck) >= DECK_SIZE:
        raise InvalidDeal(f"the deck must hold {needed} distinct cards or more")
