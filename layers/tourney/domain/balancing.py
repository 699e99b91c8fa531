"""Balancing and breaking tables, after every hand (docs/rules.md, 'Balancing and breaking'; seed rules 11, 12, 13).

``Balancing`` is the tournament-wide view the coordinator keeps: how many
players sit at each table. After each hand that ends at a table it decides
which tables give players and which receive them; it never names a player.
``seat_moves`` then turns those decisions into players and seats: the player
moved off a table is the one due to post the big blind next there (the caller
passes that seat, from ``blinds.upcoming_big_blind``) and the seat is
``seating.seat_for_arrival`` (rule 13).

How the rules are read:

* Only the table whose hand just ended is known to be between hands. It may
  give players (be balanced from, be broken, be emptied); any other table
  gives only when its own hand ends. A table may *receive* at any time: the
  newcomer takes an empty seat and is dealt in from that table's next hand,
  so nobody is ever taken out of a hand in progress (rule 11).
* Balancing (rule 11): while the largest table has two or more players more
  than the smallest, one player moves from the largest to the smallest. When
  the largest table is in a hand, the move waits until it ends: the imbalance
  itself is the pending move, so nothing is stored for it. A table that ends
  its hand as (one of) the largest gives until it is no longer the largest or
  the gap is below two.
* Breaking (rule 12): when the remaining players fit on one table fewer, the
  table where the most recent elimination took place is broken. That table is
  the one whose hand just ended (eliminations happen at the end of a hand), so
  breaking is immediate. Its players go one by one, each to a table with the
  fewest players at that moment.
* The table with the fewest players: among equals, the lowest-numbered
  (``table_order``). Deterministic, plain to a player, and the state it needs
  is one count a table, which the coordinator's item stores in about a byte a
  table before compression (``to_dict``): an order of arrival would cost
  some 45 KB at 28,000 tables however it was written.
* A table left with a single player does not deal. Its player moves at once
  when another table has an empty seat (exactly when breaking is due); when
  every other table is full the table waits, receives players by balancing
  and resumes dealing when it has two (``BalancingDecision.resumed``). The waiting
  tables are exactly the tables of one player (``Balancing.waiting``), which
  also covers a start draw at heads-up tables with an odd field.
* The final table (rule 12): when all remaining players fit on one table, the
  last break leaves one table; its seats and button are drawn again as soon
  as it is between hands (``BalancingDecision.final_table``): at once if it was
  waiting, otherwise when its current hand ends. A tournament that starts on
  one table has its final table from the start and no redraw.

Cost: table ids sit in buckets by player count (one sorted list per count,
0..seats_per_table), so finding the largest and the smallest table is a scan
of at most 11 buckets, and each move is a binary search and a memory move in
one list (microseconds at 28,000 tables): nearly independent of the number of
tables (docs/architecture.md, 'Scale to design for').

>>> b = Balancing(9, {"A": 9, "B": 9, "C": 5})
>>> b.after_hand("A", eliminated=0).moves
(Move(from_table='A', to_table='C', reason=<MoveReason.BALANCING: 'balancing'>),)
>>> b.sizes()
{'A': 8, 'B': 9, 'C': 6}
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tourney.domain.errors import Conflict, InvalidConfiguration, NotFound
from tourney.domain.seating import PlayerId, departure_order, seat_for_arrival
from tourney.domain.structure import MAX_SEATS, MIN_SEATS

TableId = str


def table_order(table: TableId) -> tuple[int, str]:
    """The order of tables among equals: by number (ids of digits, no leading zeros), shorter ids first."""
    return len(table), table


class _Bucket:
    """The tables of one player count, lowest-numbered first (``table_order``)."""

    __slots__ = ("_keys",)

    def __init__(self) -> None:
        self._keys: list[tuple[int, str]] = []

    def add(self, table: TableId) -> None:
        bisect.insort(self._keys, table_order(table))

    def remove(self, table: TableId) -> None:
        key = table_order(table)
        at = bisect.bisect_left(self._keys, key)
        if at == len(self._keys) or self._keys[at] != key:
            raise KeyError(table)
        del self._keys[at]

    def first(self, count: int = 1) -> list[TableId]:
        return [table for _, table in self._keys[:count]]

    def __iter__(self) -> Iterator[TableId]:
        return (table for _, table in self._keys)

    def __len__(self) -> int:
        return len(self._keys)


GIVERS_AT_LEAST = 8
"""Largest tables named to give though fewer moves are due: the first of eight hand ends comes in seconds."""
GIVERS_AT_MOST = 64
"""Largest tables named at most: the dealing orders, read at every hand end, stay under 1 KB."""


class MoveReason(StrEnum):
    BALANCING = "balancing"
    """Rule 11: from the largest table to the smallest."""
    BREAKING = "breaking"
    """Rule 12: the table of the most recent elimination is broken."""
    LONE_PLAYER = "lone_player"
    """A table left with one player does not deal: the player moves at once."""


@dataclass(frozen=True, slots=True)
class Move:
    """One player leaves ``from_table`` for ``to_table`` (which player and seat: ``seat_moves``)."""

    from_table: TableId
    to_table: TableId
    reason: MoveReason


@dataclass(frozen=True, slots=True)
class BalancingDecision:
    """What follows the end of a hand at ``table`` (docs/rules.md, 'Balancing and breaking').

    ``moves`` are in order (a broken table's players leave one by one).
    ``broken``: tables emptied and closed. ``resumed``: tables that were
    waiting with one player and now have players to deal to. ``waiting``:
    ``table`` does not deal (one player, nowhere to go yet). ``final_table``:
    redraw every seat and the button of this table now (rule 12).
    ``finished``: one player is left; the tournament is over (rule 15).
    """

    table: TableId
    moves: tuple[Move, ...] = ()
    broken: tuple[TableId, ...] = ()
    resumed: tuple[TableId, ...] = ()
    waiting: bool = False
    final_table: TableId | None = None
    finished: bool = False

    @property
    def deals(self) -> bool:
        """Whether ``table`` deals its next hand."""
        return not (self.finished or self.waiting or self.table in self.broken)


class Balancing:
    """Player counts of a tournament's tables and the moves after each hand (docs/rules.md, rules 11, 12, 13).

    Mutable on purpose: copying 28,000 table counts per hand would make every
    decision linear in the field. ``to_dict``/``from_dict`` give plain data.
    """

    def __init__(
        self,
        seats_per_table: int,
        tables: Mapping[TableId, int] | Iterable[tuple[TableId, int]],
        *,
        last_elimination: TableId | None = None,
        final_table: TableId | None = None,
        final_table_pending: TableId | None = None,
    ) -> None:
        if type(seats_per_table) is not int or not MIN_SEATS <= seats_per_table <= MAX_SEATS:
            raise InvalidConfiguration(f"seats per table must be {MIN_SEATS}..{MAX_SEATS}, got {seats_per_table!r}")
        self._seats = seats_per_table
        self._size: dict[TableId, int] = {}
        self._buckets = [_Bucket() for _ in range(seats_per_table + 1)]
        self._players = 0
        pairs = tables.items() if isinstance(tables, Mapping) else tables
        for table, size in pairs:
            if table in self._size:
                raise InvalidConfiguration(f"table {table} appears twice")
            if type(size) is not int or not 1 <= size <= seats_per_table:
                raise InvalidConfiguration(f"table {table} has {size!r} players, not 1..{seats_per_table}")
            self._size[table] = size
            self._buckets[size].add(table)
            self._players += size
        self._last_elimination = last_elimination
        self._final_table_pending = final_table_pending
        if final_table is None and final_table_pending is None and len(self._size) == 1:
            final_table = next(iter(self._size))
        self._final_table = final_table

    # -- reading ---------------------------------------------------------------

    @property
    def seats_per_table(self) -> int:
        return self._seats

    @property
    def players(self) -> int:
        return self._players

    @property
    def table_count(self) -> int:
        return len(self._size)

    @property
    def final_table(self) -> TableId | None:
        """The final table once formed (redrawn, or the only table from the start)."""
        return self._final_table

    @property
    def final_table_pending(self) -> TableId | None:
        """The last table left, whose redraw waits for its current hand to end."""
        return self._final_table_pending

    @property
    def waiting(self) -> tuple[TableId, ...]:
        """Tables with a single player: they do not deal until players arrive (with one table: the winner's)."""
        return tuple(self._buckets[1]) if len(self._size) > 1 else ()

    def dealing(self) -> set[TableId]:
        """The tables in play that deal (not waiting with a lone player): linear, for hand-for-hand's rounds."""
        return set(self._size).difference(self.waiting)

    def size(self, table: TableId) -> int:
        try:
            return self._size[table]
        except KeyError:
            raise NotFound(f"no table {table} in play") from None

    def sizes(self) -> dict[TableId, int]:
        """A copy of every table's player count (linear: for reports and tests, not the play path)."""
        return dict(self._size)

    def tables_by_count(self) -> list[list[TableId]]:
        """The tables of each player count 0..seats_per_table, lowest-numbered first (linear: for blocks and tests)."""
        return [list(bucket) for bucket in self._buckets]

    def smallest(self) -> int:
        return next(n for n, bucket in enumerate(self._buckets) if bucket)

    def largest(self) -> int:
        return next(n for n in range(self._seats, -1, -1) if self._buckets[n])

    def tables_needed(self) -> int:
        return -(-self._players // self._seats)

    def gives_from(self) -> int | None:
        """The players at which a table gives one when its hand ends (rule 11): the largest, two above the smallest.

        None: no table gives now.
        """
        if len(self._size) < 2:
            return None
        largest = self.largest()
        return largest if largest - self.smallest() >= 2 else None

    def givers(self) -> tuple[TableId, ...]:
        """The largest tables named to give a player at their next hand end (rule 11), lowest-numbered first.

        As many as the smallest tables, at least ``GIVERS_AT_LEAST`` (the first of several hand ends comes
        sooner), at most ``GIVERS_AT_MOST``; none when no table gives. Any largest table whose hand ends gives
        (``after_hand``): naming a few spares the tournament every other largest table's hand end.
        """
        gives = self.gives_from()
        if gives is None:
            return ()
        wanted = min(max(len(self._buckets[self.smallest()]), GIVERS_AT_LEAST), GIVERS_AT_MOST)
        return tuple(self._buckets[gives].first(wanted))

    def hand_ends_needed(self) -> frozenset[TableId] | None:
        """The tables whose next hand end this balancing waits for by name; None: any table's will do.

        The last table left, for its final-table redraw; the table of the latest
        elimination while breaking is due (rule 12). When that table is no longer
        in play (or waits with a lone player), any table between hands is broken.
        """
        needed: set[TableId] = set()
        if self._final_table_pending is not None:
            needed.add(self._final_table_pending)
        if len(self._size) > 1 and self._breaking_due():
            last = self._last_elimination
            if last is None or last not in self._size or self._is_waiting(last):
                return None
            needed.add(last)
        return frozenset(needed)

    # -- deciding ----------------------------------------------------------------

    def after_hand(self, table: TableId, eliminated: int = 0) -> BalancingDecision:
        """Decide the moves after a hand ends at ``table`` with ``eliminated`` players out (docs/rules.md, rules 11-13).

        ``table`` is between hands while this runs; every other table is
        assumed to be in a hand, except those waiting with a single player.
        """
        size = self.size(table)
        if type(eliminated) is not int or not 0 <= eliminated < size:
            raise Conflict(f"{eliminated!r} eliminations at table {table} of {size}: the hand's winner remains")
        if eliminated:
            self._resize(table, size - eliminated)
            self._players -= eliminated
            self._last_elimination = table
        if self._players == 1:
            return BalancingDecision(table, finished=True)

        waiting_before = self.waiting
        moves: list[Move] = []
        broken: list[TableId] = []
        final_table: TableId | None = None
        if self._final_table_pending == table:
            final_table = self._formed(table)

        # A lone player moves at once when there is room elsewhere; otherwise the table waits in bucket 1.
        for lone in (table, *waiting_before):
            if self._size.get(lone) == 1 and self.table_count > 1 and self._breaking_due():
                reason = MoveReason.BREAKING if lone == self._last_elimination else MoveReason.LONE_PLAYER
                self._break(lone, reason, moves, broken)

        while self.table_count > 1 and self._breaking_due():
            target = self._break_target(table)
            if target is None:
                break  # the table of the last elimination is in a hand: it is broken when that hand ends
            self._break(target, MoveReason.BREAKING, moves, broken)

        if table in self._size and not self._is_waiting(table):
            self._balance_from(table, moves)

        if self.table_count == 1 and self._final_table is None:
            (last,) = self._size
            if last == table or last in waiting_before:
                final_table = self._formed(last)
            else:
                self._final_table_pending = last

        resumed = tuple(t for t in waiting_before if t != table and t in self._size and not self._is_waiting(t))
        return BalancingDecision(
            table=table,
            moves=tuple(moves),
            broken=tuple(broken),
            resumed=resumed,
            waiting=self._is_waiting(table),
            final_table=final_table,
        )

    def leave(self, table: TableId, players: int) -> bool:
        """``players`` left ``table`` between hands with no hand's end to decide moves (docs/rules.md, rule 19).

        A disqualification whose hand was cancelled (a termination, rule 17):
        the counts follow, and the next hand's end balances as usual. True when
        the table is left empty (it is no longer in play).
        """
        size = self.size(table)
        if type(players) is not int or not 0 < players <= size or players >= self._players:
            raise Conflict(f"{players!r} players cannot leave table {table} of {size} ({self._players} in play)")
        self._players -= players
        if players == size:
            self._buckets[size].remove(table)
            del self._size[table]
            if self._final_table_pending == table:
                self._final_table_pending = None
            return True
        self._resize(table, size - players)
        return False

    def _is_waiting(self, table: TableId) -> bool:
        return self._size.get(table) == 1 and len(self._size) > 1

    def _formed(self, table: TableId) -> TableId:
        self._final_table = table
        self._final_table_pending = None
        return table

    def _breaking_due(self) -> bool:
        """The remaining players fit on one table fewer (docs/rules.md, rule 12)."""
        return self._players <= (len(self._size) - 1) * self._seats

    def _break_target(self, table: TableId) -> TableId | None:
        """The table of the most recent elimination, if it is between hands (docs/rules.md, rule 12)."""
        last = self._last_elimination
        if last is not None and last in self._size:
            return last if last == table or self._is_waiting(last) else None
        # The table of the last elimination is already gone: break a table that is between hands.
        if table in self._size:
            return table
        return next(iter(self.waiting), None)

    def _break(self, table: TableId, reason: MoveReason, moves: list[Move], broken: list[TableId]) -> None:
        """Empty ``table``: its players go one by one to the tables with the fewest players (docs/rules.md, rule 12)."""
        count = self._size.pop(table)
        self._buckets[count].remove(table)
        for _ in range(count):
            to_table = self._fewest()
            self._resize(to_table, self._size[to_table] + 1)
            moves.append(Move(table, to_table, reason))
        broken.append(table)

    def _balance_from(self, table: TableId, moves: list[Move]) -> None:
        """While ``table`` is a largest table and 2+ above the smallest, it gives one to the smallest (rule 11)."""
        while True:
            size = self._size[table]
            smallest = self.smallest()
            if size < self.largest() or size - smallest < 2:
                return
            (to_table,) = self._buckets[smallest].first()
            self._resize(table, size - 1)
            self._resize(to_table, smallest + 1)
            moves.append(Move(table, to_table, MoveReason.BALANCING))

    def _fewest(self) -> TableId:
        (table,) = self._buckets[self.smallest()].first()
        return table

    def _resize(self, table: TableId, size: int) -> None:
        self._buckets[self._size[table]].remove(table)
        self._size[table] = size
        self._buckets[size].add(table)

    # -- plain data ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data, compact: ``counts`` holds table ``n``'s player count at position ``n - 1`` (a base-36 digit,
        ``0``: no such table in play), ``others`` the tables whose ids are not numbers. About a byte a table
        before compression, and runs of equal counts compress well: the coordinator's item stays a few KB.
        """
        numbered = {int(t): n for t, n in self._size.items() if _numbered(t)}
        counts = ["0"] * max(numbered, default=0)
        for number, n in numbered.items():
            counts[number - 1] = _DIGITS[n]
        return {
            "seats_per_table": self._seats,
            "counts": "".join(counts),
            "others": {t: n for t, n in self._size.items() if not _numbered(t)},
            "last_elimination": self._last_elimination,
            "final_table": self._final_table,
            "final_table_pending": self._final_table_pending,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Balancing:
        numbered = ((str(i + 1), int(c, 36)) for i, c in enumerate(raw["counts"]) if c != "0")
        others = ((str(t), int(n)) for t, n in raw.get("others", {}).items())
        return cls(
            int(raw["seats_per_table"]),
            itertools.chain(numbered, others),
            last_elimination=raw.get("last_elimination"),
            final_table=raw.get("final_table"),
            final_table_pending=raw.get("final_table_pending"),
        )


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _numbered(table: TableId) -> bool:
    return table.isdigit() and table[0] != "0"


@dataclass(frozen=True, slots=True)
class TableSeats:
    """What ``seat_moves`` needs of one table: who sits where, its last button, who is due for the BB.

    ``next_big_blind_seat`` is the seat of ``blinds.upcoming_big_blind`` (None
    before the table's first hand: then the lowest occupied seat leaves first).
    ``button_seat`` is the button of the table's last hand (None: no hand yet).
    """

    seats: Mapping[int, PlayerId]
    button_seat: int | None = None
    next_big_blind_seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A player moved: from a seat at one table to a seat at another (docs/rules.md, rule 13)."""

    player: PlayerId
    from_table: TableId
    from_seat: int
    to_table: TableId
    to_seat: int
    reason: MoveReason


def seat_moves(
    moves: Sequence[Move], tables: Mapping[TableId, TableSeats], seats_per_table: int
) -> tuple[SeatChange, ...]:
    """Players and seats for ``moves``, applied in order (docs/rules.md, 'Balancing and breaking', rule 13).

    Players leave a table in seat order clockwise from the one due to post the
    big blind next (``seating.departure_order``); each takes the first empty
    seat clockwise after the button of the receiving table's last hand
    (``seating.seat_for_arrival``), seats filled by earlier moves included.
    ``tables`` holds every table named in ``moves``.
    """
    leaving: dict[TableId, deque[PlayerId]] = {}
    seat_of: dict[TableId, dict[PlayerId, int]] = {}
    occupied: dict[TableId, set[int]] = {}
    changes: list[SeatChange] = []

    def view(table: TableId) -> TableSeats:
        try:
            return tables[table]
        except KeyError:
            raise NotFound(f"table {table} is needed to seat the moves") from None

    for move in moves:
        if move.from_table not in leaving:
            source = view(move.from_table)
            if not source.seats:
                raise NotFound(f"table {move.from_table} has nobody to move")
            first = source.next_big_blind_seat if source.next_big_blind_seat is not None else min(source.seats)
            leaving[move.from_table] = deque(departure_order(source.seats, first, seats_per_table))
            seat_of[move.from_table] = {player: seat for seat, player in source.seats.items()}
        if not leaving[move.from_table]:
            raise Conflict(f"table {move.from_table} has no player left to move")
        player = leaving[move.from_table].popleft()
        from_seat = seat_of[move.from_table][player]
        occupied.setdefault(move.from_table, set(view(move.from_table).seats)).discard(from_seat)
        taken = occupied.setdefault(move.to_table, set(view(move.to_table).seats))
        to_seat = seat_for_arrival(taken, view(move.to_table).button_seat, seats_per_table)
        taken.add(to_seat)
        changes.append(SeatChange(player, move.from_table, from_seat, move.to_table, to_seat, move.reason))
    return tuple(changes)
