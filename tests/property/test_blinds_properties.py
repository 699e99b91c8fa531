"""Rule 7 over long runs of hands with players busting and moving in (docs/rules.md, rules 7, 8 and 14).

A table of ``seat_count`` seats plays hand after hand. Between hands any
players may leave (bust, or be moved away by balancing: the upcoming BB
first, as rule 13 says, or anyone else), and new players may be moved in at
random empty seats, always leaving at least two players. Arrivals get fresh
ids, so a player's presence at the table is one unbroken stretch of hands.

The invariants, strongest first:

* The BB pointer never jumps over an active seat: every seat strictly between
  one hand's BB seat and the next hand's (clockwise) is empty or held by a
  player who was not there when the next hand was dealt. Everything else
  about the BB follows from this one.
* Nobody posts the BB in two consecutive hands.
* Between two consecutive BBs of a player P, every other player present in
  every hand of that stretch posts the BB exactly once (the pointer goes
  round exactly once, so none is skipped and none pays twice).
* The SB, three-handed or more, is the previous hand's BB player when still
  present and absent otherwise; heads-up the button posts the SB and never
  the BB; three-handed or more the button is neither blind, and it is the
  previous hand's SB player whenever that player is still there and not the BB.

The same invariants are then checked on a ``Table`` playing real hands with
random legal decisions and time-outs, where busts come from play, together
with the conservation of chips and the plain-data round trip mid-hand.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney.domain.blinds import Positions, first_hand_positions, next_positions, upcoming_big_blind
from tourney.domain.cards import shuffled_deck
from tourney.domain.hand import ActionKind
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table


@dataclass(frozen=True)
class Dealt:
    """One hand: who was at the table when it was dealt and where the blinds and button went."""

    active: dict[int, str]
    positions: Positions


def strictly_between_clockwise(start: int, end: int, seat_count: int) -> list[int]:
    seats = []
    seat = start % seat_count + 1
    while seat != end:
        seats.append(seat)
        seat = seat % seat_count + 1
    return seats


@st.composite
def table_histories(draw: st.DrawFn, max_hands: int) -> tuple[int, list[Dealt]]:
    seat_count = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(1, seat_count), min_size=2, max_size=seat_count, unique=True))
    next_id = 0

    def newcomer() -> str:
        nonlocal next_id
        next_id += 1
        return f"p{next_id}"

    active = {seat: newcomer() for seat in seats}
    button = draw(st.sampled_from(sorted(active)))
    hands = [Dealt(dict(active), first_hand_positions(button, active))]
    for _ in range(draw(st.integers(1, max_hands))):
        previous = hands[-1].positions
        if draw(st.booleans()) and len(active) > 2:
            # Balancing moves the player due to post the next BB (docs/rules.md, rule 13).
            del active[upcoming_big_blind(previous, active).seat]
        leaving = draw(st.lists(st.sampled_from(sorted(active)), unique=True, max_size=len(active)))
        for seat in leaving:
            del active[seat]
        empty = [s for s in range(1, seat_count + 1) if s not in active]
        least = max(0, 2 - len(active))
        arriving = (
            draw(st.lists(st.sampled_from(empty), unique=True, min_size=least, max_size=len(empty))) if empty else []
        )
        for seat in arriving:
            active[seat] = newcomer()
        hands.append(Dealt(dict(active), next_positions(previous, active)))
    return seat_count, hands


def check_positions_are_seated(hand: Dealt) -> None:
    p = hand.positions
    for holder in (p.button, p.small_blind, p.big_blind):
        if holder is not None:
            assert hand.active.get(holder.seat) == holder.player


def check_rule_7_between(seat_count: int, before: Dealt, after: Dealt) -> None:
    prev, nxt = before.positions, after.positions
    # The BB pointer passes no active seat.
    passed = strictly_between_clockwise(prev.big_blind.seat, nxt.big_blind.seat, seat_count)
    assert not [s for s in passed if s in after.active]
    # Nobody posts the BB twice in a row.
    assert nxt.big_blind.player != prev.big_blind.player
    prev_bb_present = after.active.get(prev.big_blind.seat) == prev.big_blind.player
    if len(after.active) == 2:
        # Heads-up: the button posts the SB, the other player the BB.
        assert nxt.small_blind == nxt.button
        assert nxt.button.seat != nxt.big_blind.seat
    else:
        assert nxt.small_blind == (prev.big_blind if prev_bb_present else None)
        assert nxt.button.player not in {nxt.big_blind.player} | (
            {nxt.small_blind.player} if nxt.small_blind else set()
        )
        prev_sb = prev.small_blind
        if prev_sb is not None and after.active.get(prev_sb.seat) == prev_sb.player and prev_sb != nxt.big_blind:
            assert nxt.button == prev_sb


def check_nobody_skipped(hands: list[Dealt]) -> None:
    presence: dict[str, list[int]] = {}
    for index, hand in enumerate(hands):
        for player in hand.active.values():
            presence.setdefault(player, []).append(index)
    big_blinds = [hand.positions.big_blind.player for hand in hands]
    for player in presence:
        mine = [i for i, bb in enumerate(big_blinds) if bb == player]
        for first, second in pairwise(mine):
            for other, present in presence.items():
                if other == player or present[0] > first or present[-1] < second:
                    continue
                posted = big_blinds[first + 1 : second].count(other)
                assert posted == 1, (player, other, first, second, big_blinds)


def check_history(seat_count: int, hands: list[Dealt]) -> None:
    for hand in hands:
        check_positions_are_seated(hand)
    for before, after in pairwise(hands):
        check_rule_7_between(seat_count, before, after)
    check_nobody_skipped(hands)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_histories(max_hands=40))
def test_rule_7_big_blind_never_twice_in_a_row_and_nobody_skipped(history: tuple[int, list[Dealt]]) -> None:
    # Given a table's hands with players busting, moved away and moved in between them
    seat_count, hands = history
    # When the positions of each hand were set by the blind rule
    # Then the BB moved forward past no active seat, nobody posted it twice running or missed it
    check_history(seat_count, hands)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_histories(max_hands=200))
def test_rule_7_big_blind_invariants_over_long_runs(history: tuple[int, list[Dealt]]) -> None:
    # Given long runs of hands at tables of every size
    seat_count, hands = history
    # Then the same invariants hold
    check_history(seat_count, hands)


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 10), st.data())
def test_rule_7_with_nobody_leaving_everyone_posts_the_big_blind_once_per_orbit(
    player_count: int, data: st.DataObject
) -> None:
    # Given a stable table of 3..10 players at random seats of a 10-seat table
    seats = sorted(data.draw(st.lists(st.integers(1, 10), min_size=player_count, max_size=player_count, unique=True)))
    active = {seat: f"p{seat}" for seat in seats}
    positions = first_hand_positions(data.draw(st.sampled_from(seats)), active)
    # When one orbit of hands is dealt
    orbit = [positions]
    for _ in range(player_count - 1):
        orbit.append(next_positions(orbit[-1], active))
    # Then every player posted the BB exactly once, each button, SB and BB moved one player on
    assert sorted(p.big_blind.seat for p in orbit) == seats
    assert sorted(p.button.seat for p in orbit) == seats
    for p in orbit:
        assert p.small_blind is not None
        assert p.small_blind.seat == seats[(seats.index(p.button.seat) + 1) % player_count]
        assert p.big_blind.seat == seats[(seats.index(p.button.seat) + 2) % player_count]


def play_out(table: Table, rng: random.Random) -> None:
    """Random legal decisions, and now and then a time-out, until the hand ends."""
    while table.hand_in_progress:
        hand = table.hand
        assert hand is not None
        options = hand.options()
        assert options is not None
        player = table.players[options.seat]
        roll = rng.random()
        if roll < 0.04:
            table.timeout(options.seat, hand=table.hand_number, seq=hand.seq)
        elif roll < 0.25 and options.can_fold:
            table.act(player, ActionKind.FOLD)
        elif roll > 0.85 and options.min_raise_to is not None and options.max_raise_to is not None:
            kind = ActionKind.BET if options.to_call == 0 and options.bet == 0 else ActionKind.RAISE
            amount = rng.choice([options.min_raise_to, options.max_raise_to])
            table.act(player, kind, amount, hand=table.hand_number, seq=hand.seq)
        else:
            table.act(player, ActionKind.CHECK if options.can_check else ActionKind.CALL)


LEVELS = (BlindLevel(1, 50, 100), BlindLevel(4, 100, 200, ante=200, big_blind_ante=True), BlindLevel(2, 50, 100, 10))


def run_table(seed: int, seat_count: int, hand_count: int) -> None:
    rng = random.Random(seed)
    table = Table(number=1, seat_count=seat_count)
    newcomers = iter(f"p{i}" for i in range(10_000))
    for seat in rng.sample(range(1, seat_count + 1), rng.randint(2, seat_count)):
        table.seat_player(next(newcomers), seat, rng.choice([150, 1000, 2500]))
    table.draw_button(rng=rng)
    chips_in_play = sum(sp.stack for sp in table.seats.values())
    hands: list[Dealt] = []
    for _ in range(hand_count):
        upcoming = table.upcoming_big_blind()
        if upcoming is not None and len(table.active) > 2 and rng.random() < 0.15:
            # Balancing moves the player due to post the next BB (rule 13).
            chips_in_play -= table.remove_player(upcoming.player).stack
        empty = [s for s in range(1, seat_count + 1) if s not in table.seats]
        while empty and (len(table.active) < 2 or rng.random() < 0.2):
            stack = rng.choice([150, 1000, 2500])
            table.seat_player(next(newcomers), empty.pop(rng.randrange(len(empty))), stack)
            chips_in_play += stack
        active = table.active
        dealt = table.start_hand(rng.choice(LEVELS), shuffled_deck(rng))
        hands.append(Dealt(active, dealt.positions))
        if rng.random() < 0.3:
            table = Table.from_dict(json.loads(json.dumps(table.to_dict())))
        play_out(table, rng)
        ended = table.last_hand_ended
        assert ended is not None
        assert sum(ended.finishing_stacks.values()) == sum(ended.starting_stacks.values())
        assert sum(sp.stack for sp in table.seats.values()) == chips_in_play
        assert {o.seat for o in ended.busted} == set(ended.vacated)
        assert all(sp.stack > 0 for sp in table.seats.values())
    check_history(seat_count, hands)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 10), st.integers(5, 30))
def test_rule_7_holds_at_a_table_playing_real_hands(seed: int, seat_count: int, hand_count: int) -> None:
    # Given a table playing random legal hands, players busting, the upcoming BB moved off, newcomers seated
    # When it plays (and is now and then stored and read back mid-hand)
    # Then chips are conserved, busted seats are vacated, and the BB invariants hold for the real hands
    run_table(seed, seat_count, hand_count)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 10), st.integers(100, 400))
def test_rule_7_holds_at_a_table_over_long_runs(seed: int, seat_count: int, hand_count: int) -> None:
    run_table(seed, seat_count, hand_count)
