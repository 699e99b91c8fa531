"""``tourney hands``: independent no-limit hold'em hands with random legal actions, written as PHH.

    tourney hands --players N --count K --seed S --out DIR

Plays ``K`` independent hands with ``N`` players (default 9) seated at seats
``1..N``, each with a fresh stack of 10,000 and blinds 50/100, and writes
``DIR/<k>.phh`` for ``k = 1..K`` (docs/interfaces.md, ``tourney hands``). Each file is
one PHH document with the real hole cards in its deal lines and
``finishing_stacks``, so pokerkit can replay it and check the stacks.

Seeding: ``--seed`` seeds this tool only. A master ``random.Random(S)`` draws
one 64-bit seed per hand; that hand's own ``random.Random`` draws the button,
shuffles the deck and then picks every decision. So hand ``k`` is the same
whatever ``K``, and the same ``S`` writes the same files byte for byte. The
production deal never does this: a table shuffles with
``secrets.SystemRandom`` (``tourney.domain.cards.shuffled_deck`` with no
generator), which cannot be replayed.

The action mix is the benchmark's (docs/interfaces.md, ``tourney bench``): fold .25,
check or call .55, min-raise .15, all-in .05. A pick that is not legal
falls back to what is: fold with nothing to call checks; a raise that is not
allowed checks or calls.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Final

from tourney.cli import whole_number
from tourney.domain.cards import shuffled_deck
from tourney.domain.hand import Decision, Hand
from tourney.domain.histories import phh

STARTING_STACK: Final = 10_000
SMALL_BLIND: Final = 50
BIG_BLIND: Final = 100
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10

FOLD_BELOW: Final = 0.25
"""A draw below this folds (.25)."""
CHECK_OR_CALL_BELOW: Final = 0.80
"""Else below this checks or calls (.55)."""
MIN_RAISE_BELOW: Final = 0.95
"""Else below this bets or raises the minimum (.15); the rest (.05) goes all in."""


def random_decision(hand: Hand, draw: float) -> Decision:
    """The decision of the player to act for one uniform ``draw`` in [0, 1), by the benchmark's action mix.

    >>> hand = Hand.deal({1: 1000, 2: 1000, 3: 1000}, button=1, small_blind_seat=2, big_blind_seat=3,
    ...                  small_blind=50, big_blind=100, deck=list(range(52)))
    >>> random_decision(hand, 0.9)  # min-raise
    Raised(seq=0, seat=1, to=200, all_in=False)
    >>> random_decision(hand, 0.99)  # all in
    Raised(seq=1, seat=2, to=1000, all_in=True)
    """
    options = hand.options()
    if options is None:
        raise ValueError("nobody is to act: the hand is over")
    seat = options.seat
    if draw < FOLD_BELOW and options.can_fold:
        return hand.fold(seat)
    if draw >= CHECK_OR_CALL_BELOW and options.min_raise_to is not None and options.max_raise_to is not None:
        return hand.bet_or_raise_to(seat, options.min_raise_to if draw < MIN_RAISE_BELOW else options.max_raise_to)
    if options.can_check:
        return hand.check(seat)
    return hand.call(seat)


def play_random_hand(players: int, rng: random.Random) -> Hand:
    """One hand at seats ``1..players``: fresh stacks, a random button, a seeded deck and random decisions."""
    seats = list(range(1, players + 1))
    b = rng.randrange(players)
    button = seats[b]
    after = [seats[(b + k) % players] for k in range(1, players)]  # clockwise from the button
    if players == 2:
        small_blind_seat, big_blind_seat = button, after[0]  # heads-up the button posts the small blind
    else:
        small_blind_seat, big_blind_seat = after[0], after[1]
    hand = Hand.deal(
        dict.fromkeys(seats, STARTING_STACK),
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        deck=shuffled_deck(rng),
    )
    draw = rng.random
    while not hand.is_over:
        random_decision(hand, draw())
    return hand


def hand_seeds(seed: int, count: int) -> list[int]:
    """One 64-bit seed per hand, drawn from ``random.Random(seed)``: hand ``k`` does not depend on ``count``."""
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(count)]


def write_hands(players: int, count: int, seed: int, out: Path) -> list[Path]:
    """Play ``count`` hands and write ``out/<k>.phh`` (``k`` from 1); return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, hand_seed in enumerate(hand_seeds(seed, count), start=1):
        hand = play_random_hand(players, random.Random(hand_seed))
        fields: dict[str, phh.FieldValue] = {
            "event": f"tourney hands --seed {seed}",
            "hand": k,
            "seat_count": players,
            "players": [f"Seat {s}" for s in hand.seats],
        }
        path = out / f"{k}.phh"
        path.write_text(phh.dumps(hand, fields, hole_cards=True), encoding="utf-8")
        paths.append(path)
    return paths


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Play independent random-action no-limit hold'em hands and write one PHH file per hand."
    parser.add_argument(
        "--players",
        type=whole_number(MIN_PLAYERS, MAX_PLAYERS, what="players"),
        default=9,
        help="players per hand, 2-10 (default 9)",
    )
    parser.add_argument("--count", type=whole_number(0, what="count"), default=1, help="number of hands (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seeds this tool only; the same seed writes the same files")
    parser.add_argument("--out", type=Path, required=True, help="directory for <k>.phh, k = 1..count")


def run(args: argparse.Namespace) -> int:
    paths = write_hands(args.players, args.count, args.seed, args.out)
    print(f"wrote {len(paths)} hand(s) of {args.players} players to {args.out}", file=sys.stdout)
    return 0
