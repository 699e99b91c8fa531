"""Whole tournaments in memory: the report, the money, the places, termination (rule 17).

Each simulation checks its own invariants after every hand (chips conserved,
tables within one, the big blind moving forward, the ledger balanced) and
raises ``SimulationError`` if one fails; these tests add the end-to-end facts.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from tourney.cli import main
from tourney.domain.formats import TournamentFormat
from tourney.domain.prizes import payout_for, prize_amounts
from tourney.simulation.memory import Simulation, SimulationOptions

from tests.support.pokerkit_oracle import replay_fields


def simulate(**kwargs: object) -> dict:  # type: ignore[type-arg]
    options = SimulationOptions(**{"players": 30, "seed": 5, **kwargs})  # type: ignore[arg-type]
    return Simulation(options).run().report


def test_freezeout_runs_to_one_winner_and_pays_the_pool_exactly() -> None:
    # Given 30 players in a freezeout, 10.00 buy-in and 1.00 fee
    report = simulate()
    # Then it finishes with every place given once
    assert report["tournament"]["status"] == "finished"
    assert sorted(p["place"] for p in report["places"]) == list(range(1, 31))
    # And the prizes are the payout table applied to the pool, to the cent
    prizes = sorted((p["prize"] for p in report["places"] if p["prize"]), reverse=True)
    assert prizes == list(prize_amounts(30 * 1_000, payout_for(30)))
    ledger = report["ledger"]
    assert ledger["prize_pool_collected"] == 30_000 and ledger["prizes_paid"] == 30_000
    assert ledger["house_revenue"] == 30 * 100
    # And money is conserved: balances + pools + house == deposits
    assert ledger["player_balances"] + ledger["prize_pool_held"] + ledger["house_revenue"] == ledger["deposits"]
    assert report["tables_at_start"] == 4 and report["final_table_formed"] is True and report["moves"] > 0


def test_rule_2_no_fee_takes_9_percent_commission_from_every_buy_in() -> None:
    # Given a freezeout with a 10.50 buy-in and no fee
    report = simulate(buy_in=1_050, entry_fee=0)
    # Then the house takes 95 cents per entrant (94.5 rounded half up) and the pool the rest
    assert report["ledger"]["house_revenue"] == 30 * 95
    assert report["ledger"]["prize_pool_collected"] == 30 * 955
    assert sum(p["prize"] for p in report["places"]) == 30 * 955


def test_guarantee_overlay_is_paid_by_the_house() -> None:
    # Given 20 players at 10.00 and a 500.00 guarantee
    report = simulate(players=20, guarantee=50_000)
    # Then the prizes add up to the guarantee and the overlay is the difference
    assert sum(p["prize"] for p in report["places"]) == 50_000
    assert report["ledger"]["overlay"] == 30_000


def test_sit_and_go_pays_50_30_20() -> None:
    report = simulate(players=9, format=TournamentFormat.SNG)
    prizes = {p["place"]: p["prize"] for p in report["places"]}
    assert report["tables_at_start"] == 1
    assert (prizes[1], prizes[2], prizes[3]) == (4_500, 2_700, 1_800)


def test_rebuy_tournament_counts_rebuys_and_add_ons_in_the_pool() -> None:
    # Given a rebuy tournament with no fee (4 % commission on rebuys and add-ons)
    report = simulate(format=TournamentFormat.REBUY, entry_fee=0, rebuy_minutes=30)
    entries = report["entries"]
    rebuys = sum(e["rebuys"] for e in entries)
    addons = sum(e["addons"] for e in entries)
    assert rebuys > 0
    # Then the pool holds every buy-in, rebuy and add-on less its commission
    assert report["ledger"]["prize_pool_collected"] == 30 * 910 + (rebuys + addons) * 960
    assert sum(p["prize"] for p in report["places"]) == report["ledger"]["prize_pool_collected"]
    assert sum(e["total_paid"] for e in entries) == 1_000 * (30 + rebuys + addons)


def test_rule_17_terminated_within_30_minutes_is_rolled_back() -> None:
    # Given a freezeout terminated 20 minutes after its first hand, with no restart
    report = simulate(terminate_at=20, restart=False)
    term = report["termination"]
    # Then every entrant, eliminated or not, gets back buy-in and fee
    assert report["tournament"]["status"] == "terminated"
    assert term["outcome"] == "rollback"
    assert sorted(p["amount"] for p in term["paid"]) == [1_100] * 30
    assert report["ledger"]["player_balances"] == report["ledger"]["deposits"]


def test_rule_17_freezeout_terminated_after_30_minutes_pays_the_pool_out() -> None:
    report = simulate(terminate_at=45, restart=False)
    term = report["termination"]
    assert term["outcome"] == "payout"
    paid_now = sum(p["amount"] for p in term["paid"])
    assert paid_now + report["ledger"]["prizes_paid"] == 30_000
    assert {p["player"] for p in term["paid"]} == {r["player"] for r in term["remaining"]}
    assert sum(r["chips"] for r in term["remaining"]) == 30 * 10_000


def test_rule_17_restart_resumes_and_finishes() -> None:
    report = simulate(terminate_at=45, restart=True)
    assert report["termination"]["outcome"] == "restarted"
    assert report["tournament"]["status"] == "finished"
    assert sum(p["prize"] for p in report["places"]) == 30_000


def test_simulate_command_writes_report_and_phh_that_pokerkit_replays(tmp_path: Path) -> None:
    # Given the command line of docs/interfaces.md
    report_file, phh_dir = tmp_path / "report.json", tmp_path / "phh"
    args = ["simulate", "--players", "12", "--seed", "2", "--no-progress", "--report", str(report_file)]
    code = main([*args, "--phh", str(phh_dir)])
    assert code == 0
    report = json.loads(report_file.read_text())
    assert {"tournament", "entries", "places", "ledger", "hands", "tables_at_start", "moves"} <= set(report)
    # Then every table's file holds its hands, in order, with the contract's fields
    hands = 0
    for path in sorted(phh_dir.glob("*.phh")):
        documents = tomllib.loads(path.read_text())
        numbers = sorted(documents, key=int)
        assert [documents[k]["hand"] for k in numbers] == list(range(1, len(numbers) + 1))
        for key in numbers:
            fields = documents[key]
            hands += 1
            assert fields["event"] == report["tournament"]["id"] and fields["table"] == int(path.stem)
            assert fields["_button"] in fields["seats"] and fields["_big_blind"] in fields["seats"]
            assert len(fields["players"]) == len(fields["seats"]) == len(fields["starting_stacks"])
            assert {"antes", "blinds_or_straddles", "min_bet", "actions", "_small_blind", "_level"} <= set(fields)
            # And pokerkit, replaying each hand strictly, finishes with the same stacks
            state = replay_fields(fields)
            assert list(state.stacks) == fields["finishing_stacks"]
    assert hands == report["hands"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_many_seeds_and_formats_keep_every_invariant(seed: int) -> None:
    for fmt in TournamentFormat:
        simulate(players=60 if fmt is not TournamentFormat.SNG else 9, seed=seed, format=fmt, entry_fee=seed % 2 * 100)


def test_a_table_drawn_with_one_player_waits_then_plays_when_a_second_arrives() -> None:
    # Given 25 players at heads-up tables: the start draw leaves one table with a single player
    report = simulate(players=25, seats=2, seed=9)
    # Then that player is moved in once room opens, and the tournament still ends with one winner
    assert report["tables_at_start"] == 13
    assert report["tournament"]["status"] == "finished"
    assert sorted(p["place"] for p in report["places"]) == list(range(1, 26))
    assert sum(p["prize"] for p in report["places"]) == 25 * 1_000


def test_the_simulator_decides_no_rule_it_plays_the_services() -> None:
    # Given the simulator's modules
    folder = Path(__file__).parents[2] / "layers" / "tourney" / "simulation"
    rules = ("balancing", "prizes", "recovery", "registration", "tournament")
    # Then none imports a rule module of the domain: every decision is the services'
    for path in folder.glob("*.py"):
        for line in path.read_text().splitlines():
            if line.startswith(("from tourney.domain.", "import tourney.domain.")):
                module = line.split()[1].split(".")[2]
                assert module not in rules, f"{path.name}: {line}"


@pytest.mark.parametrize("fmt", list(TournamentFormat))
def test_the_fast_store_plays_exactly_as_the_copying_store(fmt: TournamentFormat) -> None:
    # Given the same seeded tournament with records handed out as stored, and copied on every read and write
    players = 9 if fmt is TournamentFormat.SNG else 20
    extra = {"rebuy_minutes": 20, "add_on_chips": 5_000} if fmt is TournamentFormat.REBUY else {}
    fast = simulate(players=players, seed=4, format=fmt, fast=True, **extra)
    copying = simulate(players=players, seed=4, format=fmt, fast=False, **extra)
    # Then both play every hand the same and end with the same places and money
    assert fast == copying


def test_rules_3_max_players_puts_the_rest_on_the_waiting_list_and_refunds_it_at_the_start() -> None:
    # Given 25 players for a field capped at 20: five go on the waiting list
    report = simulate(players=25, max_players=20)
    # Then 20 play, and the five waiting are refunded buy-in and fee at the start
    assert len(report["entries"]) == 20
    assert sorted(p["place"] for p in report["places"]) == list(range(1, 21))
    assert report["ledger"]["refunds"] == 5 * 1_100
    assert report["ledger"]["prize_pool_collected"] == 20 * 1_000
