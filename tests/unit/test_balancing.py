"""Balancing and breaking after every hand (docs/rules.md, 'Balancing and breaking'; rules 11, 12, 13)."""

import json
import random
import zlib

import pytest
from tourney.domain.balancing import Balancing, Move, MoveReason, SeatChange, TableSeats, seat_moves
from tourney.domain.errors import Conflict, NotFound
from tourney.domain.seating import draw_final_table

BAL = MoveReason.BALANCING
BRK = MoveReason.BREAKING


def test_rule_11_balancing_moves_from_largest_to_smallest() -> None:
    # Given tables A 9, B 9, C 5 at 9 seats
    balancing = Balancing(9, {"A": 9, "B": 9, "C": 5})
    # When A (a largest table) ends a hand with no elimination
    decision = balancing.after_hand("A")
    # Then A gives one player to C, and stops: it is no longer the largest
    assert decision.moves == (Move("A", "C", BAL),)
    assert balancing.sizes() == {"A": 8, "B": 9, "C": 6}
    # When B ends its hand, B (now the only largest) gives one to C
    assert balancing.after_hand("B").moves == (Move("B", "C", BAL),)
    # Then the tables are 8, 8, 7 and no further hand moves anyone
    assert balancing.sizes() == {"A": 8, "B": 8, "C": 7}
    assert [balancing.after_hand(t).moves for t in "ABC"] == [(), (), ()]


def test_rule_11_no_move_when_the_difference_is_one() -> None:
    # Given tables of 9 and 8
    balancing = Balancing(9, {"A": 9, "B": 8})
    # When the larger table ends a hand
    decision = balancing.after_hand("A")
    # Then nobody moves
    assert decision.moves == ()
    assert decision.deals
    assert balancing.sizes() == {"A": 9, "B": 8}


def test_rule_11_largest_table_in_a_hand_gives_when_its_hand_ends() -> None:
    # Given A 9, B 9, C 8 and C loses two players (C is now 6: two below the largest)
    balancing = Balancing(9, {"A": 9, "B": 9, "C": 8})
    decision = balancing.after_hand("C", eliminated=2)
    # Then C cannot take players from A or B, which are in a hand: nothing moves yet
    assert decision.moves == ()
    assert balancing.sizes() == {"A": 9, "B": 9, "C": 6}
    # When A and then B end their hands, each gives one player to the smallest table
    assert balancing.after_hand("A").moves == (Move("A", "C", BAL),)
    assert balancing.after_hand("B").moves == (Move("B", "C", BAL),)
    # Then the tables are 8, 8, 8
    assert balancing.sizes() == {"A": 8, "B": 8, "C": 8}


def test_rule_11_largest_table_gives_until_the_gap_is_below_two() -> None:
    # Given A 9 and B 4 (13 players need two tables)
    balancing = Balancing(9, {"A": 9, "B": 4})
    # When A ends a hand
    decision = balancing.after_hand("A")
    # Then A gives two players to B: 8/5, then 7/6
    assert decision.moves == (Move("A", "B", BAL), Move("A", "B", BAL))
    assert balancing.sizes() == {"A": 7, "B": 6}


def test_rule_12_break_the_table_of_the_most_recent_elimination_even_the_largest() -> None:
    # Given A 9, B 6, C 5 (20 players, 3 tables at 9 seats)
    balancing = Balancing(9, {"A": 9, "B": 6, "C": 5})
    # When A loses two players: 18 players now fit on two tables
    decision = balancing.after_hand("A", eliminated=2)
    # Then A is broken (it had the most recent elimination), not the smaller B or C
    assert decision.broken == ("A",)
    assert not decision.deals
    # And its 7 players go one by one to the table with the fewest: C, then B, C, B, C, B, C
    assert [m.to_table for m in decision.moves] == ["C", "B", "C", "B", "C", "B", "C"]
    assert {m.reason for m in decision.moves} == {BRK}
    assert balancing.sizes() == {"B": 9, "C": 9}
    assert (balancing.table_count, balancing.players) == (2, 18)


def test_rule_12_break_distributes_to_the_tables_with_the_fewest_players() -> None:
    # Given A 7, B 6, C 6 (19 players)
    balancing = Balancing(9, {"A": 7, "B": 6, "C": 6})
    # When C loses one: 18 players fit on two tables
    decision = balancing.after_hand("C", eliminated=1)
    # Then C's 5 go to B (6), then A and B alternately as they tie: B, A, B, A, B
    assert decision.moves == tuple(Move("C", t, BRK) for t in ["B", "A", "B", "A", "B"])
    assert balancing.sizes() == {"A": 9, "B": 9}


def test_rule_12_final_table_formed_and_redrawn_when_its_hand_ends() -> None:
    # Given two tables of 5 at 9 seats
    balancing = Balancing(9, {"A": 5, "B": 5})
    assert balancing.final_table is None
    # When A loses a player: the 9 left fit on one table
    decision = balancing.after_hand("A", eliminated=1)
    # Then A is broken into B, and B becomes the final table once its hand in progress ends
    assert decision.broken == ("A",)
    assert decision.moves == (Move("A", "B", BRK),) * 4
    assert decision.final_table is None
    assert balancing.final_table_pending == "B"
    # When B's hand ends
    at_b = balancing.after_hand("B", eliminated=0)
    # Then the final table is formed at B: every seat and the button are drawn again
    assert at_b.final_table == "B"
    assert (balancing.final_table, balancing.final_table_pending) == ("B", None)
    seats = draw_final_table([f"p{i}" for i in range(9)], 9, random.Random(3))
    assert sorted(seat for seat, _ in seats) == list(range(1, 10))
    # And later hands at B form nothing again
    assert balancing.after_hand("B").final_table is None


def test_rule_12_a_single_starting_table_is_the_final_table_without_redraw() -> None:
    # Given a Sit&Go of 6 on one table
    balancing = Balancing(9, {"S": 6})
    # Then it is the final table from the start and no hand asks for a redraw
    assert balancing.final_table == "S"
    assert balancing.after_hand("S", eliminated=1).final_table is None


def test_one_player_table_emptied_at_once() -> None:
    # Given A 8, B 8, C 3 (19 players)
    balancing = Balancing(9, {"A": 8, "B": 8, "C": 3})
    # When C loses two players and is left with one
    decision = balancing.after_hand("C", eliminated=2)
    # Then C deals no more: its player moves at once to A (the first of the smallest)
    assert decision.moves == (Move("C", "A", BRK),)
    assert decision.broken == ("C",)
    assert balancing.sizes() == {"A": 9, "B": 8}


def test_one_player_table_waits_when_every_other_table_is_full_then_resumes() -> None:
    # Given A 9 and B 8, and B loses 7 players: B has one player, A is full
    balancing = Balancing(9, {"A": 9, "B": 8})
    decision = balancing.after_hand("B", eliminated=7)
    # Then B does not deal and waits
    assert (decision.moves, decision.waiting, decision.deals) == ((), True, False)
    assert balancing.waiting == ("B",)
    # When A ends its hand, it gives to B until they are 5 and 5, and B resumes dealing
    at_a = balancing.after_hand("A")
    assert at_a.moves == (Move("A", "B", BAL),) * 4
    assert at_a.resumed == ("B",)
    assert balancing.waiting == ()
    assert balancing.sizes() == {"A": 5, "B": 5}


def test_one_player_waiting_table_emptied_as_soon_as_an_elimination_makes_room() -> None:
    # Given A 9, B 9 and C waiting with one player (19 players, three tables needed)
    balancing = Balancing(9, {"A": 9, "B": 9, "C": 1})
    # When B loses a player
    decision = balancing.after_hand("B", eliminated=1)
    # Then C's lone player moves at once into B's empty seat, and C closes
    assert decision.moves == (Move("C", "B", MoveReason.LONE_PLAYER),)
    assert decision.broken == ("C",)
    assert balancing.sizes() == {"A": 9, "B": 9}


def test_rule_15_one_player_left_finishes_the_tournament() -> None:
    balancing = Balancing(9, {"F": 2})
    decision = balancing.after_hand("F", eliminated=1)
    assert decision.finished and not decision.deals
    assert balancing.players == 1


def test_rule_13_moved_player_is_the_big_blind_due_and_sits_closest_to_the_button() -> None:
    # Given A gives one player to B; at A seat 5 is due for the big blind next
    table_a = TableSeats(seats={1: "a1", 3: "a3", 5: "a5", 7: "a7", 9: "a9"}, button_seat=1, next_big_blind_seat=5)
    # And B's last button was seat 6, with seats 4 and 8 empty
    table_b = TableSeats(seats={1: "b1", 2: "b2", 3: "b3", 5: "b5", 6: "b6", 7: "b7", 9: "b9"}, button_seat=6)
    # When the move is seated
    changes = seat_moves([Move("A", "B", BAL)], {"A": table_a, "B": table_b}, 9)
    # Then a5 moves from seat 5 to seat 8, the first empty seat clockwise after B's button
    assert changes == (SeatChange("a5", "A", 5, "B", 8, BAL),)


def test_rule_13_broken_table_seated_one_at_a_time_from_the_big_blind_due() -> None:
    # Given C is broken: c7 due for the big blind, then c9, c2 clockwise
    table_c = TableSeats(seats={2: "c2", 7: "c7", 9: "c9"}, button_seat=2, next_big_blind_seat=7)
    # And A (last button 9, seats 1 and 4 empty) and B (last button 2, seats 2 and 6 empty)
    table_a = TableSeats(seats={2: "a2", 3: "a3", 5: "a5", 6: "a6", 7: "a7", 8: "a8", 9: "a9"}, button_seat=9)
    table_b = TableSeats(seats={1: "b1", 3: "b3", 4: "b4", 5: "b5", 7: "b7", 8: "b8", 9: "b9"}, button_seat=2)
    moves = [Move("C", "B", BRK), Move("C", "A", BRK), Move("C", "B", BRK)]
    # When they are seated in order
    changes = seat_moves(moves, {"A": table_a, "B": table_b, "C": table_c}, 9)
    # Then c7 takes B's seat 6 (first empty after button 2), c9 takes A's seat 1, and c2 takes B's seat 2
    # (the button's own empty seat, last)
    assert [(c.player, c.from_seat, c.to_table, c.to_seat) for c in changes] == [
        ("c7", 7, "B", 6),
        ("c9", 9, "A", 1),
        ("c2", 2, "B", 2),
    ]


def test_rule_13_balancing_gives_several_in_big_blind_order() -> None:
    # Given A gives two players to B; A's seat 8 is due for the big blind
    table_a = TableSeats(seats={1: "a1", 4: "a4", 8: "a8", 9: "a9"}, button_seat=4, next_big_blind_seat=8)
    table_b = TableSeats(seats={1: "b1"}, button_seat=1)
    # When seated
    changes = seat_moves([Move("A", "B", BAL)] * 2, {"A": table_a, "B": table_b}, 9)
    # Then a8 and then a9 move, to seats 2 and 3 of B
    assert [(c.player, c.to_seat) for c in changes] == [("a8", 2), ("a9", 3)]


def test_balancing_refuses_unknown_tables_and_impossible_eliminations() -> None:
    balancing = Balancing(9, {"A": 5, "B": 5})
    with pytest.raises(NotFound):
        balancing.after_hand("Z")
    with pytest.raises(Conflict):
        balancing.after_hand("A", eliminated=5)
    with pytest.raises(NotFound):
        seat_moves([Move("A", "B", BAL)], {"A": TableSeats({1: "x"})}, 9)


def test_balancing_state_round_trips_and_decides_the_same() -> None:
    # Given a state part-way through (a waiting table, a recent elimination)
    one = Balancing(9, {"A": 9, "B": 8, "C": 7, "D": 9})
    one.after_hand("C", eliminated=2)
    two = Balancing.from_dict(one.to_dict())
    # When both see the same hands
    script = [("A", 0), ("D", 1), ("B", 0), ("C", 0), ("A", 3)]
    decisions_one = [one.after_hand(t, e) for t, e in script]
    decisions_two = [two.after_hand(t, e) for t, e in script]
    # Then they decide exactly alike
    assert decisions_one == decisions_two
    assert one.to_dict() == two.to_dict()


def test_rule_11_among_equally_small_tables_the_lowest_numbered_receives() -> None:
    # Given tables 12, 3 and 20 of 7 players (listed out of order) and table 5 of 9
    balancing = Balancing(9, {"12": 7, "5": 9, "20": 7, "3": 7})
    # When table 5 ends a hand: it gives one, then it is 8 against 7, a gap below two
    decision = balancing.after_hand("5")
    # Then the player goes to table 3, the lowest-numbered of the smallest (numbers, not text: 3 before 12)
    assert decision.moves == (Move("5", "3", BAL),)
    # And of the tables of 7 left, 12 comes before 20
    assert balancing.tables_by_count()[7] == ["12", "20"]


def test_rule_12_a_broken_tables_players_go_to_the_lowest_numbered_of_the_fewest_one_by_one() -> None:
    # Given 28 players on 4 tables of 9: table 2 loses one (27 fit on three tables)
    balancing = Balancing(9, {"1": 7, "2": 7, "10": 7, "4": 7})
    decision = balancing.after_hand("2", eliminated=1)
    # Then its six go one by one to the fewest, lowest-numbered first: 1, 4, 10, then again 1, 4, 10
    assert decision.broken == ("2",)
    assert [m.to_table for m in decision.moves] == ["1", "4", "10", "1", "4", "10"]


def test_the_balancing_state_of_a_250000_player_field_is_a_few_kb_compressed() -> None:
    # Given 27,778 tables of 9 seats after thousands of eliminations, moves and breaks at random tables
    rng = random.Random(7)
    balancing = Balancing(9, {str(n): 9 for n in range(1, 27_779)})
    tables = list(balancing.sizes())
    for _ in range(20_000):
        table = rng.choice(tables)
        try:
            balancing.after_hand(table, eliminated=rng.choice((0, 0, 1)))
        except NotFound:  # broken before
            tables.remove(table)
    # When the coordinator stores it (JSON, compressed as the adapter does)
    stored = zlib.compress(json.dumps(balancing.to_dict()).encode())
    # Then it is a few KB, not the 65 KB an order of arrival took, and it reads back the same
    assert len(stored) < 8_000, len(stored)
    assert Balancing.from_dict(json.loads(zlib.decompress(stored))).to_dict() == balancing.to_dict()


def test_one_player_table_of_a_heads_up_start_waits_for_a_partner() -> None:
    # Given 5 players at heads-up tables: the start draw gives 2, 2, 1
    balancing = Balancing(2, {"A": 2, "B": 2, "C": 1})
    # Then C waits from the start
    assert balancing.waiting == ("C",)
    # When A's hand eliminates one player, there is room: A's last player joins C, which resumes
    decision = balancing.after_hand("A", eliminated=1)
    assert decision.moves == (Move("A", "C", BRK),)
    assert decision.resumed == ("C",)
    assert balancing.sizes() == {"B": 2, "C": 2}
    assert balancing.waiting == ()


def test_scale_decision_cost_does_not_grow_with_the_field() -> None:
    # Given the benchmark's realistic hands at 1,000 and at 250,000 players (112 and 27,778 tables)
    from bench.balancing import measure_balancing

    small = measure_balancing(1_000, calls=3_000)
    large = measure_balancing(250_000, calls=3_000)
    assert (small["tables_at_start"], large["tables_at_start"]) == (112, 27_778)
    # Then the typical decision costs about the same: 248 times the tables, not 248 times the cost
    assert large["p50_us"] < 3 * small["p50_us"]
