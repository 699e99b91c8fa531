"""Properties of balancing and breaking under random eliminations (docs/rules.md, 'Balancing and breaking').

A model of the tournament's tables (seat -> player) follows the decisions of
``Balancing`` through ``seat_moves``: a random table ends a hand, loses some
players, and the decided moves are seated. Then every table plays hands with
no elimination until nothing moves (every table has been between hands).
"""

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney.domain.balancing import Balancing, TableSeats, seat_moves
from tourney.domain.seating import draw_final_table, draw_start, tables_needed

Step = tuple[int, int, int]


@dataclass
class Room:
    """The model: who sits where, each table's last button, who arrived during a table's hand."""

    seats_per_table: int
    tables: dict[str, dict[int, str]]
    buttons: dict[str, int | None] = field(default_factory=dict)
    arrived_during_hand: dict[str, set[str]] = field(default_factory=dict)
    alive: set[str] = field(default_factory=set)
    final_tables: list[str] = field(default_factory=list)
    moves: int = 0


def start(players: int, seats: int, seed: int) -> tuple[Room, Balancing]:
    entrants = [f"p{i}" for i in range(players)]
    drawn = draw_start(entrants, seats, random.Random(seed))
    room = Room(seats, {f"T{t.table}": t.by_seat() for t in drawn}, alive=set(entrants))
    balancing = Balancing(seats, {name: len(seated) for name, seated in room.tables.items()})
    return room, balancing


def play_hand(room: Room, balancing: Balancing, table: str, wanted: int, rng: random.Random) -> None:
    """One hand ends at ``table`` with up to ``wanted`` players out; apply the decision to the model.

    Only players dealt into the hand can bust, and its winner remains: players who
    arrived while the hand was being played sit it out.
    """
    seated = room.tables[table]
    newcomers = room.arrived_during_hand.pop(table, set())
    in_hand = sorted(seat for seat, player in seated.items() if player not in newcomers)
    assert len(in_hand) >= 2
    room.buttons[table] = rng.choice(in_hand)
    eliminated = min(wanted, len(in_hand) - 1)
    for seat in rng.sample(in_hand, eliminated):
        room.alive.discard(seated.pop(seat))
    between_hands = {table, *balancing.waiting}
    decision = balancing.after_hand(table, eliminated)
    if decision.finished:
        return
    involved = {m.from_table for m in decision.moves} | {m.to_table for m in decision.moves}
    views = {
        name: TableSeats(
            seats=dict(room.tables[name]),
            button_seat=room.buttons.get(name),
            next_big_blind_seat=rng.choice(sorted(room.tables[name])),
        )
        for name in involved
    }
    for change in seat_moves(decision.moves, views, room.seats_per_table):
        assert room.tables[change.from_table].pop(change.from_seat) == change.player
        assert 1 <= change.to_seat <= room.seats_per_table
        assert change.to_seat not in room.tables[change.to_table]
        room.tables[change.to_table][change.to_seat] = change.player
        if change.to_table not in between_hands:
            room.arrived_during_hand.setdefault(change.to_table, set()).add(change.player)
        room.moves += 1
    for gone in decision.broken:
        assert room.tables.pop(gone) == {}
    if decision.final_table is not None:
        players = sorted(room.tables[decision.final_table].values())
        room.tables[decision.final_table] = dict(draw_final_table(players, room.seats_per_table, rng))
        room.buttons[decision.final_table] = None
        room.arrived_during_hand.pop(decision.final_table, None)
        room.final_tables.append(decision.final_table)


def check_consistent(room: Room, balancing: Balancing) -> None:
    seated = [p for table in room.tables.values() for p in table.values()]
    # Players are conserved: everyone still in is seated exactly once, nobody eliminated is seated
    assert len(seated) == len(set(seated)) == len(room.alive)
    assert set(seated) == room.alive
    # The index agrees with the seats, every table holds 1..seats players
    assert balancing.sizes() == {name: len(table) for name, table in room.tables.items()}
    assert all(1 <= len(table) <= room.seats_per_table for table in room.tables.values())
    # Breaking is never late: the number of tables is the minimum needed
    assert balancing.table_count == tables_needed(len(room.alive), room.seats_per_table)


def settle(room: Room, balancing: Balancing, rng: random.Random) -> None:
    """Every table that deals plays hands without elimination until a whole round moves nobody."""
    for _ in range(50):
        before = room.moves
        for name in sorted(room.tables):
            if name in room.tables and name not in balancing.waiting:
                play_hand(room, balancing, name, 0, rng)
        if room.moves == before:
            return
    raise AssertionError("balancing did not settle")


def run(players: int, seats: int, seed: int, steps: list[Step]) -> None:
    room, balancing = start(players, seats, seed)
    rng = random.Random(seed)
    check_consistent(room, balancing)
    for pick, out, _ in steps:
        if len(room.alive) == 1:
            break
        dealing = sorted(name for name in room.tables if name not in balancing.waiting)
        table = dealing[pick % len(dealing)]
        play_hand(room, balancing, table, out, rng)
        check_consistent(room, balancing)
    if len(room.alive) == 1:
        assert balancing.players == 1
        return
    settle(room, balancing, rng)
    check_consistent(room, balancing)
    sizes = [len(table) for table in room.tables.values()]
    # Once every table is between hands, table sizes differ by at most one
    assert max(sizes) - min(sizes) <= 1
    # And the final table, once all fit on one, has been formed (at most once)
    assert balancing.final_table_pending is None
    if len(room.tables) == 1 and len(room.alive) > 1:
        assert balancing.final_table == next(iter(room.tables))
    assert len(room.final_tables) <= 1


steps_strategy = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from([0, 0, 0, 1, 1, 2, 3, 8]), st.integers(0, 10**6)),
    max_size=120,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 120),
    seats=st.integers(2, 10),
    seed=st.integers(0, 2**32 - 1),
    steps=steps_strategy,
)
def test_rules_11_12_random_eliminations_keep_players_balanced_and_tables_minimal(
    players: int, seats: int, seed: int, steps: list[Step]
) -> None:
    run(players, seats, seed, steps)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_rule_12_playing_down_to_the_winner_forms_the_final_table_once(seats: int, seed: int) -> None:
    # Given 60 players and hands that eliminate until one player is left
    rng = random.Random(seed)
    room, balancing = start(60, seats, seed)
    while len(room.alive) > 1:
        dealing = sorted(name for name in room.tables if name not in balancing.waiting)
        table = rng.choice(dealing)
        play_hand(room, balancing, table, rng.choice([0, 0, 1, 1, 2]), rng)
        if len(room.alive) > 1:
            check_consistent(room, balancing)
    # Then the final table was formed exactly once (60 players never start on one table)
    assert len(room.final_tables) == 1


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(200, 3000),
    seats=st.integers(2, 10),
    seed=st.integers(0, 2**32 - 1),
    steps=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from([0, 0, 0, 1, 1, 2, 3, 8]), st.integers(0, 10**6)),
        min_size=500,
        max_size=3000,
    ),
)
def test_rules_11_12_random_eliminations_large_fields_slow(
    players: int, seats: int, seed: int, steps: list[Step]
) -> None:
    run(players, seats, seed, steps)
