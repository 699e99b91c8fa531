"""Rules 9, 10: hand-for-hand played through the services (docs/rules.md, "Hand-for-hand").

A 60-player freezeout at 9-seat tables pays 9 places: with 10 players left at two tables, every table plays one
hand and waits for the other. The simulation keeps each round as the coordinator completes it.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from tourney.simulation.memory import Simulation, SimulationOptions


@pytest.mark.parametrize("seed", [10, 12])
def test_rule_9_no_table_deals_a_second_hand_for_hand_hand_before_every_table_finished_the_first(seed: int) -> None:
    # Given a multi-table freezeout played to its end (hand-for-hand is on by default)
    sim = Simulation(SimulationOptions(players=60, seed=seed))
    report = sim.run().report
    rounds, completed = report["hand_for_hand_rounds"], sim.rounds_completed_at
    # Then the bubble was played hand-for-hand, in rounds numbered from 1
    assert rounds and [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    # And between the end of one round and the end of the next, each table was dealt at most one hand
    for start, end in pairwise(completed):
        dealt = Counter(table for table, _, at in sim.dealt if start <= at < end)
        assert dealt and max(dealt.values()) == 1, (start, end, dealt)
    # And the places of every player out in a round are those the report gives, the bubble's last of all
    places = {row["player"]: row["place"] for row in report["places"]}
    for played in rounds:
        for bust in played["busted"]:
            assert places[bust["player"]] == bust["place"]
    assert max(b["place"] for r in rounds for b in r["busted"]) == 10


def test_rule_10_players_out_at_two_tables_in_one_round_are_ranked_by_chips_at_the_hands_start() -> None:
    # Given a simulated tournament (seed 214) whose bubble round ended with players out at both tables, the one whose
    # hand ended first holding more chips at its start
    rounds = Simulation(SimulationOptions(players=60, seed=214)).run().report["hand_for_hand_rounds"]
    (played,) = [r for r in rounds if len({b["table"] for b in r["busted"]}) > 1]
    first, second = played["busted"]  # in the order their hands ended
    assert first["start_chips"] > second["start_chips"]
    # Then the one with more chips takes the better place, whenever their hand ended; the other is the bubble
    assert (first["place"], second["place"]) == (9, 10)
