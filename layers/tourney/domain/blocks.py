"""Balancing and breaking by blocks of tables (docs/rules.md, 'Balancing and breaking'; seed rules 11, 12, 13).

A large field's tables are grouped in blocks (up to 64 tables each). A block
keeps its own tables and their player counts (``BlockBalancing``); the
tournament level keeps one small summary per block (``BlockSummary``: how many
tables hold how many players) and the final table (``FieldBalancing``). No
state grows with the field: a block holds its own tables, the tournament level
a dozen numbers a block.

How a decision is split between the two levels, so that the outcome is the one
``Balancing`` gives for the whole field:

* The tournament level gives the block of the table whose hand ended a
  ``FieldView``: how many tables of the *other* blocks hold each number of
  players (at most 11 numbers), and the final table's state.
* The block decides with ``Balancing.after_hand`` itself, run over its own
  tables plus stand-ins for the rest of the field: a handful of tables of each
  player count found elsewhere (enough for any one decision's arrivals), the
  remaining tables and players counted without names. Largest, smallest,
  "fit on one table fewer" and "all fit on one table" are therefore the
  field's, never the block's alone: rules 11-13 are applied to the whole field.
* Only the table whose hand ended, and tables waiting with a lone player, give
  players (they are the tables between hands); every other table only
  receives. Among equally small tables, the block's own come first (no message
  leaves the block), then those elsewhere.
* A move to a stand-in is a move to another block: ``FieldBalancing.settle``
  names the block (the first, in the tournament's order of blocks, with a table
  of that many players not yet chosen by this decision) and hands it a
  ``BlockOrder``; the block seats the arrivals at its lowest-numbered table of that count
  (``BlockBalancing.apply``) and answers which table it chose. A lone stand-in
  broken is the other block's waiting table: it is between hands, so its player
  moves at once.

The tables' player counts after each hand end are then exactly those
``Balancing`` gives (as a multiset: which of equally small tables receives may
differ, and that choice never changes a count), so the gap between the largest
and the smallest table, a break when the players fit on one table fewer, and
the hand end at which the final table forms are the same.
``tests/property/test_rule_11_block_balancing_properties.py`` proves it against
``Balancing`` on random fields.

Exactness needs the view to be current: decisions that touch another block
(a move out of the block, a lone table broken elsewhere) are settled in the
tournament's order, one at a time. What is not covered: players leaving between
hands without a hand end (``Balancing.leave``, a disqualification); a break that
waits for another table's hand end after such a leave.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tourney.domain.balancing import Balancing, BalancingDecision, Move, TableId, table_order
from tourney.domain.errors import Conflict, InvalidConfiguration, NotFound

BlockId = str

ELSEWHERE = "elsewhere:"
"""The prefix of a stand-in's name: a table of another block, named by the block that receives (``apply``)."""

BLOCK_TABLES = 64
"""The most tables a block holds: its state stays under 2 KB."""


def _counts(sizes: Iterable[int], seats: int) -> list[int]:
    counts = [0] * (seats + 1)
    for size in sizes:
        counts[size] += 1
    return counts


@dataclass(frozen=True, slots=True)
class BlockSummary:
    """What the tournament level knows of a block: how many of its tables hold each number of players."""

    block: BlockId
    tables_by_players: tuple[tuple[int, int], ...]
    """(players, tables) pairs, by players, tables > 0."""

    @classmethod
    def of(cls, block: BlockId, counts: Sequence[int]) -> BlockSummary:
        return cls(block, tuple((n, c) for n, c in enumerate(counts) if c))

    @property
    def tables(self) -> int:
        return sum(c for _, c in self.tables_by_players)

    @property
    def players(self) -> int:
        return sum(n * c for n, c in self.tables_by_players)

    @property
    def smallest(self) -> int | None:
        """The players at the block's smallest table (None: the block has no table left)."""
        return self.tables_by_players[0][0] if self.tables_by_players else None

    @property
    def largest(self) -> int | None:
        return self.tables_by_players[-1][0] if self.tables_by_players else None

    def counts(self, seats: int) -> list[int]:
        """counts[n]: the block's tables with n players, n = 0..seats."""
        dense = [0] * (seats + 1)
        for n, c in self.tables_by_players:
            dense[n] = c
        return dense

    def to_dict(self) -> dict[str, Any]:
        return {"block": self.block, "tables_by_players": {str(n): c for n, c in self.tables_by_players}}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BlockSummary:
        pairs = sorted((int(n), int(c)) for n, c in raw["tables_by_players"].items())
        return cls(str(raw["block"]), tuple(pairs))


@dataclass(frozen=True, slots=True)
class FieldView:
    """What a block needs of the rest of the field to decide a hand end as ``Balancing`` would for the whole field.

    ``elsewhere[n]``: the tables of the other blocks with n players.
    ``final_table_formed``: the final table has been formed (or the field
    started on one table). ``final_table_pending_here``: the last table left
    is this block's and its redraw waits for its hand to end.
    """

    elsewhere: tuple[int, ...]
    final_table_formed: bool = False
    final_table_pending_here: bool = False


@dataclass(frozen=True, slots=True)
class BlockDecision:
    """A block's decision after a hand ends at one of its tables.

    ``decision`` is ``Balancing``'s, where tables of other blocks are stand-ins
    (names starting with ``ELSEWHERE``). ``elsewhere``: each stand-in the
    decision changed, with its players before and after (0: broken).
    ``final_table_pending``: the last table left waits for its hand to end.
    """

    block: BlockId
    decision: BalancingDecision
    summary: BlockSummary
    elsewhere: tuple[tuple[TableId, int, int], ...] = ()
    final_table_pending: TableId | None = None


@dataclass(frozen=True, slots=True)
class BlockOrder:
    """What another block's decision asks of this block: each stand-in, a table of ``before`` players, now ``after``."""

    block: BlockId
    changes: tuple[tuple[TableId, int, int], ...]


class _FieldAtHandEnd(Balancing):
    """``Balancing`` over a block's tables and stand-ins, with the field's other tables counted but not named."""

    def __init__(
        self,
        seats: int,
        pairs: list[tuple[TableId, int]],
        unseen: tuple[int, int],
        *,
        final_table: TableId | None,
        final_table_pending: TableId | None,
    ) -> None:
        super().__init__(seats, pairs, final_table=final_table, final_table_pending=final_table_pending)
        self._unseen_tables, unseen_players = unseen
        self._players += unseen_players

    @property
    def table_count(self) -> int:
        return super().table_count + self._unseen_tables

    def sizes_view(self) -> Mapping[TableId, int]:
        return self._size

    def _breaking_due(self) -> bool:
        return self._players <= (self.table_count - 1) * self.seats_per_table


class BlockBalancing:
    """The tables of one block and their player counts, lowest-numbered at each count first (as ``Balancing``)."""

    def __init__(self, block: BlockId, seats_per_table: int, buckets: Sequence[Sequence[TableId]]) -> None:
        if len(buckets) != seats_per_table + 1 or buckets[0]:
            raise InvalidConfiguration(f"block {block}: one list of tables for each count 0..{seats_per_table}")
        tables = [table for bucket in buckets for table in bucket]
        if len(tables) > BLOCK_TABLES or len(set(tables)) != len(tables):
            raise InvalidConfiguration(f"block {block}: at most {BLOCK_TABLES} distinct tables")
        if any(table.startswith(ELSEWHERE) for table in tables):
            raise InvalidConfiguration(f"block {block}: a table's name may not start with {ELSEWHERE!r}")
        self.block = block
        self._seats = seats_per_table
        self._buckets: list[list[TableId]] = [sorted(bucket, key=table_order) for bucket in buckets]

    @classmethod
    def of(cls, block: BlockId, seats_per_table: int, tables: Mapping[TableId, int]) -> BlockBalancing:
        buckets: list[list[TableId]] = [[] for _ in range(seats_per_table + 1)]
        for table, size in tables.items():
            if type(size) is not int or not 1 <= size <= seats_per_table:
                raise InvalidConfiguration(f"table {table} has {size!r} players, not 1..{seats_per_table}")
            buckets[size].append(table)
        return cls(block, seats_per_table, buckets)

    def sizes(self) -> dict[TableId, int]:
        return {table: n for n, bucket in enumerate(self._buckets) for table in bucket}

    def summary(self) -> BlockSummary:
        return BlockSummary.of(self.block, [len(bucket) for bucket in self._buckets])

    def after_hand(self, table: TableId, eliminated: int, field: FieldView) -> BlockDecision:
        """Decide the moves after a hand ends at ``table`` of this block (docs/rules.md, rules 11-13).

        ``Balancing.after_hand`` over the block's tables and the field's other
        tables as ``field`` counts them; see the module's docstring.
        """
        if table not in self.sizes():
            raise NotFound(f"no table {table} in block {self.block}")
        stand_ins, unseen = _stand_ins(field.elsewhere, self._seats)
        own = [(t, n) for n, bucket in enumerate(self._buckets) for t in bucket]
        balancing = _FieldAtHandEnd(
            self._seats,
            own + stand_ins,
            unseen,
            final_table=table if field.final_table_formed else None,
            final_table_pending=table if field.final_table_pending_here else None,
        )
        decision = balancing.after_hand(table, eliminated)
        after = balancing.tables_by_count()
        self._buckets = [[t for t in bucket if not t.startswith(ELSEWHERE)] for bucket in after]
        sizes = balancing.sizes_view()
        changed = tuple(
            (name, before, sizes.get(name, 0)) for name, before in stand_ins if sizes.get(name, 0) != before
        )
        return BlockDecision(self.block, decision, self.summary(), changed, balancing.final_table_pending)

    def apply(self, order: BlockOrder) -> dict[TableId, TableId]:
        """Seat another block's decision here: each stand-in becomes this block's lowest-numbered table of its count.

        Answers the table chosen for each stand-in (to name the players' new
        table, ``resolve``). The tables are chosen from the counts before the
        order, each once.
        """
        chosen: dict[TableId, TableId] = {}
        picked: set[TableId] = set()
        for name, before, _ in order.changes:
            table = next((t for t in self._buckets[before] if t not in picked), None)
            if table is None:
                raise Conflict(f"block {self.block} has no table of {before} players for {name}")
            picked.add(table)
            chosen[name] = table
        for name, before, after in order.changes:
            self._buckets[before].remove(chosen[name])
            if after:
                bisect.insort(self._buckets[after], chosen[name], key=table_order)
        return chosen

    def to_dict(self) -> dict[str, Any]:
        return {"block": self.block, "seats_per_table": self._seats, "buckets": [list(b) for b in self._buckets]}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BlockBalancing:
        buckets = [[str(t) for t in bucket] for bucket in raw["buckets"]]
        return cls(str(raw["block"]), int(raw["seats_per_table"]), buckets)


def _stand_ins(elsewhere: Sequence[int], seats: int) -> tuple[list[tuple[TableId, int]], tuple[int, int]]:
    """A few named tables of each count found elsewhere, and the (tables, players) of the rest, counted only.

    One decision seats at most a broken table's players and a lone player or
    two (a table gives by balancing only while it has not been broken), so
    ``2 * seats + 3`` tables of a count are more than any decision fills: the
    smallest and the largest are never mistaken.
    """
    keep = 2 * seats + 3
    named: list[tuple[TableId, int]] = []
    unseen_tables = unseen_players = 0
    for n, count in enumerate(elsewhere):
        shown = min(count, keep)
        named.extend((f"{ELSEWHERE}{n}.{i}", n) for i in range(shown))
        unseen_tables += count - shown
        unseen_players += (count - shown) * n
    return named, (unseen_tables, unseen_players)


def resolve(moves: Iterable[Move], names: Mapping[TableId, TableId]) -> tuple[Move, ...]:
    """``moves`` with each stand-in replaced by the table its block chose (``BlockBalancing.apply``)."""
    return tuple(
        Move(names.get(m.from_table, m.from_table), names.get(m.to_table, m.to_table), m.reason) for m in moves
    )


@dataclass
class _Settling:
    orders: dict[BlockId, list[tuple[TableId, int, int]]] = field(default_factory=dict)
    taken: dict[tuple[BlockId, int], int] = field(default_factory=dict)


class FieldBalancing:
    """The tournament level: one ``BlockSummary`` a block, the field's counts, the final table (rules 11, 12).

    It decides what needs the whole field: which blocks give (their largest
    tables are the field's largest, two or more above its smallest: they give
    at their hand ends, ``gives_from``), which block receives a player moved
    out of another (``settle``), when breaking is due and when the final table
    forms. The moves themselves are decided by the block of the table whose hand
    ended, with this level's ``view_for``.
    """

    def __init__(
        self,
        seats_per_table: int,
        summaries: Iterable[BlockSummary],
        *,
        final_table_formed: bool | None = None,
        final_table_pending: BlockId | None = None,
    ) -> None:
        self._seats = seats_per_table
        self._blocks: dict[BlockId, list[int]] = {}
        self._counts = [0] * (seats_per_table + 1)
        for summary in summaries:
            if summary.block in self._blocks:
                raise InvalidConfiguration(f"block {summary.block} appears twice")
            self._set(summary.block, summary.counts(seats_per_table))
        if final_table_formed is None:
            final_table_formed = final_table_pending is None and self.table_count == 1
        self.seats_per_table = seats_per_table
        self.final_table_formed = final_table_formed
        """The final table has been formed (or the field started on one table)."""
        self.final_table_pending = final_table_pending
        """The block of the last table left, whose redraw waits for its hand to end."""

    @property
    def players(self) -> int:
        return sum(n * c for n, c in enumerate(self._counts))

    @property
    def table_count(self) -> int:
        return sum(self._counts)

    def blocks(self) -> tuple[BlockId, ...]:
        return tuple(self._blocks)

    def summary(self, block: BlockId) -> BlockSummary:
        return BlockSummary.of(block, self._of(block))

    def smallest(self) -> int:
        return next(n for n, c in enumerate(self._counts) if c)

    def largest(self) -> int:
        return next(n for n in range(self._seats, -1, -1) if self._counts[n])

    def breaking_due(self) -> bool:
        """The remaining players fit on one table fewer (docs/rules.md, rule 12)."""
        return self.table_count > 1 and self.players <= (self.table_count - 1) * self._seats

    def gives_from(self) -> int | None:
        """The players at which a table gives one when its hand ends (rule 11), as ``Balancing.gives_from``."""
        if self.table_count < 2:
            return None
        largest = self.largest()
        return largest if largest - self.smallest() >= 2 else None

    def giving_blocks(self) -> tuple[BlockId, ...]:
        """The blocks holding a table that gives at its hand end (rule 11): their largest is ``gives_from``."""
        gives = self.gives_from()
        return () if gives is None else tuple(b for b, counts in self._blocks.items() if counts[gives])

    def receiving_blocks(self) -> tuple[BlockId, ...]:
        """The blocks holding one of the field's smallest tables, in the order ``settle`` chooses them."""
        smallest = self.smallest()
        return tuple(b for b, counts in self._blocks.items() if counts[smallest])

    def view_for(self, block: BlockId) -> FieldView:
        """What ``block`` needs to decide a hand end at one of its tables: the other blocks' counts."""
        own = self._of(block)
        return FieldView(
            tuple(total - mine for total, mine in zip(self._counts, own, strict=True)),
            final_table_formed=self.final_table_formed,
            final_table_pending_here=self.final_table_pending == block,
        )

    def settle(self, decided: BlockDecision) -> tuple[BlockOrder, ...]:
        """Take in a block's decision: its new summary, the blocks its stand-ins are, the final table.

        Each stand-in goes to the first block, in this level's order, with a
        table of that many players not yet chosen by this decision; the orders
        are for those blocks to ``apply``, in any order among themselves.
        """
        self._set(decided.block, decided.summary.counts(self._seats))
        settling = _Settling()
        for name, before, after in decided.elsewhere:
            chosen = self._choose(decided.block, before, settling)
            settling.orders.setdefault(chosen, []).append((name, before, after))
        for chosen, changes in settling.orders.items():
            counts = self._of(chosen)
            for _, before, after in changes:
                counts[before] -= 1
                counts[after] += 1
            counts[0] = 0
            self._set(chosen, counts)
        self._after_final_table(decided)
        return tuple(BlockOrder(block, tuple(changes)) for block, changes in settling.orders.items())

    def _choose(self, deciding: BlockId, players: int, settling: _Settling) -> BlockId:
        for block, counts in self._blocks.items():
            taken = settling.taken.get((block, players), 0)
            if block != deciding and counts[players] > taken:
                settling.taken[(block, players)] = taken + 1
                return block
        raise Conflict(f"no block has a table of {players} players for a move out of block {deciding}")

    def _after_final_table(self, decided: BlockDecision) -> None:
        if decided.decision.final_table is not None:
            self.final_table_formed, self.final_table_pending = True, None
        elif self.table_count == 1 and not self.final_table_formed:
            (self.final_table_pending,) = self._blocks

    def _of(self, block: BlockId) -> list[int]:
        counts = self._blocks.get(block)
        return list(counts) if counts is not None else [0] * (self._seats + 1)

    def _set(self, block: BlockId, counts: list[int]) -> None:
        old = self._of(block)
        self._counts = [total - was + now for total, was, now in zip(self._counts, old, counts, strict=True)]
        if any(counts):
            self._blocks[block] = counts  # in place: the order of blocks is settle's choice among equals
        else:
            self._blocks.pop(block, None)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the blocks in order (``settle`` chooses by it), each as players -> tables."""
        return {
            "seats_per_table": self._seats,
            "blocks": {b: {str(n): c for n, c in enumerate(counts) if c} for b, counts in self._blocks.items()},
            "final_table_formed": self.final_table_formed,
            "final_table_pending": self.final_table_pending,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> FieldBalancing:
        summaries = [BlockSummary.from_dict({"block": b, "tables_by_players": t}) for b, t in raw["blocks"].items()]
        return cls(
            int(raw["seats_per_table"]),
            summaries,
            final_table_formed=bool(raw["final_table_formed"]),
            final_table_pending=raw.get("final_table_pending"),
        )
