# ruff: noqa: F811  (pytest fixtures imported from tests.support.aws)
"""The DynamoDB store keeps the storage contract (``tests/support/contracts.py``), the memory store's twin."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.dynamo.ledger import LedgerShards
from tourney.adapters.dynamo.store import DynamoStore

from tests.support.aws import aws, dynamodb  # noqa: F401
from tests.support.contracts import ALL_CONTRACTS


@pytest.mark.parametrize(
    "shards", [pytest.param(1, marks=pytest.mark.slow, id="one-item-pools"), pytest.param(4, id="sharded-pools")]
)
@pytest.mark.parametrize("contract", ALL_CONTRACTS, ids=lambda c: c.__name__)
def test_dynamo_store_keeps_the_contract(
    contract: Callable[[Callable[[], DynamoStore]], None], shards: int, dynamodb: dict[str, str]
) -> None:
    # Given a fresh set of tables per test (moto) and the store over them, its hot accounts in 1 or 4 items
    def factory() -> DynamoStore:
        return DynamoStore(LedgerShards(pool=shards, house=shards, external=shards))

    # When the contract runs; Then its assertions hold
    contract(factory)
