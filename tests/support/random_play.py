"""Random legal play for tests: seeded hands with random positions, stacks, antes and actions.

The action mix is the benchmark's (docs/interfaces.md, ``tourney bench``): fold .25,
check or call .55, min-raise .15, all-in .05; an illegal pick falls back to
check or call.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tourney.domain.hand import Hand, Posted, PostKind


@dataclass(frozen=True)
class Setup:
    """One random deal: what ``Hand.deal`` takes."""

    stacks: dict[int, int]
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    deck: list[int]

    def deal(self) -> Hand:
        return Hand.deal(
            self.stacks,
            button=self.button,
            small_blind_seat=self.small_blind_seat,
            big_blind_seat=self.big_blind_seat,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            big_blind_ante=self.big_blind_ante,
            deck=self.deck,
        )


def random_setup(
    rng: random.Random, players: int | None = None, seat_count: int = 10, *, short_blinds: bool = False
) -> Setup:
    """Random seats, positions (including no small blind and newcomers before the blinds), stacks and antes.

    ``short_blinds``: the deals pokerkit once refused, every time: four players or more, antes (for
    everyone or a big-blind ante), newcomers between the button and the blinds, and blinds all in for
    less than the blind, often for nothing (every chip on the ante).
    """
    n = players if players is not None else rng.randint(4 if short_blinds else 2, seat_count)
    seats = sorted(rng.sample(range(1, seat_count + 1), n))
    big_blind = rng.choice((2, 10, 100, 200))
    small_blind = big_blind // 2
    ante_kind = rng.random() * (0.55 if short_blinds else 1.0)
    ante, bb_ante = 0, False
    if ante_kind < 0.3:
        ante = rng.choice((1, big_blind // 10 or 1, big_blind // 4 or 1))
    elif ante_kind < 0.55:
        ante, bb_ante = big_blind, True
    stacks = {}
    for seat in seats:
        shape = rng.random()
        if shape < 0.25:
            stacks[seat] = rng.randint(1, 3 * big_blind)  # short: blinds and antes all in
        elif shape < 0.5:
            stacks[seat] = rng.randint(1, 30 * big_blind)
        else:
            stacks[seat] = rng.randint(20 * big_blind, 200 * big_blind)
    b = rng.randrange(n)
    button = seats[b]
    after = [seats[(b + k) % n] for k in range(1, n)]  # clockwise from the button
    if n == 2:
        sb_seat: int | None = button if rng.random() < 0.9 else None
        bb_seat = after[0]
    else:
        skip = 0
        if n >= 4 and (short_blinds or rng.random() < 0.2):
            skip = rng.randint(1, n - 3)  # newcomers sat between the button and the blinds
        if rng.random() < (0.5 if short_blinds else 0.8):
            sb_seat, bb_seat = after[skip], after[skip + 1]
        else:
            sb_seat, bb_seat = None, after[skip]
    if short_blinds:
        for seat in (sb_seat, bb_seat):
            if seat is not None:
                stacks[seat] = rng.randint(1, ante if rng.random() < 0.5 else ante + big_blind - 1)
    deck = list(range(52))
    rng.shuffle(deck)
    return Setup(stacks, button, sb_seat, bb_seat, small_blind, big_blind, ante, bb_ante, deck)


def play_randomly(hand: Hand, rng: random.Random, *, timeouts: float = 0.0, any_size: bool = False) -> Hand:
    """Play ``hand`` to its end with random legal decisions.

    ``timeouts``: the share of decisions left to the clock (rule 16);
    ``any_size``: raises of any legal size, not only the minimum or all in.
    """
    while not hand.is_over:
        options = hand.options()
        assert options is not None
        seat = options.seat
        r = rng.random()
        if r < timeouts:
            hand.timeout(seat)
        elif r < 0.25 and options.can_fold:
            hand.fold(seat)
        elif r >= 0.80 and options.min_raise_to is not None and options.max_raise_to is not None:
            if any_size and r < 0.9:
                amount = rng.randint(options.min_raise_to, options.max_raise_to)
            else:
                amount = options.min_raise_to if r < 0.95 else options.max_raise_to
            hand.bet_or_raise_to(seat, amount)
        elif options.can_check:
            hand.check(seat)
        else:
            hand.call(seat)
    return hand


def blinds_posted_nothing(hand: Hand) -> bool:
    """True when every chip the blinds had went to the antes, so no blind bet was posted.

    Pokerkit then opens the betting after the button, like a later round, and so does ``Hand``
    (``hand/state.py``); it changes the order only when players sit between the button and the blinds.
    """
    return not any(isinstance(r, Posted) and r.post is not PostKind.ANTE and r.amount > 0 for r in hand.log)


def blind_all_in_for_less(hand: Hand) -> bool:
    """True when a blind posted less than its amount (all in for less, docs/rules.md)."""
    due = {PostKind.SMALL_BLIND: hand.small_blind, PostKind.BIG_BLIND: hand.big_blind}
    return any(isinstance(r, Posted) and r.post in due and r.amount < due[r.post] for r in hand.log)
