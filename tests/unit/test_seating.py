"""Seating: start draw, final table redraw, arrival seat (docs/rules.md, rules 5, 12, 13)."""

import random
import secrets
from collections import Counter

import pytest
from tourney.domain.errors import NotSeated, SeatTaken, TableFull
from tourney.domain.seating import (
    departure_order,
    draw_final_table,
    draw_start,
    seat_for_arrival,
    spread_seats,
    table_sizes,
    tables_needed,
)


def names(count: int) -> list[str]:
    return [f"p{i:03d}" for i in range(count)]


def test_rule_5_twenty_players_at_nine_seats_make_three_tables_of_7_7_6() -> None:
    # Given 20 entrants and 9 seats per table
    entrants = names(20)
    # When the start draw runs
    tables = draw_start(entrants, 9, random.Random(7))
    # Then there are 3 tables of 7, 7 and 6, numbered 1..3, everyone seated once
    assert [t.table for t in tables] == [1, 2, 3]
    assert [len(t.seats) for t in tables] == [7, 7, 6]
    assert sorted(p for t in tables for p in t.players) == entrants
    # And the empty seats are spread: 7 players sit at 1,2,3,4,6,7,8 and 6 players at 1,2,4,5,7,8
    assert [seat for seat, _ in tables[0].seats] == [1, 2, 3, 4, 6, 7, 8]
    assert [seat for seat, _ in tables[2].seats] == [1, 2, 4, 5, 7, 8]


@pytest.mark.parametrize(
    ("players", "seats", "sizes"),
    [
        (18, 9, (9, 9)),
        (19, 9, (7, 6, 6)),
        (9, 9, (9,)),
        (2, 9, (2,)),
        (1, 9, (1,)),
        (0, 9, ()),
        (7, 2, (2, 2, 2, 1)),
        (250_000, 9, (9,) * 27_776 + (8,) * 2),
        (250_001, 10, (10,) * 24_992 + (9,) * 9),
    ],
)
def test_rule_5_fewest_tables_with_sizes_differing_by_at_most_one(
    players: int, seats: int, sizes: tuple[int, ...]
) -> None:
    # Then the number of tables is the minimum and the sizes are as even as possible
    assert table_sizes(players, seats) == sizes
    assert len(sizes) == tables_needed(players, seats)
    assert sum(sizes) == players


def test_rule_5_draw_is_random_each_player_lands_on_every_table() -> None:
    # Given 18 players on two full tables, drawn 400 times with a seeded generator
    rng = random.Random(2024)
    where = Counter()
    for _ in range(400):
        table_one = draw_start(names(18), 9, rng)[0]
        where.update(p for p in table_one.players if p == "p000")
    # Then player p000 sits at table 1 in about half the draws (binomial 400 x 1/2: 200 +- 40 at 4 sigma)
    assert 160 <= where["p000"] <= 240


def test_rule_5_draw_accepts_the_secure_generator_and_refuses_duplicates() -> None:
    # The production generator is secrets.SystemRandom
    tables = draw_start(names(30), 6, secrets.SystemRandom())
    assert [len(t.seats) for t in tables] == [6, 6, 6, 6, 6]
    with pytest.raises(SeatTaken):
        draw_start(["a", "b", "a"], 9, random.Random(1))


def test_rule_12_final_table_every_seat_drawn_again() -> None:
    # Given the 8 players of the final table at 9 seats
    players = names(8)
    # When the final table is drawn twice with different seeds
    first = draw_final_table(players, 9, random.Random(1))
    second = draw_final_table(players, 9, random.Random(2))
    # Then each draw seats all 8 at seats 1-8 (one empty seat, the last) and the draws differ
    assert sorted(p for _, p in first) == players
    assert [s for s, _ in first] == list(spread_seats(8, 9)) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert first != second
    with pytest.raises(TableFull):
        draw_final_table(names(10), 9, random.Random(1))


def test_rule_13_seat_closest_to_the_button_clockwise() -> None:
    # Given a 9-seat table whose last button was seat 6, seats 7 and 8 taken, 9 and 2 empty
    occupied = {1, 3, 4, 5, 6, 7, 8}
    # Then the newcomer takes seat 9 (first empty clockwise after the button)
    assert seat_for_arrival(occupied, button_seat=6, seats_per_table=9) == 9
    # And after seat 9 fills, the next one wraps to seat 2
    assert seat_for_arrival(occupied | {9}, button_seat=6, seats_per_table=9) == 2


def test_rule_13_button_own_empty_seat_comes_last() -> None:
    # Given the button's seat 4 is empty (the button player busted) and seat 7 is also empty
    occupied = {1, 2, 3, 5, 6, 8, 9}
    # Then seat 7 is taken before the button's own seat 4
    assert seat_for_arrival(occupied, button_seat=4, seats_per_table=9) == 7
    # And only when no other seat is empty does the newcomer sit in the button's seat
    assert seat_for_arrival(occupied | {7}, button_seat=4, seats_per_table=9) == 4
    with pytest.raises(TableFull):
        seat_for_arrival(set(range(1, 10)), button_seat=4, seats_per_table=9)


def test_rule_13_table_without_a_hand_yet_seats_from_seat_one() -> None:
    assert seat_for_arrival({1, 2, 5}, button_seat=None, seats_per_table=6) == 3


def test_rule_13_departures_start_with_the_player_due_for_the_big_blind() -> None:
    # Given players at seats 2, 4, 7, 9 and seat 7 due to post the big blind next
    seats = {2: "ann", 4: "bob", 7: "cy", 9: "dee"}
    # Then they leave clockwise from seat 7: cy, dee, ann, bob
    assert departure_order(seats, first_seat=7, seats_per_table=9) == ("cy", "dee", "ann", "bob")
    with pytest.raises(NotSeated):
        departure_order(seats, first_seat=3, seats_per_table=9)
