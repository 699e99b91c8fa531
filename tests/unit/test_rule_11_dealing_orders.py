"""The dealing orders: which tables may deal their own next hand, from the tournament's state (domain/dealing.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.balancing import Balancing
from tourney.domain.dealing import DealingOrders
from tourney.domain.errors import Conflict
from tourney.domain.formats import TournamentFormat
from tourney.domain.prizes import BustOut
from tourney.domain.registration import TournamentStatus
from tourney.domain.structure import TournamentConfig
from tourney.domain.tournament import TournamentState

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def freezeout(tables: dict[str, int], **kw: object) -> TournamentState:
    config = TournamentConfig(format=TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, seats_per_table=9, **kw)  # type: ignore[arg-type]
    state = TournamentState.start("t1", config, tables)
    state.first_hand_dealt(NOW)
    state.fix_prizes(sum(tables.values()) * 1_000, NOW)
    return state


def test_rule_11_no_table_deals_on_its_own_before_the_prizes_are_fixed() -> None:
    # Given a freezeout seated but whose prizes are not fixed yet
    config = TournamentConfig(format=TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, seats_per_table=9)
    state = TournamentState.start("t1", config, {"A": 9, "B": 9})

    # Then every hand end goes to the coordination; once fixed, a table that gives nobody deals its own
    assert not state.dealing_orders().table_deals_on_its_own("A")
    state.fix_prizes(18_000, NOW)
    assert state.dealing_orders().table_deals_on_its_own("A")


def test_rule_11_a_largest_table_two_above_the_smallest_must_send_its_hand_end_up() -> None:
    # Given tables of 9, 9 and 7 players (balancing is due: the largest give one each to the smallest)
    orders = freezeout({"A": 9, "B": 9, "C": 7}).dealing_orders()

    # Then the tables of 9 report their hand ends (the first gives a player), the table of 7 deals on its own
    assert orders.report == {"A", "B"}
    assert not orders.table_deals_on_its_own("A")
    assert orders.table_deals_on_its_own("C")


def test_rule_11_a_few_of_many_largest_tables_are_named_to_give_as_many_as_the_smallest_tables() -> None:
    # Given 200 tables of 9, then 20 of 7 (balancing is due)
    tables = {f"L{i}": 9 for i in range(200)} | {f"S{i}": 7 for i in range(20)}
    state = freezeout(tables)
    # Then 20 tables of 9 are named to give, the oldest at 9 first; every other table deals on its own
    assert state.dealing_orders().report == {f"L{i}" for i in range(20)}
    # And with 2 tables of 7, still 8 are named (the first of them to end its hand gives); with 100, 64 at most
    assert len(freezeout({**{f"L{i}": 9 for i in range(200)}, "S0": 7, "S1": 7}).dealing_orders().report) == 8
    assert len(freezeout(tables | {f"S{i}": 7 for i in range(100)}).dealing_orders().report) == 64


def test_rule_11_tables_within_one_player_of_each_other_all_deal_on_their_own() -> None:
    orders = freezeout({"A": 9, "B": 8, "C": 8}).dealing_orders()
    assert orders.report == frozenset()
    assert all(orders.table_deals_on_its_own(t) for t in ("A", "B", "C"))


def test_rule_12_the_last_table_waits_for_its_final_table_redraw_by_name() -> None:
    # Given two tables, one of which busts players until the rest fit on one table while the other is in a hand
    state = freezeout({"A": 5, "B": 4})
    state.hand_ended("A", [BustOut("a1", 100), BustOut("a2", 100)], ("a3", "a4", "a5"), NOW, lambda: 9_000)

    # Then A was broken into B, whose hand is in progress: B's next hand end must reach the coordination
    orders = state.dealing_orders()
    assert state.balancing.final_table_pending == "B"
    assert "B" in orders.report
    assert not orders.table_deals_on_its_own("B")


def test_rule_9_hand_for_hand_and_the_bubble_send_every_hand_end_up() -> None:
    # Given 10 players left of a field paying 9 places... (a field of 60 pays 9: the bubble is at 10)
    state = freezeout({"A": 5, "B": 5}, max_players=60)
    state.entrants, state.remaining = 60, 10

    # Then on the bubble no table deals on its own: hand-for-hand is about to hold every table
    assert state.payout().places_paid == 9
    assert not state.dealing_orders().on_their_own
    state.remaining = 11
    assert state.dealing_orders().on_their_own


def test_rule_17_a_terminated_tournaments_tables_never_deal_on_their_own() -> None:
    state = freezeout({"A": 9, "B": 9})
    state.status = TournamentStatus.TERMINATED
    assert not state.dealing_orders().table_deals_on_its_own("A")


def test_rule_17_a_terminated_tournaments_pending_hand_end_is_settled_and_it_stays_terminated() -> None:
    # Given a freezeout of 18 terminated while a hand at A was being played
    state = freezeout({"A": 9, "B": 9})
    state.status = TournamentStatus.TERMINATED
    # When that hand's end is settled: one player out
    survivors = [f"a{i}" for i in range(8)]
    settled = state.hand_ended("A", [BustOut("out", 1_000)], survivors, NOW, lambda: 18_000)
    # Then the player is placed 18th, the tournament is still terminated and its tables still do not deal
    assert [(p.player_id, p.place) for p in settled.placings] == [("out", 18)]
    assert state.halted and state.in_play and state.remaining == 17
    assert not state.dealing_orders().on_their_own


def test_rule_15_a_finished_tournament_settles_no_hand_end() -> None:
    state = freezeout({"A": 9, "B": 9})
    state.status = TournamentStatus.FINISHED
    assert not state.in_play
    with pytest.raises(Conflict):
        state.hand_ended("A", [], [f"a{i}" for i in range(9)], NOW, lambda: 18_000)


def test_the_orders_deal_at_the_clocks_level_and_survive_plain_data() -> None:
    # Given the orders of a running freezeout with the default structure, an hour and a half in
    orders = freezeout({"A": 9, "B": 9}).dealing_orders()
    later = NOW + timedelta(minutes=95)

    # Then they deal the level the tournament's clock is at, and survive plain data unchanged
    state_level = freezeout({"A": 9, "B": 9}).level(later)
    assert orders.level(later) == state_level and state_level.number > 1
    raw = orders.to_dict()
    assert DealingOrders.from_dict(json.loads(json.dumps(raw))) == orders


def test_rule_11_balancing_names_no_table_when_a_break_is_due_and_its_table_is_gone() -> None:
    # Given a break due after players left a table between hands that is not the table of the last elimination
    balancing = Balancing(9, {"A": 5, "B": 5, "C": 3})
    balancing.leave("C", 3)  # disqualified at C: C is gone, 10 players fit on two tables, nothing to break
    assert balancing.hand_ends_needed() == frozenset()
    balancing = Balancing(9, {"A": 5, "B": 4, "C": 5})
    balancing.leave("C", 1)  # 13 players on three tables of 9: they fit on two, the last elimination is nowhere

    # Then any table's hand end will do: none deals on its own until one breaks
    assert balancing.hand_ends_needed() is None
