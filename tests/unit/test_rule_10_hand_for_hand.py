"""Rules 9, 10: hand-for-hand at the bubble (docs/rules.md, "Hand-for-hand").

Six players at three heads-up tables, three places paid: the bubble is the
fourth place. When the second table breaks, four players are left at two
tables: the next elimination puts everyone in the money, so hand-for-hand
begins. The hand in flight at the third table is round 0; then both tables
are dealt at once, and the players eliminated in that round, at either table,
are placed together as if in one hand.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from tourney.domain.hand_for_hand import HandForHand
from tourney.domain.prizes import BustOut
from tourney.domain.structure import TournamentConfig
from tourney.domain.tournament import TournamentState

NOW = datetime(2026, 1, 1, tzinfo=UTC)
POOL = 6 * 1_000


def config(**changes: object) -> TournamentConfig:
    """Heads-up tables, six players, three places paid (``changes`` override)."""
    settings: dict[str, object] = {
        "seats_per_table": 2,
        "min_players": 2,
        "max_players": 6,
        "payout_percent": (50, 30, 20),
        **changes,
    }
    return TournamentConfig.for_format("freezeout", buy_in=1_000, entry_fee=100, **settings)


def on_the_bubble(**changes: object) -> TournamentState:
    """Four players left at tables 1 and 3, hand-for-hand's round 1 dealt at both (when it is on)."""
    state = TournamentState.start("t", config(**changes), {"1": 2, "2": 2, "3": 2})
    state.hand_ended("1", [BustOut("a1", 500)], ["a2"], NOW, lambda: POOL)  # table 1 waits with a lone player
    state.hand_ended("2", [BustOut("b1", 500)], ["b2"], NOW, lambda: POOL)  # b2 moves to table 1: 4 left
    state.hand_ended("3", [], ["c1", "c2"], NOW, lambda: POOL)  # round 0 ends at the last table in flight
    return state


def test_rule_9_hand_for_hand_begins_when_the_next_elimination_is_in_the_money() -> None:
    # Given six players, three paid, When the fourth-last player is left with two tables in play
    state = TournamentState.start("t", config(), {"1": 2, "2": 2, "3": 2})
    state.hand_ended("1", [BustOut("a1", 500)], ["a2"], NOW, lambda: POOL)
    assert state.hand_for_hand is None  # five left: not yet
    ended = state.hand_ended("2", [BustOut("b1", 500)], ["b2"], NOW, lambda: POOL)
    # Then hand-for-hand holds the tables: the table that received b2 waits for the hand in flight at table 3
    assert state.hand_for_hand is not None and state.hand_for_hand.round == 0
    assert state.hand_for_hand.waiting == {"1"} and ended.released == ()
    # When table 3's hand ends, Then both tables are dealt at once: table 1 released, table 3 dealing itself
    last = state.hand_ended("3", [], ["c1", "c2"], NOW, lambda: POOL)
    assert last.released == ("1",) and not last.held and last.decision.deals
    assert state.hand_for_hand is not None and state.hand_for_hand.round == 1


def test_rule_9_a_table_that_finished_its_hand_for_hand_hand_waits_for_the_others() -> None:
    # Given round 1 dealt at tables 1 and 3
    state = on_the_bubble()
    # When table 1's hand ends with nobody out
    first = state.hand_ended("1", [], ["a2", "b2"], NOW, lambda: POOL)
    # Then table 1 does not deal: it waits for table 3
    assert first.held and first.released == () and first.round_played is None
    # When table 3's hand ends, Then the round is complete: both tables are dealt round 2
    second = state.hand_ended("3", [], ["c1", "c2"], NOW, lambda: POOL)
    assert not second.held and second.released == ("1",)
    assert second.round_played is not None and second.round_played.round == 1 and second.round_played.busted == ()
    assert state.hand_for_hand is not None and state.hand_for_hand.round == 2


def test_rule_10_players_out_in_one_hand_for_hand_round_are_ranked_by_their_chips_at_its_start() -> None:
    # Given round 1: a2 (3,000 chips at the hand's start) is out at table 1, then c1 (1,000 chips) at table 3
    state = on_the_bubble()
    early = state.hand_ended("1", [BustOut("a2", 3_000)], ["b2"], NOW, lambda: POOL)
    # Then nobody is placed before the round ends
    assert early.placings == ()
    late = state.hand_ended("3", [BustOut("c1", 1_000)], ["c2"], NOW, lambda: POOL)
    # Then both are placed together as if in one hand: more chips at its start, the better place, though out first
    places = {p.player_id: (p.place, p.prize) for p in late.placings}
    assert places == {"a2": (3, POOL * 20 // 100), "c1": (4, 0)}
    assert late.round_played is not None
    assert [(b.player_id, b.table, b.starting_stack) for b in late.round_played.busted] == [
        ("a2", "1", 3_000),
        ("c1", "3", 1_000),
    ]
    # And the bubble burst: hand-for-hand is over
    assert state.hand_for_hand is None and state.remaining == 2


def test_rule_10_players_out_in_one_round_with_equal_chips_share_their_places() -> None:
    # Given round 1: a2 and c1 out at different tables, each having started the hand with 2,000 chips
    state = on_the_bubble()
    state.hand_ended("1", [BustOut("a2", 2_000)], ["b2"], NOW, lambda: POOL)
    ended = state.hand_ended("3", [BustOut("c1", 2_000)], ["c2"], NOW, lambda: POOL)
    # Then they share places 3 and 4: the third prize split equally, the odd cent to the one out first
    third = POOL * 20 // 100
    assert sorted((p.player_id, p.place, p.last_place, p.prize) for p in ended.placings) == [
        ("a2", 3, 4, third - third // 2),
        ("c1", 3, 4, third // 2),
    ]


def test_rule_10_without_hand_for_hand_eliminations_are_placed_in_the_order_their_hands_end() -> None:
    # Given the same bubble with hand-for-hand switched off
    state = on_the_bubble(hand_for_hand=False)
    assert state.hand_for_hand is None
    # When a2 (more chips) is out first, then c1
    first = state.hand_ended("1", [BustOut("a2", 3_000)], ["b2"], NOW, lambda: POOL)
    # Then a2 takes the bubble at once, and c1 the last paid place
    assert [(p.player_id, p.place) for p in first.placings] == [("a2", 4)]


def test_rule_9_a_termination_places_the_round_at_once() -> None:
    # Given round 1 with a2 out at table 1 and table 3 still in its hand
    state = on_the_bubble()
    state.hand_ended("1", [BustOut("a2", 3_000)], ["b2"], NOW, lambda: POOL)
    # When the round stops (a termination)
    placings, entries = state.close_round(NOW, lambda: POOL)
    # Then a2 is placed now (the bubble: unpaid), and the tables are free of hand-for-hand
    assert [(p.player_id, p.place, p.prize) for p in placings] == [("a2", 4, 0)]
    assert entries == () and state.hand_for_hand is None and state.remaining == 3


@pytest.mark.parametrize(
    ("changes", "plays"),
    [
        ({}, True),
        ({"hand_for_hand": False}, False),
        ({"max_players": 2}, False),
        ({"max_players": 2, "hand_for_hand": True}, True),
    ],
)
def test_rule_9_hand_for_hand_is_on_by_default_when_the_field_fills_more_than_one_table(
    changes: dict[str, object], plays: bool
) -> None:
    # Given a configuration, Then hand-for-hand plays as set, else whenever the field can fill two tables
    made = config(**({"payout_percent": (100,)} if changes.get("max_players") == 2 else {}), **changes)
    assert made.plays_hand_for_hand is plays
    assert TournamentConfig.from_dict(made.to_dict()) == made


def test_hand_for_hand_state_is_stored_as_plain_data() -> None:
    # Given a round with one player out, When stored and read back, Then nothing is lost
    state = on_the_bubble()
    state.hand_ended("1", [BustOut("a2", 3_000)], ["b2"], NOW, lambda: POOL)
    again = TournamentState.from_dict(state.to_dict())
    assert again.hand_for_hand == state.hand_for_hand
    assert isinstance(again.hand_for_hand, HandForHand) and again.hand_for_hand.busted[0].player_id == "a2"


def test_rule_9_a_coordinator_that_dies_before_its_commit_leaves_the_round_as_stored() -> None:
    # Given a round stored in the memory store (which copies what it hands out, as a database would)
    from tourney.adapters.memory import MemoryStore
    from tourney.services.records import CoordinatorRecord

    store = MemoryStore(copy_records=True)
    uow = store.unit_of_work()
    uow.save(CoordinatorRecord("t", on_the_bubble()))
    uow.commit()
    # When a reader changes the round it read and never commits (an invocation that died)
    read = store.coordinators.get("t")
    assert read is not None and read.state.hand_for_hand is not None
    read.state.hand_for_hand.waiting.add("1")
    read.state.hand_for_hand.round += 1
    # Then the stored round is unchanged
    again = store.coordinators.get("t")
    assert again is not None and again.state.hand_for_hand is not None
    assert (again.state.hand_for_hand.round, again.state.hand_for_hand.waiting) == (1, set())
