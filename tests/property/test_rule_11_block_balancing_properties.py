"""Balancing by blocks decides as ``Balancing`` does for the whole field (docs/rules.md, 'Balancing and breaking').

A field's tables are cut into random blocks of up to 64 tables; random hands end
with random eliminations. At every hand end, ``Balancing`` is built from the same
field and decides the same hand end: the two must leave the same table counts
(as a multiset: which of equally small tables receives may differ), break as
many tables, form the final table at the same hand end, and let the table deal
or wait alike. Players are conserved, no table exceeds its seats, only tables
between hands give, and the tournament level's summaries are the blocks' own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney.domain.balancing import Balancing, BalancingDecision, Move
from tourney.domain.blocks import BLOCK_TABLES, BlockBalancing, BlockDecision, FieldBalancing, resolve


@dataclass
class Field:
    """The two levels as the coordination would run them: one block decides, the tournament level settles."""

    seats: int
    field_balancing: FieldBalancing
    blocks: dict[str, BlockBalancing]
    block_of: dict[str, str]
    """Each table's block."""
    last_elimination: str | None = None
    final_tables: list[str] = field(default_factory=list)

    def sizes(self) -> dict[str, int]:
        return {t: n for block in self.blocks.values() for t, n in block.sizes().items()}

    def waiting(self) -> set[str]:
        sizes = self.sizes()
        return {t for t, n in sizes.items() if n == 1} if len(sizes) > 1 else set()


def start(players: int, seats: int, cuts: list[int]) -> Field:
    """An even start over the fewest tables, cut into blocks of the sizes ``cuts`` gives in turn."""
    count = -(-players // seats)
    sizes = [players // count + (1 if i < players % count else 0) for i in range(count)]
    blocks: dict[str, BlockBalancing] = {}
    block_of: dict[str, str] = {}
    at, i = 0, 0
    while at < count:
        width = min(cuts[i % len(cuts)], BLOCK_TABLES, count - at)
        name = f"B{i}"
        tables = {f"T{t}": sizes[t] for t in range(at, at + width)}
        blocks[name] = BlockBalancing.of(name, seats, tables)
        block_of.update(dict.fromkeys(tables, name))
        at, i = at + width, i + 1
    summaries = [block.summary() for block in blocks.values()]
    return Field(seats, FieldBalancing(seats, summaries), blocks, block_of)


def oracle(f: Field) -> Balancing:
    """``Balancing`` of the same field, with the same final table and latest elimination."""
    sizes = f.sizes()
    only = next(iter(sizes)) if len(sizes) == 1 else None
    formed = f.field_balancing.final_table_formed
    return Balancing(
        f.seats,
        sizes,
        last_elimination=f.last_elimination,
        final_table=only if formed else None,
        final_table_pending=only if f.field_balancing.final_table_pending else None,
    )


def hand_end(f: Field, table: str, eliminated: int) -> tuple[BlockDecision, tuple[Move, ...], set[str]]:
    """One hand ends: the table's block decides, the tournament level settles, the other blocks apply."""
    block = f.blocks[f.block_of[table]]
    decided = block.after_hand(table, eliminated, f.field_balancing.view_for(block.block))
    names: dict[str, str] = {}
    for order in f.field_balancing.settle(decided):
        names.update(f.blocks[order.block].apply(order))
    for name in [b for b, blk in f.blocks.items() if not blk.sizes()]:
        del f.blocks[name]
    if eliminated:
        f.last_elimination = table
    broken = {names.get(t, t) for t in decided.decision.broken}
    return decided, resolve(decided.decision.moves, names), broken


def same_outcome(single: BalancingDecision, by_blocks: BalancingDecision, ended: str) -> None:
    assert by_blocks.finished == single.finished
    assert len(by_blocks.moves) == len(single.moves)
    assert len(by_blocks.broken) == len(single.broken)
    assert (ended in by_blocks.broken) == (ended in single.broken)
    assert by_blocks.waiting == single.waiting
    assert (by_blocks.final_table is None) == (single.final_table is None)
    assert len(by_blocks.resumed) == len(single.resumed)


def check_field(f: Field, players: int) -> None:
    sizes = f.sizes()
    # Players are conserved and no table exceeds its seats
    assert sum(sizes.values()) == players == f.field_balancing.players
    assert all(1 <= n <= f.seats for n in sizes.values())
    # The tournament level's summaries are the blocks' own
    assert set(f.field_balancing.blocks()) == set(f.blocks)
    assert all(f.field_balancing.summary(b) == blk.summary() for b, blk in f.blocks.items())
    # Breaking is never late: the number of tables is the fewest that seat everyone
    assert len(sizes) == f.field_balancing.table_count == -(-players // f.seats)


def play(f: Field, steps: list[tuple[int, int]]) -> int:
    """Hands end at tables between hands; each outcome is compared with ``Balancing``'s. Answers the players left."""
    players = sum(f.sizes().values())
    for pick, wanted in steps:
        if players == 1:
            break
        sizes, waiting = f.sizes(), f.waiting()
        dealing = sorted(t for t in sizes if t not in waiting)
        table = dealing[pick % len(dealing)]
        eliminated = min(wanted, sizes[table] - 1)
        single = oracle(f)
        expected = single.after_hand(table, eliminated)
        decided, moves, broken = hand_end(f, table, eliminated)
        players -= eliminated
        same_outcome(expected, decided.decision, table)
        # Only the table whose hand ended and tables waiting with a lone player give: nobody leaves a hand
        assert {m.from_table for m in moves} <= {table} | waiting
        assert broken <= {table} | waiting
        if decided.decision.final_table is not None:
            f.final_tables.append(table)
        if decided.decision.finished:
            assert players == 1
            break
        # The same counts as the single view: the same gap, the same tables broken, the same final table
        assert sorted(f.sizes().values()) == sorted(single.sizes().values())
        check_field(f, players)
    return players


steps = st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from([0, 0, 0, 1, 1, 2, 3, 9])), max_size=150)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 3000),
    seats=st.integers(2, 10),
    cuts=st.lists(st.integers(1, 64), min_size=1, max_size=8),
    hands=steps,
)
def test_rule_11_blocks_leave_the_same_table_counts_as_balancing_the_whole_field(
    players: int, seats: int, cuts: list[int], hands: list[tuple[int, int]]
) -> None:
    # Given up to 300 tables cut into random blocks; when random hands end with random eliminations
    f = start(players, seats, cuts)
    check_field(f, players)
    # Then every hand end leaves the counts Balancing leaves (checked in play)
    play(f, hands)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 400),
    seats=st.integers(2, 10),
    cuts=st.lists(st.integers(1, 8), min_size=1, max_size=5),
    seed=st.integers(0, 2**32 - 1),
)
def test_rule_12_blocks_break_and_form_the_final_table_at_the_same_hand_ends_down_to_the_winner(
    players: int, seats: int, cuts: list[int], seed: int
) -> None:
    # Given a field in small blocks and hands that eliminate until one player is left
    rng = random.Random(seed)
    f = start(players, seats, cuts)
    hands = [(rng.randrange(10**6), rng.choice([0, 1, 1, 2, 4])) for _ in range(40 * players)]
    # Then every hand end agrees with Balancing, down to the winner
    assert play(f, hands) == 1
    # And the final table was formed once at most: never when the field started on one table; otherwise unless
    # the hand its redraw waited for ended the tournament
    waited = f.field_balancing.final_table_pending is not None
    assert len(f.final_tables) == (0 if players <= seats or waited else 1)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_rule_11_a_table_between_hands_gives_until_the_fields_gap_is_below_two(seats: int, seed: int) -> None:
    # Given random counts over blocks, with no elimination
    rng = random.Random(seed)
    sizes = {f"T{i}": rng.randint(2, seats) for i in range(rng.randint(2, 120))}
    tables = list(sizes)
    f = start(2, seats, [1])
    f.blocks, f.block_of = {}, {}
    for i in range(0, len(tables), 16):
        name = f"B{i}"
        f.blocks[name] = BlockBalancing.of(name, seats, {t: sizes[t] for t in tables[i : i + 16]})
        f.block_of.update(dict.fromkeys(tables[i : i + 16], name))
    f.field_balancing = FieldBalancing(seats, [b.summary() for b in f.blocks.values()])
    # When every table ends a hand in turn, some more than once
    for _ in range(3):
        for table in tables:
            if table in f.sizes():
                single = oracle(f)
                expected = single.after_hand(table, 0)
                decided, _, _ = hand_end(f, table, 0)
                same_outcome(expected, decided.decision, table)
                assert sorted(f.sizes().values()) == sorted(single.sizes().values())
    # Then the field's largest and smallest table differ by one at most
    assert max(f.sizes().values()) - min(f.sizes().values()) <= 1


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 3000),
    seats=st.integers(2, 10),
    cuts=st.lists(st.integers(1, 64), min_size=1, max_size=8),
    hands=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from([0, 0, 1, 2, 9])), min_size=300, max_size=1500),
)
def test_rule_11_blocks_leave_the_same_table_counts_as_balancing_the_whole_field_slow(
    players: int, seats: int, cuts: list[int], hands: list[tuple[int, int]]
) -> None:
    f = start(players, seats, cuts)
    play(f, hands)
