"""Balancing by blocks: examples and state sizes (docs/rules.md, 'Balancing and breaking'; domain/blocks.py)."""

from __future__ import annotations

import json

import pytest
from tourney.domain.balancing import Move, MoveReason
from tourney.domain.blocks import (
    BLOCK_TABLES,
    BlockBalancing,
    BlockDecision,
    BlockSummary,
    FieldBalancing,
    resolve,
)
from tourney.domain.errors import InvalidConfiguration


def two_level(seats: int, blocks: dict[str, dict[str, int]]) -> tuple[FieldBalancing, dict[str, BlockBalancing]]:
    by_name = {name: BlockBalancing.of(name, seats, tables) for name, tables in blocks.items()}
    return FieldBalancing(seats, [b.summary() for b in by_name.values()]), by_name


def end_hand(
    f: FieldBalancing, blocks: dict[str, BlockBalancing], block: str, table: str, eliminated: int = 0
) -> tuple[BlockDecision, tuple[Move, ...]]:
    decided = blocks[block].after_hand(table, eliminated, f.view_for(block))
    names: dict[str, str] = {}
    for order in f.settle(decided):
        names.update(blocks[order.block].apply(order))
    return decided, resolve(decided.decision.moves, names)


def test_rule_11_the_fields_largest_table_gives_to_the_smallest_in_another_block() -> None:
    # Given block A full and block B with a table of 5
    f, blocks = two_level(9, {"A": {"a1": 9, "a2": 9}, "B": {"b1": 5, "b2": 7}})
    assert f.giving_blocks() == ("A",)
    assert f.receiving_blocks() == ("B",)
    assert f.gives_from() == 9
    # When a1's hand ends
    _, moves = end_hand(f, blocks, "A", "a1")
    # Then a1 gives one to b1, the field's smallest, though the block itself is balanced
    assert moves == (Move("a1", "b1", MoveReason.BALANCING),)
    assert blocks["A"].sizes() == {"a1": 8, "a2": 9}
    assert blocks["B"].sizes() == {"b1": 6, "b2": 7}
    assert f.summary("B") == blocks["B"].summary()


def test_rule_11_a_blocks_largest_table_gives_nothing_while_it_is_not_the_fields_largest() -> None:
    # Given a1 two above a2 but block B holds a larger table still
    f, blocks = two_level(9, {"A": {"a1": 7, "a2": 5}, "B": {"b1": 9, "b2": 7}})
    # When a1's hand ends
    _, moves = end_hand(f, blocks, "A", "a1")
    # Then nothing moves: only a largest table of the field gives (b1, when its own hand ends)
    assert moves == ()
    assert f.gives_from() == 9


def test_rule_12_a_broken_tables_players_go_to_the_fewest_tables_of_any_block() -> None:
    # Given 4 tables of 6 seats over two blocks, 19 players
    f, blocks = two_level(6, {"A": {"a1": 5, "a2": 5}, "B": {"b1": 4, "b2": 5}})
    # When a1 loses two players: 17 fit on 3 tables
    decided, moves = end_hand(f, blocks, "A", "a1", eliminated=2)
    # Then a1 is broken and its three players go one by one to the fewest tables, across blocks
    assert decided.decision.broken == ("a1",)
    # (among equally small tables the block's own first, then the lowest-numbered: b1 before b2)
    assert sorted(m.to_table for m in moves) == ["a2", "b1", "b1"]
    assert {**blocks["A"].sizes(), **blocks["B"].sizes()} == {"a2": 6, "b1": 6, "b2": 5}
    assert f.table_count == 3 and f.players == 17


def test_rule_12_a_lone_player_waiting_in_another_block_moves_as_soon_as_there_is_room() -> None:
    # Given b1 waiting with a lone player, every other table full
    f, blocks = two_level(3, {"A": {"a1": 3, "a2": 3}, "B": {"b1": 1, "b2": 3}})
    # When a1 loses one player: 8 players fit on 3 tables
    _, moves = end_hand(f, blocks, "A", "a1", eliminated=1)
    # Then b1's player moves at once to a1, and b1 is closed
    assert moves == (Move("b1", "a1", MoveReason.LONE_PLAYER),)
    assert blocks["B"].sizes() == {"b2": 3}
    assert f.summary("B") == BlockSummary("B", ((3, 1),))


def test_rule_12_the_final_table_in_another_block_forms_when_its_own_hand_ends() -> None:
    # Given two tables of 9 in two blocks, 10 players
    f, blocks = two_level(9, {"A": {"a1": 5}, "B": {"b1": 5}})
    # When a1 loses a player: 9 fit on one table, a1 is broken into b1, in a hand
    decided, _ = end_hand(f, blocks, "A", "a1", eliminated=1)
    assert decided.decision.final_table is None
    assert f.final_table_pending == "B" and f.blocks() == ("B",)
    # Then b1 becomes the final table when its own hand ends
    decided, _ = end_hand(f, blocks, "B", "b1")
    assert decided.decision.final_table == "b1"
    assert f.final_table_formed and f.final_table_pending is None


def test_state_round_trips_as_plain_data() -> None:
    f, blocks = two_level(9, {"A": {"a1": 9, "a2": 8}, "B": {"b1": 5}})
    end_hand(f, blocks, "A", "a1")
    assert FieldBalancing.from_dict(json.loads(json.dumps(f.to_dict()))).to_dict() == f.to_dict()
    for block in blocks.values():
        assert BlockBalancing.from_dict(json.loads(json.dumps(block.to_dict()))).to_dict() == block.to_dict()
        summary = block.summary()
        assert BlockSummary.from_dict(json.loads(json.dumps(summary.to_dict()))) == summary


def test_a_block_holds_at_most_64_tables_whose_names_are_not_stand_ins() -> None:
    with pytest.raises(InvalidConfiguration):
        BlockBalancing.of("A", 9, {f"t{i}": 9 for i in range(BLOCK_TABLES + 1)})
    with pytest.raises(InvalidConfiguration):
        BlockBalancing.of("A", 9, {"elsewhere:9.0": 9})


def test_state_stays_a_few_kb_at_27778_tables() -> None:
    # Given 250,000 players at 9 seats: 27,778 tables in blocks of 64, two counts in most blocks
    seats, tables = 9, 27_778
    names = [f"{'t'}{i:05d}" for i in range(tables)]
    blocks = {
        f"b{i // BLOCK_TABLES:03d}": BlockBalancing.of(
            f"b{i // BLOCK_TABLES:03d}", seats, {t: 8 + (j % 2) for j, t in enumerate(names[i : i + BLOCK_TABLES])}
        )
        for i in range(0, tables, BLOCK_TABLES)
    }
    f = FieldBalancing(seats, [b.summary() for b in blocks.values()])
    assert f.table_count == tables and len(blocks) == 435
    # Then the tournament level's state is under 16 KB and a block's under 2 KB
    assert len(json.dumps(f.to_dict(), separators=(",", ":"))) < 16_000
    assert max(len(json.dumps(b.to_dict(), separators=(",", ":"))) for b in blocks.values()) < 2_000
    # And a decision's view of the field is a dozen numbers
    assert len(f.view_for("b000").elsewhere) == seats + 1
