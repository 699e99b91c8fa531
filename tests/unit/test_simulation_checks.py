"""The simulation's money check: money held equals what came in (deposits) plus the house's overlay (RULES.md)."""

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
