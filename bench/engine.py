"""Hands per second: our hand engine against pokerkit, side by side in one run (docs/interfaces.md, ``tourney bench``).

Both engines play the SAME hands: 9-handed no-limit hold'em, stacks of
10,000, blinds 50/100, the same seat posting the small blind (pokerkit's
``p1``, our seat 1 with the button on seat 9).

* The deck. Pokerkit shuffles its deck inside ``create_state`` with the
  ``random`` module's global generator; its standard deck lists the cards in
  the same order as our card ints (2c 2d 2h 2s 3c ...). So before each hand
  the global generator is seeded with the hand's deck seed, and our deck is
  ``shuffled_deck(random.Random(deck seed))``: the two decks are the same
  cards in the same order, and both engines deal hole cards one at a time
  from the first player after the button and burn before each street. (This
  benchmark therefore reseeds the process-wide ``random`` generator.)
* The decisions. Each hand has its own action seed; each engine draws one
  ``random()`` per decision from a generator seeded with it and maps the
  draw with the same action mix: fold .25, check or call .55, min-raise
  .15, all-in .05 (``tourney.simulation.random_hands.random_decision``;
  ``_pokerkit_decision`` below is its mirror). A pick that is not legal
  becomes what is: a fold with nothing to call checks, a raise that is not
  allowed checks or calls. Min-raise is pokerkit's
  ``min_completion_betting_or_raising_to_amount``, all-in its ``max_...``.
* So the two engines make the same decisions on the same cards, and finish
  every hand with the same stacks; ``outcome_mismatches`` counts the hands
  where they did not (it must be 0 for the comparison to be fair).
* Pokerkit runs with every automation a dealer would do on (antes, bet
  collection, blinds, burning, hole and board dealing, showing or mucking,
  hand killing, chips pushing and pulling), in tournament mode.

Each repetition times one pass over the hands for: ours (seeded deck),
pokerkit, and ours with the production shuffle (``secrets.SystemRandom``,
decisions still seeded). The passes alternate inside each repetition, so a
busy machine slows all alike; the figures are the MEDIAN pass of each. A
pass times everything a hand costs: shuffling, dealing, the decisions
(including the bot's reading of what is legal), the showdown and the pots.

    .venv/bin/python -m bench.engine [hands]
"""

from __future__ import annotations

import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, Final

from pokerkit import Automation, Mode, NoLimitTexasHoldem, State
from tourney.domain.cards import shuffled_deck
from tourney.domain.hand import Hand
from tourney.simulation.random_hands import (
    CHECK_OR_CALL_BELOW,
    FOLD_BELOW,
    MIN_RAISE_BELOW,
    random_decision,
)

PLAYERS: Final = 9
STACK: Final = 10_000
SMALL_BLIND: Final = 50
BIG_BLIND: Final = 100
SEATS: Final = tuple(range(1, PLAYERS + 1))
BUTTON: Final = PLAYERS  # seat 1 posts the small blind, seat 2 the big blind: pokerkit's p1 and p2
TARGET_HANDS_RATIO: Final = 20.0
TARGET_EVALS_RATIO: Final = 10.0

POKERKIT_AUTOMATIONS: Final = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

Seeds = tuple[int, int]
"""One hand's (deck seed, action seed)."""


def seeded_hands(seed: int, hands: int) -> list[Seeds]:
    """The inputs of ``hands`` hands: a deck seed and an action seed each, from ``random.Random(seed)``."""
    master = random.Random(seed)
    return [(master.getrandbits(64), master.getrandbits(64)) for _ in range(hands)]


# ---------------------------------------------------------------- our engine


def play_ours(deck_seed: int | None, action_seed: int) -> Hand:
    """One hand in our engine; ``deck_seed=None`` shuffles with ``secrets`` as production does."""
    deck = shuffled_deck(None if deck_seed is None else random.Random(deck_seed))
    hand = Hand.deal(
        dict.fromkeys(SEATS, STACK),
        button=BUTTON,
        small_blind_seat=1,
        big_blind_seat=2,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        deck=deck,
    )
    draw = random.Random(action_seed).random
    while not hand.is_over:
        random_decision(hand, draw())
    return hand


def _ours_stacks(hand: Hand) -> list[int]:
    result = hand.result
    assert result is not None
    return [result.finishing_stacks[seat] for seat in SEATS]


# ---------------------------------------------------------------- pokerkit


def _pokerkit_decision(state: State, draw: float) -> None:
    """``random_decision``'s action mix, said in pokerkit's words."""
    if draw < FOLD_BELOW and state.can_fold():
        state.fold()
    elif draw >= CHECK_OR_CALL_BELOW and state.can_complete_bet_or_raise_to():
        if draw < MIN_RAISE_BELOW:
            state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
        else:
            state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
    else:
        state.check_or_call()


def play_pokerkit(deck_seed: int, action_seed: int) -> State:
    """The same hand in pokerkit: the global ``random`` generator is seeded so ``create_state`` shuffles our deck."""
    random.seed(deck_seed)
    state = NoLimitTexasHoldem.create_state(
        POKERKIT_AUTOMATIONS,
        True,
        0,
        (SMALL_BLIND, BIG_BLIND),
        BIG_BLIND,
        (STACK,) * PLAYERS,
        PLAYERS,
        mode=Mode.TOURNAMENT,
    )
    draw = random.Random(action_seed).random
    while state.status:
        _pokerkit_decision(state, draw())
    return state


# ---------------------------------------------------------------- timing


def _time_ours(inputs: list[Seeds], *, secure: bool, outcomes: list[list[int]]) -> float:
    play = play_ours
    start = time.perf_counter()
    hands = [play(None if secure else deck_seed, action_seed) for deck_seed, action_seed in inputs]
    elapsed = time.perf_counter() - start
    outcomes[:] = [_ours_stacks(hand) for hand in hands]
    return elapsed


def _time_pokerkit(inputs: list[Seeds], *, outcomes: list[list[int]]) -> float:
    play = play_pokerkit
    start = time.perf_counter()
    states = [play(deck_seed, action_seed) for deck_seed, action_seed in inputs]
    elapsed = time.perf_counter() - start
    outcomes[:] = [list(state.stacks) for state in states]
    return elapsed


def measure_hands(seed: int = 1, hands: int = 200, repeats: int = 5) -> dict[str, Any]:
    """Hands per second of our engine and of pokerkit on the same seeded hands (median of ``repeats`` passes).

    Returns ``ours_hands_per_s``, ``pokerkit_hands_per_s``, ``hands_ratio``,
    ``ours_secrets_hands_per_s`` (production shuffle) and
    ``outcome_mismatches`` (hands whose finishing stacks differ between the
    two engines: 0 when they did the same work).
    """
    if hands < 1 or repeats < 1:
        raise ValueError("hands and repeats must be 1 or more")
    inputs = seeded_hands(seed, hands)
    ours_outcomes: list[list[int]] = []
    pokerkit_outcomes: list[list[int]] = []
    secure_outcomes: list[list[int]] = []
    passes: list[tuple[str, Callable[[], float]]] = [
        ("ours", lambda: _time_ours(inputs, secure=False, outcomes=ours_outcomes)),
        ("pokerkit", lambda: _time_pokerkit(inputs, outcomes=pokerkit_outcomes)),
        ("ours_secrets", lambda: _time_ours(inputs, secure=True, outcomes=secure_outcomes)),
    ]
    runs: dict[str, list[float]] = {name: [] for name, _ in passes}
    for _ in range(repeats):
        for name, run in passes:
            gc.collect()
            runs[name].append(run())
    per_s = {name: hands / statistics.median(times) for name, times in runs.items()}
    mismatches = sum(a != b for a, b in zip(ours_outcomes, pokerkit_outcomes, strict=True))
    return {
        "ours_hands_per_s": round(per_s["ours"], 1),
        "pokerkit_hands_per_s": round(per_s["pokerkit"], 1),
        "hands_ratio": round(per_s["ours"] / per_s["pokerkit"], 2),
        "ours_secrets_hands_per_s": round(per_s["ours_secrets"], 1),
        "outcome_mismatches": mismatches,
    }


def measure_engine(seed: int = 1, hands: int = 200, repeats: int = 5, evals: int = 100_000) -> dict[str, Any]:
    """The whole ``tourney bench engine`` object: hands (``measure_hands``) and evaluations, with the run's settings."""
    from bench.evaluator import measure_evaluators

    started = time.perf_counter()
    figures = measure_hands(seed, hands, repeats)
    evaluations = measure_evaluators(seed=seed, hands=evals, repeats=repeats)
    return {
        "ours_hands_per_s": figures["ours_hands_per_s"],
        "pokerkit_hands_per_s": figures["pokerkit_hands_per_s"],
        "hands_ratio": figures["hands_ratio"],
        "ours_evals_per_s": evaluations["ours_evals_per_s"],
        "treys_evals_per_s": evaluations["treys_evals_per_s"],
        "evals_ratio": evaluations["evals_ratio"],
        "ours_secrets_hands_per_s": figures["ours_secrets_hands_per_s"],
        "outcome_mismatches": figures["outcome_mismatches"],
        "targets": {"hands_ratio": TARGET_HANDS_RATIO, "evals_ratio": TARGET_EVALS_RATIO},
        "players": PLAYERS,
        "hands": hands,
        "evals": evals,
        "repetitions": repeats,
        "statistic": "median",
        "seed": seed,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(json.dumps(measure_hands(hands=count)))
