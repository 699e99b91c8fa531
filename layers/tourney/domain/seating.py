"""Seating: the start draw, the final table redraw and the seat a moved player takes (docs/rules.md, rules 5, 12, 13).

Seats are numbered 1 to ``seats_per_table`` clockwise. Randomness is injected:
production passes ``secrets.SystemRandom()`` (docs/rules.md, 'Start, seats and the
button'); tests pass a seeded ``random.Random``.

Readings this module fixes where the rules leave a choice:

1. Start draw (rule 5). The number of tables is the minimum that seats
   everyone, ``ceil(players / seats_per_table)``, and the players are spread
   as evenly as possible: table sizes differ by at most one, the first tables
   of the draw holding the extra player. The field is shuffled, then dealt to
   the tables in order, so every player is equally likely to get any table and
   seat.
2. Empty seats (rules 5, 12). A table with fewer players than seats leaves its
   empty seats spread around the table rather than bunched at the end: the
   ``k`` players of an ``n``-seat table sit at ``floor(i * n / k) + 1`` for
   ``i = 0 .. k-1`` (6 players at 9 seats: 1, 2, 4, 5, 7, 8). Which player
   gets which of those seats is the random part. Spread-out empty seats are
   what online rooms show, and they give later arrivals (rule 13) seats in
   between players rather than a block.
3. Arrival (rule 13, docs/rules.md 'Balancing and breaking'). A moved player takes
   the first empty seat clockwise after the seat of the button in the
   receiving table's last hand; the button's own seat, if empty, comes last.
   A table that has not dealt yet has no button: the first empty seat from
   seat 1 is taken.
4. Departures (rule 13). Players leave a table in the order of their seats
   clockwise, starting with the one due to post the big blind next (for a
   balancing move: the first of them only; for a broken table: all of them).

>>> seat_for_arrival({1, 2, 4, 6}, button_seat=2, seats_per_table=6)
3
>>> seat_for_arrival({1, 3, 4, 5, 6}, button_seat=2, seats_per_table=6)
2
>>> spread_seats(6, 9)
(1, 2, 4, 5, 7, 8)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tourney.domain.errors import InvalidConfiguration, NotSeated, SeatTaken, TableFull
from tourney.domain.structure import MAX_SEATS, MIN_SEATS

PlayerId = str


class Shuffler(Protocol):
    """What seating needs of a random number generator (``secrets.SystemRandom``, ``random.Random``)."""

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


@dataclass(frozen=True, slots=True)
class TableSeating:
    """One table of the start draw: its number (1-based) and ``(seat, player)`` pairs in seat order."""

    table: int
    seats: tuple[tuple[int, PlayerId], ...]

    def by_seat(self) -> dict[int, PlayerId]:
        return dict(self.seats)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(player for _, player in self.seats)


def _check_seats(seats_per_table: int) -> None:
    if type(seats_per_table) is not int or not MIN_SEATS <= seats_per_table <= MAX_SEATS:
        raise InvalidConfiguration(f"seats per table must be {MIN_SEATS}..{MAX_SEATS}, got {seats_per_table!r}")


def tables_needed(players: int, seats_per_table: int) -> int:
    """The fewest tables that seat ``players`` (docs/rules.md, rules 5 and 12).

    >>> tables_needed(20, 9), tables_needed(18, 9), tables_needed(1, 9), tables_needed(0, 9)
    (3, 2, 1, 0)
    """
    _check_seats(seats_per_table)
    return -(-players // seats_per_table)


def table_sizes(players: int, seats_per_table: int) -> tuple[int, ...]:
    """Even spread over the fewest tables, larger tables first (docs/rules.md, rule 5).

    >>> table_sizes(20, 9)
    (7, 7, 6)
    """
    count = tables_needed(players, seats_per_table)
    if count == 0:
        return ()
    base, extra = divmod(players, count)
    return tuple(base + 1 if index < extra else base for index in range(count))


def spread_seats(count: int, seats_per_table: int) -> tuple[int, ...]:
    """The seats ``count`` players take at a table of ``seats_per_table``, empty seats spread out (reading 2)."""
    _check_seats(seats_per_table)
    if not 0 <= count <= seats_per_table:
        raise TableFull(f"{count} players cannot sit at a table of {seats_per_table} seats")
    return tuple(index * seats_per_table // count + 1 for index in range(count))


def _unique(players: Sequence[PlayerId]) -> list[PlayerId]:
    shuffled = list(players)
    if len(set(shuffled)) != len(shuffled):
        raise SeatTaken("a player appears twice in the draw")
    return shuffled


def draw_seats(players: Sequence[PlayerId], seats_per_table: int, rng: Shuffler) -> tuple[tuple[int, PlayerId], ...]:
    """Every player of one table gets a seat at random, empty seats spread out (docs/rules.md, rules 5 and 12)."""
    shuffled = _unique(players)
    seats = spread_seats(len(shuffled), seats_per_table)
    rng.shuffle(shuffled)
    return tuple(zip(seats, shuffled, strict=True))


def draw_start(entrants: Sequence[PlayerId], seats_per_table: int, rng: Shuffler) -> tuple[TableSeating, ...]:
    """The start draw: tables and seats at random, sizes differing by at most one (docs/rules.md, rule 5).

    >>> import random
    >>> [len(t.seats) for t in draw_start([f"p{i}" for i in range(20)], 9, random.Random(1))]
    [7, 7, 6]
    """
    shuffled = _unique(entrants)
    rng.shuffle(shuffled)
    tables: list[TableSeating] = []
    start = 0
    for number, size in enumerate(table_sizes(len(shuffled), seats_per_table), start=1):
        players = shuffled[start : start + size]
        start += size
        tables.append(TableSeating(number, tuple(zip(spread_seats(size, seats_per_table), players, strict=True))))
    return tuple(tables)


def draw_final_table(
    players: Sequence[PlayerId], seats_per_table: int, rng: Shuffler
) -> tuple[tuple[int, PlayerId], ...]:
    """The final table: every seat is drawn again at random (docs/rules.md, rule 12); the button is drawn by cards."""
    return draw_seats(players, seats_per_table, rng)


def seat_for_arrival(occupied: Collection[int], button_seat: int | None, seats_per_table: int) -> int:
    """The seat a moved player takes: first empty seat clockwise after the last hand's button (docs/rules.md, rule 13).

    The button's own seat, if empty, comes last. ``button_seat`` None (the
    table has not dealt yet): the first empty seat from seat 1.
    """
    _check_seats(seats_per_table)
    after = seats_per_table if button_seat is None else button_seat
    for step in range(1, seats_per_table + 1):
        seat = (after - 1 + step) % seats_per_table + 1
        if seat not in occupied:
            return seat
    raise TableFull(f"no empty seat at a table of {seats_per_table} seats")


def departure_order(seats: Mapping[int, PlayerId], first_seat: int, seats_per_table: int) -> tuple[PlayerId, ...]:
    """Players in the order they leave: clockwise from ``first_seat``, the one due for the big blind (rule 13).

    >>> departure_order({1: "a", 3: "b", 5: "c", 8: "d"}, first_seat=5, seats_per_table=9)
    ('c', 'd', 'a', 'b')
    """
    _check_seats(seats_per_table)
    if first_seat not in seats:
        raise NotSeated(f"seat {first_seat} is not occupied")
    return tuple(seats[seat] for seat in sorted(seats, key=lambda seat: (seat - first_seat) % seats_per_table))
