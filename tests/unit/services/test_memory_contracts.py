"""The memory store keeps the storage contract (the same functions run against the DynamoDB store)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import MemoryStore

from tests.support.contracts import ALL_CONTRACTS


@pytest.mark.parametrize("contract", ALL_CONTRACTS, ids=lambda c: c.__name__)
def test_memory_store_keeps_the_contract(contract: Callable[[Callable[[], MemoryStore]], None]) -> None:
    # Given a fresh memory store per call; When the contract runs; Then its assertions hold
    contract(MemoryStore)
