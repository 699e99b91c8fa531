# ruff: noqa: F811  (pytest fixtures imported from tests.support.aws)
"""The money ledger on DynamoDB (moto): atomic, idempotent, never below zero, no hot item (docs/rules.md, Money)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from tourney.adapters.dynamo.ledger import DynamoLedger, LedgerShards
from tourney.adapters.dynamo.models.ledger import BalanceItem
from tourney.domain.errors import IdempotencyConflict, InsufficientFunds
from tourney.domain.fees import Purchase, PurchasePayment
from tourney.domain.ledger import (
    EXTERNAL,
    EntryKind,
    deposit,
    house_account,
    player_account,
    pool_account,
    transfer,
)

from tests.support.aws import AwsCallRecorder, aws, dynamodb, recorder, serial_aws  # noqa: F401

AT = datetime(2025, 1, 1, 12, tzinfo=UTC)

pytestmark = pytest.mark.usefixtures("dynamodb")


def register_entries(player: str, n: int = 1, tid: str = "t1"):
    return PurchasePayment(Purchase.BUY_IN, tid, player, 1_000, 100).entries(f"register:{tid}:{player}:{n}", AT)


def test_deposit_credits_the_wallet_and_the_balance_is_read_back() -> None:
    # Given an empty ledger
    ledger = DynamoLedger()
    # When an operator deposits 5,000 cents for ann
    ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # Then ann holds 5,000 and the outside world is 5,000 short
    assert ledger.balance(player_account("ann")) == 5_000
    assert ledger.balance(EXTERNAL) == -5_000


def test_registration_moves_buy_in_to_the_pool_and_fee_to_the_house_in_one_transaction(
    recorder: AwsCallRecorder,
) -> None:
    # Given ann with 1,100 cents
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 1_100, AT))
    recorder.clear()
    # When she pays a 1,000 + 100 registration (two entries)
    posted = ledger.post_all(register_entries("ann"))
    # Then one TransactWriteItems moved it all, and nothing else was written
    assert [w.operation for w in recorder.writes()] == ["TransactWriteItems"]
    assert len(posted) == 2
    assert ledger.balance(player_account("ann")) == 0
    assert ledger.balance(pool_account("t1")) == 1_000
    assert ledger.balance(house_account("t1")) == 100


def test_short_balance_raises_insufficient_funds_and_moves_nothing() -> None:
    # Given ann with 1,099 cents, one short of a 1,100 registration
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 1_099, AT))
    # When she tries to pay
    with pytest.raises(InsufficientFunds):
        ledger.post_all(register_entries("ann"))
    # Then nothing moved and no key was used
    assert ledger.balance(player_account("ann")) == 1_099
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(house_account("t1")) == 0
    assert ledger.entry("register:t1:ann:1:buy_in") is None
    assert ledger.entries(player_account("ann")) == (ledger.entry("dep-1"),)


def test_repeated_key_is_a_no_op_returning_the_stored_entry() -> None:
    # Given a deposit posted under key dep-1
    ledger = DynamoLedger()
    first = ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # When the same movement is posted again later (a retry with another timestamp)
    again = ledger.post(deposit("dep-1", "ann", 5_000, datetime(2025, 1, 2, tzinfo=UTC)))
    # Then nothing moves twice and the first entry is returned
    assert again == first
    assert ledger.balance(player_account("ann")) == 5_000
    assert len(ledger.entries(player_account("ann"))) == 1


def test_batch_with_one_repeated_entry_posts_only_the_new_one() -> None:
    # Given ann paid the buy-in part of a registration already
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 2_000, AT))
    buy_in, fee = register_entries("ann")
    ledger.post(buy_in)
    # When the whole registration batch is posted again
    stored = ledger.post_all([buy_in, fee])
    # Then only the fee moved now
    assert stored == (buy_in, fee)
    assert ledger.balance(player_account("ann")) == 900
    assert ledger.balance(pool_account("t1")) == 1_000


def test_a_different_movement_under_a_used_key_is_an_idempotency_conflict_and_moves_nothing() -> None:
    # Given dep-1 credited ann 5,000
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # When dep-1 is used for 7,000 to bob, together with another deposit
    with pytest.raises(IdempotencyConflict):
        ledger.post_all([deposit("dep-2", "cy", 100, AT), deposit("dep-1", "bob", 7_000, AT)])
    # Then nothing of the batch moved
    assert ledger.balance(player_account("bob")) == 0
    assert ledger.balance(player_account("cy")) == 0
    assert ledger.entry("dep-2") is None


def test_two_entries_debiting_one_wallet_are_checked_together() -> None:
    # Given ann with 1,500 cents and two 1,000-cent transfers in one batch
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 1_500, AT))
    one = transfer("x1", EntryKind.ADJUSTMENT, None, player_account("ann"), player_account("bob"), 1_000, AT)
    two = transfer("x2", EntryKind.ADJUSTMENT, None, player_account("ann"), player_account("cy"), 1_000, AT)
    assert one is not None and two is not None
    # When both are posted (the wallet is touched once, with the merged debit of 2,000)
    with pytest.raises(InsufficientFunds):
        ledger.post_all([one, two])
    # Then neither moved
    assert ledger.balance(player_account("ann")) == 1_500


def test_pool_and_house_credits_spread_over_shards_and_sum_to_the_total() -> None:
    # Given 12 players registering into one tournament with 8 pool and house shards
    ledger = DynamoLedger(LedgerShards(pool=8, house=8, external=8))
    players = [f"p{i:02d}" for i in range(12)]
    for player in players:
        ledger.post(deposit(f"dep-{player}", player, 1_100, AT))
        ledger.post_all(register_entries(player))
    # Then the pool is spread over several items and its total is every buy-in
    pool_shards = ledger.shard_balances(pool_account("t1"))
    assert sum(1 for amount in pool_shards.values() if amount) >= 4
    assert max(pool_shards.values()) < 12 * 1_000
    assert ledger.balance(pool_account("t1")) == 12 * 1_000
    assert ledger.balance(house_account("t1")) == 12 * 100
    assert BalanceItem.count("account#pool:t1") == 0  # no unsharded pool item exists


def test_refund_takes_from_the_shard_the_buy_in_went_to_then_from_others() -> None:
    # Given two players registered (their buy-ins in their own pool shards)
    ledger = DynamoLedger(LedgerShards(pool=4, house=4, external=4))
    for player in ("ann", "bob"):
        ledger.post(deposit(f"dep-{player}", player, 1_100, AT))
        ledger.post_all(register_entries(player))
    # When ann's registration is refunded in full
    refund = PurchasePayment(Purchase.BUY_IN, "t1", "ann", 1_000, 100).refund("refund:t1:ann:1", AT)
    assert refund is not None
    ledger.post(refund)
    # Then ann has her money back and the pool holds bob's buy-in only
    assert ledger.balance(player_account("ann")) == 1_100
    assert ledger.balance(pool_account("t1")) == 1_000
    assert ledger.balance(house_account("t1")) == 100
    assert all(amount >= 0 for amount in ledger.shard_balances(pool_account("t1")).values())


def test_a_prize_larger_than_any_shard_is_paid_from_several_shards() -> None:
    # Given 10 buy-ins spread over 4 pool shards
    ledger = DynamoLedger(LedgerShards(pool=4, house=4, external=4))
    for i in range(10):
        ledger.post(deposit(f"dep-{i}", f"p{i}", 1_100, AT))
        ledger.post_all(register_entries(f"p{i}"))
    # When the whole pool (10,000) is paid to the winner
    prize = transfer("prize:t1:p0", EntryKind.PRIZE, "t1", pool_account("t1"), player_account("p0"), 10_000, AT)
    assert prize is not None
    ledger.post(prize)
    # Then the pool is empty in every shard and the winner holds it
    assert ledger.shard_balances(pool_account("t1")) == {0: 0, 1: 0, 2: 0, 3: 0}
    assert ledger.balance(player_account("p0")) == 10_000
    # And a cent more cannot be paid
    more = transfer("prize:t1:p1", EntryKind.PRIZE, "t1", pool_account("t1"), player_account("p1"), 1, AT)
    assert more is not None
    with pytest.raises(InsufficientFunds):
        ledger.post(more)


def test_a_players_ledger_is_one_query_in_time_order(recorder: AwsCallRecorder) -> None:
    # Given ann deposited, registered, and was refunded
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 1_100, AT))
    ledger.post_all(register_entries("ann"))
    refund = PurchasePayment(Purchase.BUY_IN, "t1", "ann", 1_000, 100).refund(
        "refund:t1:ann:1", datetime(2025, 1, 1, 13, tzinfo=UTC)
    )
    assert refund is not None
    ledger.post(refund)
    recorder.clear()
    # When her entries are listed
    entries = ledger.entries(player_account("ann"))
    # Then one Query returned them, oldest first
    assert recorder.operations() == ["Query"]
    assert [e.key for e in entries] == [
        "dep-1",
        "register:t1:ann:1:buy_in",
        "register:t1:ann:1:entry_fee",
        "refund:t1:ann:1",
    ]


def test_concurrent_debits_of_one_wallet_never_take_it_below_zero(serial_aws: None) -> None:
    # Given ann with 3,300 cents and 8 threads each paying a 1,100 registration into a different tournament
    ledger = DynamoLedger()
    ledger.post(deposit("dep-1", "ann", 3_300, AT))
    outcomes: list[str] = []

    def pay(i: int) -> None:
        try:
            ledger.post_all(register_entries("ann", tid=f"t{i}"))
            outcomes.append("paid")
        except InsufficientFunds:
            outcomes.append("short")

    threads = [threading.Thread(target=pay, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then exactly three paid and the wallet is empty, never negative
    assert sorted(outcomes) == ["paid"] * 3 + ["short"] * 5
    assert ledger.balance(player_account("ann")) == 0
