"""The tournament clock: levels computed from start and pauses (docs/architecture.md, 'Time is data'; rule 17)."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tourney.domain.clock import Pause, TournamentClock
from tourney.domain.errors import InvalidClock
from tourney.domain.structure import BlindLevel, default_levels

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
LEVELS = default_levels()  # 10-minute levels


def minutes(m: float) -> timedelta:
    return timedelta(minutes=m)


def test_defaults_level_follows_play_time_in_ten_minute_steps() -> None:
    # Given a clock started at T0 with no pause
    clock = TournamentClock(T0)
    # When asking at 0, 9:59, 10:00 and 35 minutes
    # Then the level is 1, 1, 2 and 4
    instants = [T0 + minutes(m) for m in (0, 9.99, 10, 35)]
    assert [clock.level_at(LEVELS, at).number for at in instants] == [1, 1, 2, 4]
    position = clock.position(LEVELS, T0 + minutes(35))
    assert (position.elapsed, position.remaining, position.play_time) == (minutes(5), minutes(5), minutes(35))
    assert (position.level.small_blind, position.level.big_blind) == (100, 200)
    assert clock.next_level_at(LEVELS, T0 + minutes(35)) == T0 + minutes(40)


def test_defaults_sit_and_go_five_minute_levels_on_the_clock() -> None:
    # Given a Sit&Go structure (5-minute levels)
    levels = default_levels(minutes=5)
    # When 12 minutes have been played
    position = TournamentClock(T0).position(levels, T0 + minutes(12))
    # Then it is level 3 with 3 minutes left
    assert (position.level.number, position.remaining) == (3, minutes(3))


def test_rule_17_restart_resumes_the_same_level_with_the_time_that_was_left() -> None:
    # Given a tournament terminated at 26 minutes (level 3, 4 minutes left)
    clock = TournamentClock(T0).pause(T0 + minutes(26))
    at_termination = clock.position(LEVELS, T0 + minutes(26))
    assert (at_termination.level.number, at_termination.remaining) == (3, minutes(4))
    # When it stays stopped for 15 minutes
    during = clock.position(LEVELS, T0 + minutes(41))
    # Then the clock does not move while paused
    assert (during.level.number, during.remaining, during.paused) == (3, minutes(4), True)
    assert clock.next_level_at(LEVELS, T0 + minutes(41)) is None
    # When it restarts at 41 minutes
    resumed = clock.resume(T0 + minutes(41))
    # Then level 3 goes on with the 4 minutes that were left, and level 4 starts at 45 minutes
    assert resumed.position(LEVELS, T0 + minutes(41)).remaining == minutes(4)
    assert resumed.level_at(LEVELS, T0 + minutes(44.9)).number == 3
    assert resumed.level_at(LEVELS, T0 + minutes(45)).number == 4
    assert resumed.play_time(T0 + minutes(45)) == minutes(30)
    assert resumed.next_level_at(LEVELS, T0 + minutes(41)) == T0 + minutes(45)


def test_rule_17_several_pauses_all_excluded_from_play_time() -> None:
    # Given two pauses of 5 and 7 minutes
    clock = TournamentClock(T0, (Pause(T0 + minutes(3), T0 + minutes(8)), Pause(T0 + minutes(20), T0 + minutes(27))))
    # Then play time at 30 minutes is 18 minutes, and at 5 minutes (mid-pause) 3 minutes
    assert clock.play_time(T0 + minutes(30)) == minutes(18)
    assert clock.play_time(T0 + minutes(5)) == minutes(3)
    assert clock.level_at(LEVELS, T0 + minutes(30)).number == 2


def test_clock_before_the_start_is_level_one_with_full_time() -> None:
    position = TournamentClock(T0).position(LEVELS, T0 - minutes(5))
    assert (position.level.number, position.remaining, position.play_time) == (1, minutes(10), timedelta(0))


def test_clock_past_the_last_level_keeps_the_last_level_without_end() -> None:
    # Given a two-level structure of 10 minutes each
    levels = (BlindLevel(1, 10, 20), BlindLevel(2, 20, 40))
    # When 35 minutes have been played
    position = TournamentClock(T0).position(levels, T0 + minutes(35))
    # Then level 2 continues with no time limit
    assert (position.level.number, position.elapsed, position.remaining) == (2, minutes(25), None)


def test_clock_refuses_naive_instants_double_pause_and_resume_without_pause() -> None:
    with pytest.raises(InvalidClock):
        TournamentClock(datetime(2025, 1, 1))
    with pytest.raises(InvalidClock, match="already paused"):
        TournamentClock(T0).pause(T0 + minutes(1)).pause(T0 + minutes(2))
    with pytest.raises(InvalidClock, match="not paused"):
        TournamentClock(T0).resume(T0 + minutes(1))
    with pytest.raises(InvalidClock, match="before it starts"):
        TournamentClock(T0).pause(T0 + minutes(5)).resume(T0 + minutes(4))
    with pytest.raises(InvalidClock, match="before"):
        TournamentClock(T0, (Pause(T0 - minutes(1), T0 + minutes(1)),))


def test_clock_round_trips_through_plain_data() -> None:
    # Given a clock paused once and paused again
    clock = TournamentClock(T0).pause(T0 + minutes(12)).resume(T0 + minutes(20)).pause(T0 + minutes(33))
    # When stored and read back
    again = TournamentClock.from_dict(clock.to_dict())
    # Then it is the same clock
    assert again == clock
    assert again.is_paused


@settings(max_examples=300, deadline=None)
@given(
    level_minutes=st.lists(st.integers(1, 30), min_size=1, max_size=12),
    pause=st.one_of(st.none(), st.tuples(st.integers(0, 400_000_000), st.integers(0, 200_000_000))),
    at_us=st.integers(-60_000_000, 600 * 60_000_000),
)
def test_the_level_at_an_instant_is_the_level_of_its_position(
    level_minutes: list[int], pause: tuple[int, int] | None, at_us: int
) -> None:
    # Given any structure, a clock with or without a pause, and any instant to the microsecond
    levels = tuple(BlindLevel(i + 1, 100 * (i + 1), 200 * (i + 1), minutes=m) for i, m in enumerate(level_minutes))
    pauses = () if pause is None else (Pause(T0 + timedelta(microseconds=pause[0]), None),)
    if pause is not None and pause[1]:
        pauses = (Pause(pauses[0].start, pauses[0].start + timedelta(microseconds=pause[1])),)
    clock = TournamentClock(T0, pauses)
    at = T0 + timedelta(microseconds=at_us)
    # Then the deal's shortcut answers the level the full position answers
    assert clock.level_at(levels, at) == clock.position(levels, at).level
