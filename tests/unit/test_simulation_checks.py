"""The simulation's checks: money held is what came in (deposits) plus the overlay (docs/rules.md); chips in play."""

from typing import Any

import pytest
from tourney.adapters.memory import MemoryStore
from tourney.domain.ledger import EXTERNAL, overlay_account, player_account, pool_account
from tourney.simulation.checks import SimulationError, _money_held


def store_with(balances: dict[Any, int], monkeypatch: pytest.MonkeyPatch) -> MemoryStore:
    store = MemoryStore()
    monkeypatch.setattr(store.money, "balance_items", lambda: balances.items())
    return store


def test_money_held_by_players_and_pools_is_what_was_deposited_plus_the_overlay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given 100 deposited, 30 of it in a pool the house topped up with 20 (zeros are skipped)
    balances = {EXTERNAL: -100, player_account("a"): 70, pool_account("t"): 50, overlay_account("t"): -20}
    balances[player_account("b")] = 0
    # Then the check passes
    _money_held(store_with(balances, monkeypatch))


@pytest.mark.parametrize(
    ("balances", "why"),
    [
        ({EXTERNAL: -100, player_account("a"): 101}, "money held 101 != deposits 100"),
        ({EXTERNAL: -100, player_account("a"): 130, pool_account("t"): -30}, "below zero: \\['pool:t'\\]"),
        ({EXTERNAL: -100, player_account("a"): 100, overlay_account("t"): -5}, "overlay 5"),
    ],
    ids=["a cent from nowhere", "a pool below zero", "an overlay nobody holds"],
)
def test_money_that_no_deposit_explains_is_a_simulation_error(
    balances: dict[Any, int], why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SimulationError, match=why):
        _money_held(store_with(balances, monkeypatch))


def test_rule_11_a_field_whose_players_are_never_moved_is_a_simulation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a planted defect: the coordinator never carries out balancing's seat moves
    from tourney.services import coordinate
    from tourney.simulation.memory import Simulation, SimulationOptions

    monkeypatch.setattr(coordinate, "seat_moves", lambda *args: [])
    # When a field of several tables plays down (the checks run after every hand below 200 players)
    # Then the checks stop the run: a table seats players balancing does not count there, or the players of broken
    # tables left play with their chips
    with pytest.raises(SimulationError, match=r"balancing counts|chips in play"):
        Simulation(SimulationOptions(players=40, seed=3)).run()
