"""Our engine against pokerkit: thousands of random hands, replayed strictly, must finish with the same stacks.

Each hand is dealt with random positions (heads-up to 10-handed, with and
without a small blind, newcomers between the button and the blinds), random
stacks (a quarter of them short enough to be all in on the blinds and antes,
forcing side pots), antes or a big-blind ante, and played by seeded random
legal decisions (time-outs and raises of any size included). It is written as
PHH with the real hole cards and replayed in pokerkit 0.7.7 line by line
(``tests/support/pokerkit_oracle.py``): pokerkit must accept every line, end
the hand exactly where the file ends, agree on every show and muck, and
finish with our stacks.

No deal is left out. The deals pokerkit once refused (blinds all in for
nothing, every chip on the ante, with players between the button and the
blinds) are played as pokerkit plays them (``hand/state.py``: the betting then
opens after the button), and a second generator deals them every time: blinds
all in for less than their amount, or for nothing, behind newcomers; the test
counts how many of each it played, so that they cannot silently disappear.

The default run plays 1,600 hands (a few seconds); ``-m slow`` plays 21,000 more.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tourney.domain.hand import Hand
from tourney.domain.histories import phh

from tests.support.pokerkit_oracle import finishing_stacks
from tests.support.random_play import Setup, blind_all_in_for_less, blinds_posted_nothing, play_randomly, random_setup


def play_and_compare(
    rng: random.Random,
    hands: int,
    *,
    players: int | None = None,
    bench_table: bool = False,
    short_blinds: bool = False,
) -> Counter[str]:
    """Play ``hands`` random hands and compare each with pokerkit; how many deals of each kind were played."""
    kinds: Counter[str] = Counter()
    for k in range(hands):
        setup = bench_setup(rng, players or 9) if bench_table else random_setup(rng, players, short_blinds=short_blinds)
        hand = setup.deal()
        kinds["hands"] += 1
        if blind_all_in_for_less(hand):
            kinds["blind all in for less"] += 1
        if blinds_posted_nothing(hand):
            kinds["blinds posted nothing"] += 1
            if hand.seats.index(hand.small_blind_seat or hand.big_blind_seat) > 0:
                kinds["blinds posted nothing behind newcomers"] += 1
        play_randomly(hand, rng, timeouts=0.05, any_size=k % 2 == 0)
        result = hand.result
        assert result is not None
        ours = [result.finishing_stacks[seat] for seat in hand.seats]
        assert sum(ours) == sum(setup.stacks.values())
        text = phh.dumps(hand, hole_cards=k % 4 != 0)
        theirs = finishing_stacks(text, check_showdown=True)
        assert theirs == ours, f"hand {k} differs from pokerkit:\n{text}"
    return kinds


def bench_setup(rng: random.Random, players: int) -> Setup:
    """The benchmark's table (docs/interfaces.md, ``tourney hands``): stacks of 10,000, blinds 50/100."""
    seats = list(range(1, players + 1))
    deck = list(range(52))
    rng.shuffle(deck)
    sb, bb = (2, 3) if players > 2 else (1, 2)
    return Setup({s: 10_000 for s in seats}, 1, sb, bb, 50, 100, 0, False, deck)


def samples(sample: tuple[int, int, int, int], many: tuple[int, int, int, int]) -> list[Any]:
    """Chunks of seeded deals as ``(first seed, chunks, deals each, least of each kind)``: ``sample`` in every run,
    ``many`` more with ``-m slow``."""
    first, chunks, deals, least = sample
    fast = [pytest.param(first + c, deals, least, id=f"sample-{c}") for c in range(chunks)]
    first, chunks, deals, least = many
    slow = [pytest.param(first + c, deals, least, id=f"many-{c}", marks=pytest.mark.slow) for c in range(chunks)]
    return fast + slow


@pytest.mark.parametrize("seed,deals,least", samples((1000, 8, 100, 5), (50_000, 24, 500, 25)))
def test_random_hands_finish_with_pokerkits_stacks(seed: int, deals: int, least: int) -> None:
    # Given seeded random deals of 2 to 10 players (800 in every run, 12,000 more with -m slow)
    rng = random.Random(seed)
    # When each is played at random and replayed strictly in pokerkit
    kinds = play_and_compare(rng, deals)
    # Then every finishing stack matches (asserted per hand), short blinds included
    assert kinds["hands"] == deals
    assert kinds["blind all in for less"] >= least


@pytest.mark.parametrize("seed,deals,least", samples((2000, 4, 150, 30), (60_000, 12, 750, 150)))
def test_blinds_all_in_for_less_or_nothing_behind_newcomers_finish_with_pokerkits_stacks(
    seed: int, deals: int, least: int
) -> None:
    # Given deals where the blinds are all in for less than the blind, often for nothing (all on the ante),
    # with players between the button and the blinds: the deals pokerkit once refused (600 in every run, 9,000
    # more with -m slow)
    rng = random.Random(seed)
    # When each is played at random and replayed strictly in pokerkit
    kinds = play_and_compare(rng, deals, short_blinds=True)
    # Then every finishing stack matches, and each kind was played many times
    assert kinds["blind all in for less"] >= least
    assert kinds["blinds posted nothing behind newcomers"] >= least


@pytest.mark.parametrize("players", [2, 9])
def test_benchmark_tables_finish_with_pokerkits_stacks(players: int) -> None:
    # Given the benchmark's deep-stacked table, heads-up and 9-handed
    rng = random.Random(players)
    # Then every hand matches pokerkit
    assert play_and_compare(rng, 100, players=players, bench_table=True)["hands"] == 100


def test_the_once_left_out_deal_opens_after_the_button_and_replays_in_pokerkit() -> None:
    # Given no small blind, a newcomer before the big blind, and a big blind all in with its ante
    hand = Hand.deal(
        {1: 1000, 2: 1000, 3: 10, 4: 1000},
        button=1, small_blind_seat=None, big_blind_seat=3, small_blind=50, big_blind=100,
        ante=100, big_blind_ante=True, deck=list(range(52)),
    )  # fmt: skip
    assert blinds_posted_nothing(hand)
    # Then the newcomer after the button opens the betting, as in pokerkit
    assert hand.actor == 2
    # And played at random it finishes with pokerkit's stacks
    play_randomly(hand, random.Random(7))
    result = hand.result
    assert result is not None
    assert finishing_stacks(phh.dumps(hand, hole_cards=True), check_showdown=True) == [
        result.finishing_stacks[s] for s in hand.seats
    ]
