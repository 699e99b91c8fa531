"""The double-entry ledger (docs/rules.md, Money)."""

from datetime import UTC, datetime

import pytest
from tourney.domain.errors import IdempotencyConflict, InsufficientFunds
from tourney.domain.fees import Purchase, PurchasePayment
from tourney.domain.ledger import (
    EXTERNAL,
    Account,
    AccountKind,
    Entry,
    EntryKind,
    Ledger,
    LedgerInconsistent,
    Leg,
    deposit,
    house_account,
    house_account_for,
    house_shard,
    overlay_account,
    player_account,
    pool_account,
    refunds_account,
    transfer,
    withdrawal,
)

AT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
LATER = datetime(2025, 3, 1, 12, 5, tzinfo=UTC)


def funded(*pairs: tuple[str, int]) -> Ledger:
    ledger = Ledger()
    for player, amount in pairs:
        ledger.post(deposit(f"dep:{player}", player, amount, AT))
    return ledger


def test_deposit_credits_the_wallet_and_debits_the_outside_world() -> None:
    # Given an empty ledger
    ledger = Ledger()
    # When 5,000 cents are deposited for ann
    entry = ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # Then ann holds 5,000, the outside world is 5,000 short, and the entry balances
    assert ledger.balance(player_account("ann")) == 5_000
    assert ledger.balance(EXTERNAL) == -5_000
    assert sum(leg.amount for leg in entry.legs) == 0
    assert entry.kind is EntryKind.DEPOSIT


def test_posting_the_same_key_twice_is_a_no_op_returning_the_original_entry() -> None:
    # Given a deposit already posted
    ledger = Ledger()
    first = ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # When the same movement is posted again later under the same key
    again = ledger.post(deposit("dep-1", "ann", 5_000, LATER))
    # Then nothing moves a second time and the original entry comes back
    assert again is first
    assert again.at == AT
    assert ledger.balance(player_account("ann")) == 5_000
    assert len(ledger) == 1


def test_a_different_movement_under_a_used_key_is_refused_and_moves_nothing() -> None:
    # Given a deposit of 5,000 under key dep-1
    ledger = Ledger()
    ledger.post(deposit("dep-1", "ann", 5_000, AT))
    # When a deposit of 6,000 is posted under the same key
    with pytest.raises(IdempotencyConflict) as error:
        ledger.post(deposit("dep-1", "ann", 6_000, AT))
    # Then it is refused with a stable code and the balance is unchanged
    assert error.value.code == "idempotency_conflict"
    assert ledger.balance(player_account("ann")) == 5_000


def test_a_wallet_never_goes_negative_and_a_refused_debit_moves_nothing() -> None:
    # Given ann holds 1,000
    ledger = funded(("ann", 1_000))
    pay = transfer("pay", EntryKind.BUY_IN, "t1", player_account("ann"), pool_account("t1"), 1_001, AT)
    assert pay is not None
    # When 1,001 is taken from her wallet
    with pytest.raises(InsufficientFunds) as error:
        ledger.post(pay)
    # Then it is refused, and neither account moved
    assert error.value.code == "insufficient_funds"
    assert ledger.balance(player_account("ann")) == 1_000
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.entry("pay") is None


def test_a_batch_is_atomic_when_its_second_entry_fails() -> None:
    # Given ann holds 1,000 and bob holds 100
    ledger = funded(("ann", 1_000), ("bob", 100))
    ann_pays = transfer("a", EntryKind.BUY_IN, "t1", player_account("ann"), pool_account("t1"), 500, AT)
    bob_pays = transfer("b", EntryKind.BUY_IN, "t1", player_account("bob"), pool_account("t1"), 500, AT)
    assert ann_pays is not None and bob_pays is not None
    # When both are posted in one batch and bob is short
    with pytest.raises(InsufficientFunds):
        ledger.post_all([ann_pays, bob_pays])
    # Then ann's part did not move either
    assert ledger.balance(player_account("ann")) == 1_000
    assert ledger.balance(pool_account("t1")) == 0
    assert len(ledger) == 2


def test_an_entry_whose_legs_do_not_sum_to_zero_cannot_exist() -> None:
    # Given legs of +100 and -99
    legs = (Leg(player_account("ann"), 100), Leg(EXTERNAL, -99))
    # Then the entry is rejected at construction
    with pytest.raises(ValueError, match="sum to zero"):
        Entry("k", EntryKind.DEPOSIT, None, legs, AT)


def test_an_entry_needs_two_legs_and_a_timezone_aware_time() -> None:
    with pytest.raises(ValueError, match="two legs"):
        Entry("k", EntryKind.DEPOSIT, None, (Leg(EXTERNAL, 0),), AT)
    with pytest.raises(ValueError, match="timezone"):
        deposit("k", "ann", 1, datetime(2025, 1, 1))


def test_house_revenue_is_named_per_tournament_and_per_shard() -> None:
    # Given a tournament with its house revenue split into 16 shards
    shard = house_shard("ann", 16)
    # Then a player's fees always go to the same shard of that tournament
    assert shard is not None and 0 <= shard < 16
    assert house_account_for("t1", "ann", 16) == house_account("t1", shard)
    assert str(house_account("t1", 3)) == "house:t1#3"
    # And with one shard the account is simply the tournament's
    assert str(house_account_for("t1", "ann", 1)) == "house:t1"
    # And the shards spread players (not all 200 in one shard)
    assert len({house_shard(f"p{i}", 16) for i in range(200)}) == 16


def test_account_names_round_trip() -> None:
    accounts = [
        player_account("ann:1"),
        pool_account("t1"),
        house_account("t1"),
        house_account("t1", 7),
        overlay_account("t1"),
        refunds_account("t1"),
        EXTERNAL,
    ]
    assert [Account.parse(str(a)) for a in accounts] == accounts
    assert [str(a) for a in accounts[:2]] == ["player:ann:1", "pool:t1"]


def test_balances_are_derived_from_the_entries_and_the_invariant_holds() -> None:
    # Given deposits, a registration, an overlay, a prize and a withdrawal
    ledger = funded(("ann", 5_000), ("bob", 5_000))
    for player in ("ann", "bob"):
        ledger.post_all(
            PurchasePayment(Purchase.BUY_IN, "t1", player, 1_000, 100).entries(f"register:t1:{player}:1", AT)
        )
    overlay = transfer("ov", EntryKind.OVERLAY, "t1", overlay_account("t1"), pool_account("t1"), 3_000, AT)
    prize = transfer("pz", EntryKind.PRIZE, "t1", pool_account("t1"), player_account("ann"), 5_000, AT)
    assert overlay is not None and prize is not None
    ledger.post_all([overlay, prize])
    ledger.post(withdrawal("wd", "ann", 2_000, AT))
    # When the ledger checks itself
    ledger.verify_invariants()
    # Then every figure is what the movements say
    summary = ledger.summary("t1")
    assert summary.as_report() == {
        "deposits": 10_000,
        "player_balances": 6_900 + 3_900,
        "prize_pool_collected": 2_000,
        "overlay": 3_000,
        "prizes_paid": 5_000,
        "house_revenue": 200,
        "refunds": 0,
        "withdrawals": 2_000,
        "prize_pool_held": 0,
        "refunds_owed": 0,
        "compensation": 0,
    }
    # And players + pool + house + refunds owed == deposits - withdrawals + overlay
    held = summary.player_balances + summary.prize_pool_held + summary.house_revenue + summary.refunds_owed
    assert held == summary.deposits - summary.withdrawals + summary.overlay == 11_000


def test_verify_invariants_detects_a_cache_out_of_step_with_the_entries() -> None:
    # Given a ledger whose cached balance was tampered with
    ledger = funded(("ann", 100))
    ledger._balances[player_account("ann")] += 1
    # Then the check finds it
    with pytest.raises(LedgerInconsistent, match="cached"):
        ledger.verify_invariants()


def test_the_overlay_account_may_run_negative_but_a_pool_may_not() -> None:
    ledger = Ledger()
    overlay = transfer("ov", EntryKind.OVERLAY, "t1", overlay_account("t1"), pool_account("t1"), 500, AT)
    assert overlay is not None
    ledger.post(overlay)
    assert ledger.balance(overlay_account("t1")) == -500
    too_much = transfer("pz", EntryKind.PRIZE, "t1", pool_account("t1"), player_account("ann"), 501, AT)
    assert too_much is not None
    with pytest.raises(InsufficientFunds):
        ledger.post(too_much)
    assert overlay_account("t1").kind is AccountKind.OVERLAY


def test_entries_can_be_listed_per_account_and_per_tournament() -> None:
    ledger = funded(("ann", 1_000), ("bob", 1_000))
    pay = transfer("pay", EntryKind.BUY_IN, "t1", player_account("ann"), pool_account("t1"), 10, AT)
    assert pay is not None
    ledger.post(pay)
    assert [e.key for e in ledger.entries(account=player_account("ann"))] == ["dep:ann", "pay"]
    assert [e.key for e in ledger.entries(tournament_id="t1")] == ["pay"]
